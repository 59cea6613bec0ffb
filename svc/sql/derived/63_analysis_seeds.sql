-- How seeds perform, pre-counted per year, discipline and seed so /v1/analysis/seeds sums a few
-- hundred rows. Individual draws only (team events have no seeds; their ties are national).
-- An entry is a seeded side in one draw (tournament, discipline, sport class).
DROP TABLE IF EXISTS seed_stats;
CREATE TABLE seed_stats AS
WITH sides AS (
    SELECT m.tournament_id, t.year, m.discipline, m.sport_class, m.round_code, m.side1 AS side, m.seed1 AS seed,
           m.winner = 1 AS won
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE NOT t.team AND m.seed1 IS NOT NULL
    UNION ALL
    SELECT m.tournament_id, t.year, m.discipline, m.sport_class, m.round_code, m.side2, m.seed2, m.winner = 2
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE NOT t.team AND m.seed2 IS NOT NULL
), entries AS (
    SELECT tournament_id, year, discipline, sport_class, side, min(seed) AS seed,
           bool_or(round_code IN ('SF', 'F')) AS reached_sf,
           bool_or(round_code = 'F') AS reached_f,
           bool_or(round_code = 'F' AND won) AS won
    FROM sides
    GROUP BY tournament_id, year, discipline, sport_class, side
)
SELECT year, discipline, seed, count(*)::int AS entries,
       count(*) FILTER (WHERE reached_sf)::int AS reached_sf,
       count(*) FILTER (WHERE reached_f)::int AS reached_f,
       count(*) FILTER (WHERE won)::int AS won
FROM entries
GROUP BY year, discipline, seed;
CREATE INDEX seed_stats_year ON seed_stats (year, discipline);

-- Finished knockout matches of a seeded against an unseeded side (walkovers left out: nothing
-- was played), per year, discipline and round.
DROP TABLE IF EXISTS seed_rounds;
CREATE TABLE seed_rounds AS
SELECT t.year, m.discipline, m.round_code, count(*)::int AS matches,
       count(*) FILTER (WHERE (m.seed1 IS NOT NULL AND m.winner = 1) OR (m.seed2 IS NOT NULL AND m.winner = 2))::int
           AS seeded_wins
FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE NOT t.team AND m.status = 'finished' AND m.outcome <> 'walkover' AND m.round_code IS NOT NULL
  AND (m.seed1 IS NULL) <> (m.seed2 IS NULL)
GROUP BY t.year, m.discipline, m.round_code;
CREATE INDEX seed_rounds_year ON seed_rounds (year, discipline);
ANALYZE seed_stats;  -- fresh statistics: built after the import's ANALYZE
ANALYZE seed_rounds;
