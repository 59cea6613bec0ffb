-- Per player, discipline and partner (NULL in singles): matches together, wins, titles
-- (individual finals won) and the first and last year together.
DROP TABLE IF EXISTS player_partners;
CREATE TABLE player_partners AS
SELECT player_id, discipline, partner,
       count(*)::int AS matches, count(*) FILTER (WHERE won)::int AS wins,
       count(*) FILTER (WHERE won AND final)::int AS titles,
       min(year) AS first_year, max(year) AS last_year
FROM player_match
GROUP BY player_id, discipline, partner;
CREATE INDEX player_partners_player ON player_partners (player_id, matches DESC);
ANALYZE player_partners;
