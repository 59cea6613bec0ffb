-- name: schedule
-- A player's events (editions with a match of theirs, of :discipline when given) that started on
-- or before :day, oldest first, each as on :day: disciplines, finished matches and wins up to
-- :day, the furthest knockout round reached (3P counts as SF; a won round reaches the next), whether they won an individual
-- final, and finished matches in the 30, 60 and 90 days up to :day.
WITH mine AS (
    SELECT m.tournament_id, m.discipline, m.round_code, m.status, m.winner,
           CASE WHEN m.side1 @> ARRAY[:id::text] THEN 1 ELSE 2 END AS side,
           coalesce(m.day, t.start_date, make_date(t.year, 1, 1)) AS day, t.team
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE (m.side1 @> ARRAY[:id::text] OR m.side2 @> ARRAY[:id::text])
      AND (:discipline::text IS NULL OR m.discipline = :discipline::text)
      AND coalesce(t.start_date, make_date(t.year, 1, 1)) <= :day::date
), per_event AS (
    SELECT tournament_id,
           array_agg(DISTINCT discipline ORDER BY discipline) AS disciplines,
           count(*) FILTER (WHERE status = 'finished' AND day <= :day::date)::int AS matches,
           count(*) FILTER (WHERE status = 'finished' AND day <= :day::date AND winner = side)::int AS wins,
           -- a round is reached by standing in it, or by winning the round before (QF won: SF reached)
           max(CASE WHEN round_code = '3P' THEN round_rank('SF')
                    WHEN round_code IS NULL OR round_code = 'F' THEN round_rank(round_code)
                    WHEN status = 'finished' AND winner = side AND round_code = 'SF' THEN round_rank('F')
                    WHEN status = 'finished' AND winner = side THEN round_rank(round_code) + 1
                    ELSE round_rank(round_code) END)
               FILTER (WHERE day <= :day::date) AS furthest_rank,
           coalesce(bool_or(round_code = 'F' AND NOT team AND status = 'finished' AND winner = side
                            AND day <= :day::date), false) AS title,
           count(*) FILTER (WHERE status = 'finished' AND day <= :day::date AND day > :day::date - 30)::int AS matches_30,
           count(*) FILTER (WHERE status = 'finished' AND day <= :day::date AND day > :day::date - 60)::int AS matches_60,
           count(*) FILTER (WHERE status = 'finished' AND day <= :day::date AND day > :day::date - 90)::int AS matches_90
    FROM mine
    GROUP BY tournament_id
)
SELECT t.id, t.name, t.year, t.level, t.start_date, t.end_date, e.*
FROM per_event e JOIN tournaments t ON t.id = e.tournament_id
ORDER BY coalesce(t.start_date, make_date(t.year, 1, 1)), t.end_date NULLS FIRST, t.id;
