-- name: fanout-lock
-- The fan-out cursor, locked: one worker fans out at a time, the others skip this round.
SELECT last_seq, gap_since FROM webhook_fanout WHERE id = 1 FOR UPDATE SKIP LOCKED;

-- name: fanout-insert
-- One pending delivery, due at once, per event with seq in (:after, :upto] and per active
-- endpoint subscribed to its type that existed before it; the number made (repeats skipped).
-- A paused endpoint gets none here: `hooks resume` makes them (catch-up-insert).
WITH made AS (
    INSERT INTO webhook_deliveries (event_id, endpoint_id, event_seq, next_try_at, created_at)
    SELECT ev.id, ep.id, ev.seq, :now, :now
    FROM match_events ev
    JOIN webhook_endpoints ep ON ev.type = ANY (ep.events) AND ev.seq > ep.from_seq
    JOIN accounts a ON a.name = ep.account AND a.plan = 'live'
    WHERE ev.seq > :after AND ev.seq <= :upto AND ep.state = 'active'
    ON CONFLICT (event_id, endpoint_id) DO NOTHING
    RETURNING 1
)
SELECT count(*) FROM made;

-- name: fanout-advance
-- Moves the cursor (and the start of the gap it waits on, NULL when none).
UPDATE webhook_fanout SET last_seq = :last_seq, gap_since = :gap_since WHERE id = 1;

-- name: claim
-- Up to :limit due deliveries of active endpoints, earliest due first and then in outbox
-- order, claimed for :lease_until under :claim (rows another worker holds are skipped,
-- expired claims taken over), each with what sending it needs: the endpoint's url, its
-- secret and, while a rotation's overlap lasts, the secret it replaced (the sender signs with
-- it before previous_secret_until), and the event (NULL if no longer held).
WITH due AS (
    SELECT d.id
    FROM webhook_deliveries d
    JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
    WHERE d.state = 'pending' AND ep.state = 'active' AND d.next_try_at <= :now
      AND (d.claim_expires_at IS NULL OR d.claim_expires_at <= :now)
    ORDER BY d.next_try_at, d.event_seq, d.id
    LIMIT :limit
    FOR UPDATE OF d SKIP LOCKED
), claimed AS (
    UPDATE webhook_deliveries d SET claimed_by = :claim, claim_expires_at = :lease_until
    FROM due WHERE d.id = due.id
    RETURNING d.id, d.event_id, d.endpoint_id, d.tries
)
SELECT c.id, c.event_id, c.endpoint_id, c.tries, ep.url, ep.secret,
       CASE WHEN ep.previous_secret_until > :now THEN ep.previous_secret END AS previous_secret,
       CASE WHEN ep.previous_secret_until > :now THEN ep.previous_secret_until END AS previous_secret_until,
       ev.type, ev.created_at, ev.payload
FROM claimed c
JOIN webhook_endpoints ep ON ep.id = c.endpoint_id
LEFT JOIN match_events ev ON ev.id = c.event_id
ORDER BY c.id;

-- name: next-due
-- When the next pending delivery of an active endpoint may be claimed (due, and any claim
-- on it expired; NULL when none is pending), and how many are pending (the queue's depth).
SELECT min(greatest(d.next_try_at, coalesce(d.claim_expires_at, d.next_try_at))) AS due, count(*) AS pending
FROM webhook_deliveries d JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
WHERE d.state = 'pending' AND ep.state = 'active';

-- name: delivery-settle
-- The delivery after a try, if this claim still holds it (a claim taken over after its
-- lease is no longer ours to settle); its id, or no row.
UPDATE webhook_deliveries
SET state = :state::text, tries = :try_no, next_try_at = coalesce(:next_try_at::timestamptz, next_try_at),
    claimed_by = NULL, claim_expires_at = NULL,
    finished_at = CASE WHEN :state::text = 'pending' THEN NULL ELSE :now::timestamptz END
WHERE id = :id AND claimed_by = :claim
RETURNING id;

-- name: attempt-insert
-- Records one try.
INSERT INTO webhook_attempts (delivery_id, try, at, status_code, error, latency_ms, outcome)
VALUES (:delivery_id, :try_no, :at, :status_code, :error, :latency_ms, :outcome);

-- name: endpoint-after-try
-- The endpoint after a try: failures in a row counted (reset by a success), paused at
-- :pause_after of them; its state before and after, its account and notice address.
-- A pause records the fan-out cursor: every event up to it was fanned out while the endpoint
-- was active (this statement's snapshot precedes the pause), the ones after it may not be.
UPDATE webhook_endpoints e
SET failures_in_row = CASE WHEN :ok::boolean THEN 0 ELSE e.failures_in_row + 1 END,
    state = CASE WHEN NOT :ok AND e.failures_in_row + 1 >= :pause_after THEN 'paused' ELSE e.state END,
    paused_at = CASE WHEN NOT :ok AND e.failures_in_row + 1 >= :pause_after AND e.state = 'active'
                     THEN :now::timestamptz ELSE e.paused_at END,
    paused_after_seq = CASE WHEN NOT :ok AND e.failures_in_row + 1 >= :pause_after AND e.state = 'active'
                            THEN (SELECT last_seq FROM webhook_fanout WHERE id = 1) ELSE e.paused_after_seq END,
    last_delivery_at = :now::timestamptz, last_status = :status_code::integer
FROM (SELECT id, state FROM webhook_endpoints WHERE id = :id FOR UPDATE) AS before
WHERE e.id = before.id
RETURNING before.state AS was, e.state, e.failures_in_row, e.account, e.url, e.notify_email;

-- name: notice-insert
-- Keeps a notice to the owner; its id.
INSERT INTO webhook_notices (endpoint_id, account, email, subject, body, created_at)
VALUES (:endpoint_id, :account, :email, :subject, :body, :now)
RETURNING id;

-- name: notice-sent
-- Marks a notice e-mailed (or the reason it was not).
UPDATE webhook_notices SET sent_at = :sent_at, error = :error WHERE id = :id;
