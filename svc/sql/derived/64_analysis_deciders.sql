-- Deciding games and game lengths, pre-counted per year and discipline for /v1/analysis/deciders.
-- Completed matches only (outcome played: every game finished). Extended games (the loser reached
-- 20) are counted under 21-point rally scoring only, from 1 August 2006; `rally_games` is the
-- number of games they are a share of.
DROP TABLE IF EXISTS decider_stats;
CREATE TABLE decider_stats AS
WITH played AS (
    SELECT m.id, t.year, m.discipline, m.g1, m.g2, cardinality(m.g1) AS games,
           coalesce(m.day, t.start_date, make_date(t.year, 12, 31)) >= date '2006-08-01' AS rally,
           (m.g1[1] > m.g2[1]) <> (m.winner = 1) AS first_loser_won
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE m.status = 'finished' AND m.outcome = 'played' AND cardinality(m.g1) >= 2
), games AS (
    SELECT p.id, sum(a + b)::bigint AS points,
           count(*) FILTER (WHERE p.rally AND least(a, b) >= 20)::int AS extended
    FROM played p, unnest(p.g1, p.g2) AS g(a, b)
    GROUP BY p.id
)
SELECT p.year, p.discipline, count(*)::int AS matches,
       count(*) FILTER (WHERE p.games = 3)::int AS three_game,
       count(*) FILTER (WHERE p.first_loser_won)::int AS first_loser_wins,
       sum(p.games)::int AS games, sum(g.points)::bigint AS points,
       coalesce(sum(p.games) FILTER (WHERE p.rally), 0)::int AS rally_games,
       sum(g.extended)::int AS extended_games
FROM played p JOIN games g ON g.id = p.id
GROUP BY p.year, p.discipline;
CREATE INDEX decider_stats_year ON decider_stats (year, discipline);
ANALYZE decider_stats;  -- fresh statistics: built after the import's ANALYZE
