-- name: by-id
-- One event (a match in the results feed) with its players and match-winner prices.
SELECT e.* FROM event_rows e WHERE e.event_id = :id;

-- name: finished-on
-- replica: ok
-- Events finished on :day (UTC), optionally of one discipline, in the order they ended;
-- one page of them, each with the size of the whole list (the page is chosen on the bare
-- matches first, so players and prices are looked up for that page only).
WITH page AS (
    SELECT m.event_id, m.end_at, m.start_at, count(*) OVER () AS total
    FROM matches m
    WHERE m.status = 'finished' AND m.day = :day AND (:discipline::text IS NULL OR m.discipline = :discipline)
    ORDER BY m.end_at NULLS LAST, m.start_at NULLS LAST, m.event_id
    OFFSET :offset LIMIT :limit
)
SELECT e.*, page.total
FROM page JOIN event_rows e ON e.event_id = page.event_id
ORDER BY page.end_at NULLS LAST, page.start_at NULLS LAST, page.event_id;

-- name: open
-- Events under way and scheduled next, soonest first; one page and the size of the list.
WITH page AS (
    SELECT m.event_id, m.start_at, count(*) OVER () AS total
    FROM matches m
    WHERE m.status <> 'finished' AND (:discipline::text IS NULL OR m.discipline = :discipline)
    ORDER BY m.start_at NULLS LAST, m.event_id
    OFFSET :offset LIMIT :limit
)
SELECT e.*, page.total
FROM page JOIN event_rows e ON e.event_id = page.event_id
ORDER BY page.start_at NULLS LAST, page.event_id;
