-- name: table-size
-- The size of the all-time rating table of :discipline as on :day, every player first rated
-- before it (a standing never lapses from that table), and of the discipline's whole field.
SELECT count(*) FILTER (WHERE f.day < :day::date) AS total, count(*) AS field
FROM rating_firsts f
WHERE f.discipline = :discipline;

-- name: table-by-day
-- One page of the rating table of :discipline as on :day: each player's standing in force then
-- (rated before :day, not again until :day or later) among those rated on or after :since, best
-- first with the standard competition rank, the table's size, and the player. Reads the days from :since to :day
-- (rating_days_by_day): the active table, or an all-time table of an early day. Materialized, so
-- that the plan never walks the whole discipline best first for a table of few players (on the
-- full world: 171 k standings read for XD as on 1930, 30 ms, when its size was overestimated).
WITH latest AS MATERIALIZED (
    SELECT r.player_id, r.day, r.rating, r.variance, r.matches
    FROM rating_days r
    WHERE r.discipline = :discipline AND r.day >= :since::date AND r.day < :day::date
      AND (r.until IS NULL OR r.until >= :day::date)
), ranked AS (
    SELECT latest.*, rank() OVER (ORDER BY rating DESC) AS rank, count(*) OVER () AS total
    FROM latest
    ORDER BY rating DESC, player_id
    OFFSET :offset LIMIT :limit
)
SELECT ranked.*, p.name, p.country
FROM ranked JOIN players p ON p.id = ranked.player_id
ORDER BY ranked.rank, ranked.player_id;

-- name: table-best
-- The same page (without the size: table-size) read best first (rating_days_best), stopping
-- after it: for the first pages of a
-- big all-time table, where table-by-day would read every day before :day. The ranks of the
-- page need only the standings above it, all of which are read. Prepared once (asyncpg's cache),
-- it took 87-92 ms from its sixth call on, when PostgreSQL may keep a generic plan; 3 ms planned
-- per call, on the full world:
-- plan: per call
WITH top AS (
    SELECT r.player_id, r.day, r.rating, r.variance, r.matches
    FROM rating_days r
    WHERE r.discipline = :discipline AND r.day >= :since::date AND r.day < :day::date
      AND (r.until IS NULL OR r.until >= :day::date)
    ORDER BY r.rating DESC, r.player_id
    LIMIT :offset::int + :limit::int
), ranked AS (
    SELECT top.*, rank() OVER (ORDER BY rating DESC) AS rank
    FROM top
    ORDER BY rating DESC, player_id
    OFFSET :offset
)
SELECT ranked.*, p.name, p.country
FROM ranked JOIN players p ON p.id = ranked.player_id
ORDER BY ranked.rank, ranked.player_id;

-- name: player-history
-- One page of a player's rating history before :day, newest first, in one discipline or all (and,
-- for para play, in one of :classes or any); each row with the change from the player's previous
-- day in that discipline and the history's size. A para standing is rated as "MS WH1"
-- (rated_results.rated_as): its discipline and class apart.
SELECT split_part(r.discipline, ' ', 1) AS discipline, nullif(split_part(r.discipline, ' ', 2), '') AS sport_class,
       r.day, r.rating, r.variance, r.matches,
       r.rating - lag(r.rating) OVER (PARTITION BY r.discipline ORDER BY r.day) AS change,
       count(*) OVER () AS total
FROM rating_days r
WHERE r.player_id = :player AND r.day < :day
  AND (:discipline::text IS NULL OR split_part(r.discipline, ' ', 1) = :discipline)
  AND (:classes::text[] IS NULL OR split_part(r.discipline, ' ', 2) = ANY (:classes::text[]))
ORDER BY r.day DESC, array_position(ARRAY['MS','WS','MD','WD','XD'], split_part(r.discipline, ' ', 1)), r.discipline
OFFSET :offset LIMIT :limit;

-- name: class-rated-as
-- Which of :keys (a para discipline and class, the pair written either way round) is rated.
SELECT k FROM unnest(:keys::text[]) k WHERE EXISTS (SELECT 1 FROM rating_firsts f WHERE f.discipline = k) LIMIT 1;
