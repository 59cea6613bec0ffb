-- name: matches
-- replica: ok
-- One page of a player's draw matches (any status), newest first, optionally of one tournament
-- year and discipline, each row with the size of the whole list. The page is chosen on bare
-- ids through the side1/side2 GIN indexes; players and prices are joined for that page only.
WITH mine AS (
    SELECT m.id, coalesce(m.day, t.start_date, make_date(t.year, 1, 1)) AS day, m.start_at,
           round_rank(m.round_code) AS rr
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE (m.side1 @> ARRAY[:id::text] OR m.side2 @> ARRAY[:id::text])
      AND (:year::int IS NULL OR t.year = :year::int)
      AND (:discipline::text IS NULL OR m.discipline = :discipline::text)
), page AS (
    SELECT id, day, start_at, rr, count(*) OVER () AS total
    FROM mine
    ORDER BY day DESC, start_at DESC NULLS LAST, rr DESC, id DESC
    OFFSET :offset LIMIT :limit
)
SELECT e.*, page.total
FROM page JOIN event_rows e ON e.match_id = page.id
ORDER BY page.day DESC, page.start_at DESC NULLS LAST, page.rr DESC, page.id DESC;
