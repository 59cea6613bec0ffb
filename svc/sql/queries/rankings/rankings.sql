-- name: list
-- One page of the ranking list of :discipline in force on :day (the latest published on or
-- before it), with its players and whether it is a full list; each row with the list's size.
-- The page is chosen on the bare list first; players are looked up for that page only.
WITH page AS (
    SELECT r.week, r.rank, r.name, r.points, r.full_list, r.player1, r.player2, count(*) OVER () AS total
    FROM rankings r
    WHERE r.discipline = :discipline
      AND r.week = (SELECT max(week) FROM rankings WHERE discipline = :discipline AND week <= :day)
    ORDER BY r.rank, r.name
    OFFSET :offset LIMIT :limit
)
SELECT page.*, p1.name AS name1, p1.country AS country1, p2.name AS name2, p2.country AS country2
FROM page
LEFT JOIN players p1 ON p1.id = page.player1
LEFT JOIN players p2 ON p2.id = page.player2
ORDER BY page.rank, page.name;

-- name: number-ones
-- World number-one reigns since 1 October 2009, by discipline then first day, optionally of one
-- discipline, only the reign in force on :day, or only :player's reigns; with the players.
SELECT r.discipline, r.name, r.first_day, r.last_day, r.weeks, r.player1, r.player2,
       p1.name AS name1, p1.country AS country1, p2.name AS name2, p2.country AS country2
FROM number_one_reigns r
LEFT JOIN players p1 ON p1.id = r.player1
LEFT JOIN players p2 ON p2.id = r.player2
WHERE (:discipline::text IS NULL OR r.discipline = :discipline)
  AND (:player::text IS NULL OR r.player1 = :player OR r.player2 = :player)
  AND (:day::date IS NULL OR (r.first_day <= :day AND (r.last_day IS NULL OR r.last_day >= :day)))
ORDER BY array_position(ARRAY['MS','WS','MD','WD','XD'], r.discipline), r.first_day;
