-- name: events-after
-- The seq of up to :limit events after the cursor, in order.
SELECT seq FROM match_events WHERE seq > :after ORDER BY seq LIMIT :limit;

-- name: events-newest
-- The highest seq in the outbox, 0 when it is empty.
SELECT coalesce(max(seq), 0) FROM match_events;
