-- name: schedule
-- A player's events (editions with a match of theirs, of :discipline when given) that started on
-- or before :day, oldest first, each as on :day: disciplines, finished matches and wins up to
-- :day, the furthest knockout round reached (3P counts as SF; a won round reaches the next), whether they won an individual
-- final, and finished matches in the 30, 60 and 90 days up to :day.
-- The editions are looked up once per edition, after the matches are summed (a match without a
-- day looks its edition up alone): joining each match to every edition hashed or walked all
-- 9,934 editions on the full world.
WITH mine AS (
    SELECT m.tournament_id, m.discipline, m.round_code, m.status, m.winner,
           CASE WHEN m.side1 @> ARRAY[:id::text] THEN 1 ELSE 2 END AS side,
           coalesce(m.day, (SELECT coalesce(t.start_date, make_date(t.year, 1, 1))
                            FROM tournaments t WHERE t.id = m.tournament_id)) AS day
    FROM matches m
    WHERE (m.side1 @> ARRAY[:id::text] OR m.side2 @> ARRAY[:id::text])
      AND (:discipline::text IS NULL OR m.discipline = :discipline::text)
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
           coalesce(bool_or(round_code = 'F' AND status = 'finished' AND winner = side
                            AND day <= :day::date), false) AS final_won,
           count(*) FILTER (WHERE status = 'finished' AND day <= :day::date AND day > :day::date - 30)::int AS matches_30,
           count(*) FILTER (WHERE status = 'finished' AND day <= :day::date AND day > :day::date - 60)::int AS matches_60,
           count(*) FILTER (WHERE status = 'finished' AND day <= :day::date AND day > :day::date - 90)::int AS matches_90
    FROM mine
    GROUP BY tournament_id
)
SELECT t.id, t.name, t.year, t.level, t.start_date, t.end_date, e.tournament_id, e.disciplines, e.matches,
       e.wins, e.furthest_rank, e.final_won AND NOT t.team AS title, e.matches_30, e.matches_60, e.matches_90
FROM per_event e
CROSS JOIN LATERAL (SELECT * FROM tournaments t WHERE t.id = e.tournament_id LIMIT 1) t  -- one lookup an edition
WHERE coalesce(t.start_date, make_date(t.year, 1, 1)) <= :day::date
ORDER BY coalesce(t.start_date, make_date(t.year, 1, 1)), t.end_date NULLS FIRST, t.id;
