-- Per player and discipline: draw matches played, wins, first and last year. The same rows and
-- rules as player_totals (10_player_totals.sql: finished, walkovers not counted as played), so
-- a profile's by_discipline always sums to its list item.
DROP TABLE IF EXISTS player_discipline_totals;
CREATE TABLE player_discipline_totals AS
SELECT s.player_id, s.discipline, count(*)::int AS matches, count(*) FILTER (WHERE s.won)::int AS wins,
       min(s.year) AS first_year, max(s.year) AS last_year
FROM (
    SELECT unnest(m.side1) AS player_id, m.discipline, m.winner = 1 AS won, t.year
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE m.status = 'finished' AND m.outcome <> 'walkover'
    UNION ALL
    SELECT unnest(m.side2), m.discipline, m.winner = 2, t.year
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE m.status = 'finished' AND m.outcome <> 'walkover'
) s
GROUP BY s.player_id, s.discipline;
ALTER TABLE player_discipline_totals ADD PRIMARY KEY (player_id, discipline);

-- The player list in its served order (most matches first, then id), with the filters' columns,
-- so a page of /v1/players is an index range instead of a sort of every player.
DROP TABLE IF EXISTS player_list;
CREATE TABLE player_list AS
SELECT p.id AS player_id, p.country, p.gender, coalesce(pt.matches, 0) AS matches, fold(p.name) AS folded
FROM players p LEFT JOIN player_totals pt ON pt.player_id = p.id;
ALTER TABLE player_list ADD PRIMARY KEY (player_id);
CREATE INDEX player_list_order ON player_list (matches DESC, player_id);
CREATE INDEX player_list_country ON player_list (country, matches DESC, player_id);
CREATE INDEX player_list_gender ON player_list (gender, matches DESC, player_id);
CREATE INDEX player_list_trgm ON player_list USING gin (folded gin_trgm_ops);
-- The list's size for each filter by country and gender (any_*: the filter is not used), so a
-- page without a name fragment need not count the whole list (63 k women at full scale).
DROP TABLE IF EXISTS player_list_sizes;
CREATE TABLE player_list_sizes AS
SELECT country, gender, GROUPING(country) = 1 AS any_country, GROUPING(gender) = 1 AS any_gender, count(*)::int AS n
FROM player_list
GROUP BY GROUPING SETS ((country, gender), (country), (gender), ());
-- Derived tables are built after the import's ANALYZE; fresh statistics keep plans on the indexes.
ANALYZE player_discipline_totals;
ANALYZE player_list;
