-- name: fanout-wait
-- The fan-out cursor, locked (waiting for a fan-out round in progress to commit): while it is
-- held no round can fan out with the endpoint's state read before a resume commits.
SELECT last_seq FROM webhook_fanout WHERE id = 1 FOR UPDATE;

-- name: endpoint-resume
-- The endpoint made active again with its failure count reset; its state before and the
-- outbox seq its pause began after (NULL when it was not paused).
UPDATE webhook_endpoints e SET state = 'active', failures_in_row = 0, paused_at = NULL, paused_after_seq = NULL
FROM (SELECT id, state, paused_after_seq FROM webhook_endpoints WHERE id = :id FOR UPDATE) AS before
WHERE e.id = before.id
RETURNING before.state AS was, before.paused_after_seq;

-- name: pending-count
-- How many deliveries of the endpoint are pending.
SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = :id AND state = 'pending';

-- name: pending-due-now
-- The endpoint's pending deliveries made due at :now, so that they and the pause's events go
-- out together in outbox order; how many there are.
WITH due AS (
    UPDATE webhook_deliveries SET next_try_at = :now
    WHERE endpoint_id = :id AND state = 'pending'
    RETURNING 1
)
SELECT count(*) FROM due;

-- name: catch-up-insert
-- One pending delivery, due at :now, per event after seq :after (where the pause began) that
-- the endpoint is subscribed to, written at or after :since, with no delivery to it yet; how
-- many were made and when the oldest of their events was written.
WITH owed AS (
    SELECT ev.id, ev.seq, ev.created_at
    FROM match_events ev
    JOIN webhook_endpoints ep ON ep.id = :id AND ev.type = ANY (ep.events) AND ev.seq > ep.from_seq
    JOIN accounts a ON a.name = ep.account AND a.plan = 'live'
    WHERE ev.seq > :after AND ev.created_at >= :since
), made AS (
    INSERT INTO webhook_deliveries (event_id, endpoint_id, event_seq, next_try_at, created_at)
    SELECT owed.id, :id, owed.seq, :now, :now FROM owed ORDER BY owed.seq
    ON CONFLICT (event_id, endpoint_id) DO NOTHING
    RETURNING event_id
)
SELECT count(*) AS made, min(owed.created_at) AS oldest
FROM made JOIN owed ON owed.id = made.event_id;

-- name: catch-up-too-old
-- The events of the pause (as catch-up-insert picks them) written before :since, which are
-- not delivered: the first :named of them in outbox order (id, created_at), each row with
-- how many there are in all.
WITH old AS (
    SELECT ev.id, ev.seq, ev.created_at
    FROM match_events ev
    JOIN webhook_endpoints ep ON ep.id = :id AND ev.type = ANY (ep.events) AND ev.seq > ep.from_seq
    JOIN accounts a ON a.name = ep.account AND a.plan = 'live'
    WHERE ev.seq > :after AND ev.created_at < :since
      AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id AND d.endpoint_id = :id)
)
SELECT id, created_at, count(*) OVER () AS total FROM old ORDER BY seq LIMIT :named;
