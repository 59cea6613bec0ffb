-- World number-one reigns since 1 October 2009, per discipline. A reign is an unbroken run of
-- published lists with the same entry (a player, or a pair as published) at rank 1; its weeks
-- are the lists in that run, so a player's weeks equal the lists that put them first. It ends
-- the day before the next list shows someone else; `last_day` is NULL while it continues.
DROP TABLE IF EXISTS number_one_reigns;
CREATE TABLE number_one_reigns AS
WITH lists AS (  -- the list in force on 1 October 2009 (published up to six days before) onwards
    SELECT discipline, week, row_number() OVER (PARTITION BY discipline ORDER BY week) AS n,
           lead(week) OVER (PARTITION BY discipline ORDER BY week) AS next_week
    FROM (SELECT DISTINCT discipline, week FROM rankings WHERE week > date '2009-10-01' - 7) w
), tops AS (
    SELECT l.discipline, l.week, l.n, l.next_week, r.player1, r.player2, r.name,
           coalesce(r.player1, '?' || r.name) || '/' || coalesce(r.player2, '') AS entry
    FROM lists l JOIN rankings r ON r.discipline = l.discipline AND r.week = l.week AND r.rank = 1
), runs AS (
    SELECT *, n - row_number() OVER (PARTITION BY discipline, entry ORDER BY n) AS run
    FROM tops
)
SELECT discipline, entry,
       (array_agg(player1 ORDER BY week DESC))[1] AS player1,
       (array_agg(player2 ORDER BY week DESC))[1] AS player2,
       (array_agg(name ORDER BY week DESC))[1] AS name,
       greatest(min(week), date '2009-10-01') AS first_day,
       max(week) AS last_week,
       count(*)::int AS weeks,
       (array_agg(next_week ORDER BY week DESC))[1] - 1 AS last_day  -- NULL: the latest list
FROM runs
GROUP BY discipline, entry, run;
CREATE INDEX number_one_reigns_order ON number_one_reigns (discipline, first_day);
CREATE INDEX number_one_reigns_p1 ON number_one_reigns (player1);
CREATE INDEX number_one_reigns_p2 ON number_one_reigns (player2);

-- Per player and discipline: total weeks at number one, reigns, first and last day, current.
DROP TABLE IF EXISTS player_number_ones;
CREATE TABLE player_number_ones AS
SELECT s.player_id, s.discipline, sum(s.weeks)::int AS weeks, count(*)::int AS reigns,
       min(s.first_day) AS first_day,
       CASE WHEN bool_or(s.last_day IS NULL) THEN NULL ELSE max(s.last_day) END AS last_day,
       bool_or(s.last_day IS NULL) AS current
FROM (
    SELECT player1 AS player_id, discipline, weeks, first_day, last_day FROM number_one_reigns WHERE player1 IS NOT NULL
    UNION ALL
    SELECT player2, discipline, weeks, first_day, last_day FROM number_one_reigns WHERE player2 IS NOT NULL
) s
GROUP BY s.player_id, s.discipline;
ALTER TABLE player_number_ones ADD PRIMARY KEY (player_id, discipline);
ANALYZE number_one_reigns;  -- fresh statistics: built after the import's ANALYZE
ANALYZE player_number_ones;
