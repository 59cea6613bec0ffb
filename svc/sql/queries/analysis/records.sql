-- Record lists keep every entry tied with the last place asked for (FETCH ... WITH TIES), so
-- `place` is the standard competition rank and never exceeds :limit.

-- name: record-finals-all
-- replica: ok
-- Players by finals reached (:what = finals) or won (:what = titles) over every year (:scope ALL
-- or one discipline), most first: the first :limit places with the first and last year counted.
WITH top AS (
    SELECT player_id, CASE WHEN :what = 'titles' THEN titles ELSE finals END AS value,
           CASE WHEN :what = 'titles' THEN titles_from ELSE finals_from END AS first_year,
           CASE WHEN :what = 'titles' THEN titles_to ELSE finals_to END AS last_year
    FROM record_final_totals
    WHERE scope = :scope AND CASE WHEN :what = 'titles' THEN titles ELSE finals END > 0
    ORDER BY 2 DESC FETCH FIRST (:limit) ROWS WITH TIES
)
SELECT rank() OVER (ORDER BY t.value DESC) AS place, t.value, t.first_year, t.last_year, p.id, p.name, p.country
FROM top t JOIN players p ON p.id = t.player_id
ORDER BY place, p.name, p.id;

-- name: record-finals-range
-- replica: ok
-- Players by finals reached (:what = finals) or won (:what = titles) in the years and discipline
-- asked, most first: the first :limit places with the first and last year counted.
WITH counted AS (
    SELECT player_id, sum(CASE WHEN :what = 'titles' THEN titles ELSE finals END)::int AS value,
           min(year) FILTER (WHERE CASE WHEN :what = 'titles' THEN titles ELSE finals END > 0) AS first_year,
           max(year) FILTER (WHERE CASE WHEN :what = 'titles' THEN titles ELSE finals END > 0) AS last_year
    FROM record_finals
    WHERE (:discipline::text IS NULL OR discipline = :discipline)
      AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
    GROUP BY player_id
), top AS (
    SELECT * FROM counted WHERE value > 0 ORDER BY value DESC FETCH FIRST (:limit) ROWS WITH TIES
)
SELECT rank() OVER (ORDER BY t.value DESC) AS place, t.value, t.first_year, t.last_year, p.id, p.name, p.country
FROM top t JOIN players p ON p.id = t.player_id
ORDER BY place, p.name, p.id;

-- name: record-streaks-all
-- replica: ok
-- The longest winning streaks over every year (:scope ALL or one discipline): the first :limit
-- places with the players and the days of the first and last win.
WITH top AS (
    SELECT * FROM record_streaks WHERE scope = :scope ORDER BY wins DESC FETCH FIRST (:limit) ROWS WITH TIES
)
SELECT rank() OVER (ORDER BY t.wins DESC) AS place, t.wins AS value, t.first_day, t.last_day, p.id, p.name, p.country
FROM top t JOIN players p ON p.id = t.player_id
ORDER BY place, t.first_day, p.id;

-- name: record-streaks-range
-- replica: ok
-- The longest winning streaks counted inside the years asked (a streak crossing the range's edge
-- counts only its wins inside it): the first :limit places. A cut streak is never longer than
-- the whole one, so only streaks at least as long as the :limit-th longest streak lying wholly
-- inside the range can place; only those are cut.
WITH bounds AS (
    SELECT coalesce(:from_year::int, 0) AS lo, coalesce(:to_year::int, 9999) AS hi
), floor AS (
    SELECT coalesce((SELECT s.wins FROM record_streaks s, bounds b
                     WHERE s.scope = :scope AND s.first_year >= b.lo AND s.last_year <= b.hi
                     ORDER BY s.wins DESC OFFSET (:limit - 1) LIMIT 1), 1) AS wins
), cut AS (
    SELECT s.player_id, s.run, sum(y.wins)::int AS wins, min(y.first_day) AS first_day, max(y.last_day) AS last_day
    FROM record_streaks s CROSS JOIN bounds b CROSS JOIN floor f
    JOIN record_streak_years y ON y.scope = s.scope AND y.player_id = s.player_id AND y.run = s.run
                               AND y.year BETWEEN b.lo AND b.hi
    WHERE s.scope = :scope AND s.wins >= f.wins AND s.first_year <= b.hi AND s.last_year >= b.lo
    GROUP BY s.player_id, s.run
), top AS (
    SELECT * FROM cut ORDER BY wins DESC FETCH FIRST (:limit) ROWS WITH TIES
)
SELECT rank() OVER (ORDER BY t.wins DESC) AS place, t.wins AS value, t.first_day, t.last_day, p.id, p.name, p.country
FROM top t JOIN players p ON p.id = t.player_id
ORDER BY place, t.first_day, p.id;

-- name: record-margins
-- replica: ok
-- Completed matches with the widest margin in points over the whole match: the first :limit
-- places, each a draw match row of event_rows.
WITH top AS (
    SELECT match_id, margin AS value FROM record_matches
    WHERE (:discipline::text IS NULL OR discipline = :discipline)
      AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
    ORDER BY margin DESC FETCH FIRST (:limit) ROWS WITH TIES
)
SELECT rank() OVER (ORDER BY t.value DESC) AS place, t.value, e.*
FROM top t JOIN event_rows e ON e.match_id = t.match_id
ORDER BY place, e.year, e.match_id;

-- name: record-points
-- replica: ok
-- Completed matches with the most points played (both sides, every game): the first :limit
-- places, each a draw match row of event_rows.
WITH top AS (
    SELECT match_id, points AS value FROM record_matches
    WHERE (:discipline::text IS NULL OR discipline = :discipline)
      AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
    ORDER BY points DESC FETCH FIRST (:limit) ROWS WITH TIES
)
SELECT rank() OVER (ORDER BY t.value DESC) AS place, t.value, e.*
FROM top t JOIN event_rows e ON e.match_id = t.match_id
ORDER BY place, e.year, e.match_id;
