-- Each player's place in every published ranking list (both players of a pair get a row), and
-- their best place per discipline (career highs), looked up by player.
DROP TABLE IF EXISTS player_rankings;
CREATE TABLE player_rankings AS
SELECT r.player1 AS player_id, r.week, r.discipline, r.rank, r.points, r.player2 AS partner_id
FROM rankings r WHERE r.player1 IS NOT NULL
UNION ALL
SELECT r.player2, r.week, r.discipline, r.rank, r.points, r.player1
FROM rankings r WHERE r.player2 IS NOT NULL;
CREATE INDEX player_rankings_player ON player_rankings (player_id, week DESC, discipline);

-- Best rank per player and discipline; the first list that showed it (a later equal rank is
-- not a new high), with the partner of that list.
DROP TABLE IF EXISTS player_career_highs;
CREATE TABLE player_career_highs AS
SELECT DISTINCT ON (player_id, discipline) player_id, discipline, rank, week, partner_id
FROM player_rankings
ORDER BY player_id, discipline, rank, week;
ALTER TABLE player_career_highs ADD PRIMARY KEY (player_id, discipline);
ANALYZE player_rankings;  -- fresh statistics: built after the import's ANALYZE
ANALYZE player_career_highs;
