-- name: change-insert
-- Appends one change of a match to the stream's change log; returns its seq.
INSERT INTO live_changes (match_id, discipline, kind, created_at, payload)
VALUES (:match_id, :discipline, :kind, :created_at, :payload::jsonb)
RETURNING seq;

-- name: change-notify
-- Announces a new change (delivered when the transaction commits); returns nothing useful.
SELECT pg_notify('live_changes', (:seq::bigint)::text);

-- name: event-insert
-- Writes one match event to the outbox (match_events) for the webhook scheduler; returns its id.
INSERT INTO match_events (id, type, match_id, created_at, payload)
VALUES (:id, :type, :match_id, :created_at, :payload::jsonb)
ON CONFLICT (id) DO NOTHING
RETURNING id;

-- name: changes-newest
-- The newest change's seq, 0 when there is none.
SELECT coalesce(max(seq), 0) FROM live_changes;

-- name: changes-after
-- Changes after :after in order (at most :limit), the payload as JSON text for the wire.
SELECT seq, match_id, discipline, kind, created_at, payload::text AS data
FROM live_changes
WHERE seq > :after
ORDER BY seq
LIMIT :limit;

-- name: changes-replay
-- Changes after :after up to :upto of one discipline (or all) in order, at most :limit,
-- each with its created_at so the caller can tell whether the window still holds them all.
SELECT seq, match_id, discipline, kind, created_at, payload::text AS data
FROM live_changes
WHERE seq > :after AND seq <= :upto AND (:discipline::text IS NULL OR discipline = :discipline)
ORDER BY seq
LIMIT :limit;

-- name: changes-oldest-after
-- The created_at of the first change after :after (of any discipline), null when none.
SELECT created_at FROM live_changes WHERE seq > :after ORDER BY seq LIMIT 1;
