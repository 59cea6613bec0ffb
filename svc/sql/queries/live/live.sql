-- name: in-play
-- Every match under way now (optionally of one discipline), earliest start first, as event
-- rows plus who serves next and the in-play match-winner prices.
SELECT l.* FROM live_rows l
WHERE l.status = 'live' AND (:discipline::text IS NULL OR l.discipline = :discipline)
ORDER BY l.start_at NULLS LAST, l.event_id;

-- name: match
-- One match (any status) shaped like a row of live-in-play, for the feed's change payloads.
SELECT l.* FROM live_rows l WHERE l.match_id = :match_id;

-- name: clock
-- The world's time as the live feed has played it (the clock's :now where it never ran), when the
-- next match scheduled after it starts, and the next edition still to start after it (the feed
-- draws an edition on its first day: its matches are not scheduled before). Nulls where none is.
WITH w AS (SELECT coalesce((SELECT played_to FROM live_feed_state), :now::timestamptz) AS at)
SELECT w.at,
       (SELECT min(m.start_at) FROM matches m
        WHERE m.status <> 'finished' AND m.status = 'scheduled' AND m.start_at > w.at) AS next_start_at,
       e.id AS next_edition, e.name AS next_edition_name, e.start_date AS next_edition_start,
       c.name AS next_edition_city
FROM w
LEFT JOIN LATERAL (SELECT t.id, t.name, t.start_date, t.city_id FROM tournaments t
                   WHERE t.start_date > (w.at AT TIME ZONE 'UTC')::date
                   ORDER BY t.start_date, t.id LIMIT 1) e ON true
LEFT JOIN cities c ON c.id = e.city_id;
