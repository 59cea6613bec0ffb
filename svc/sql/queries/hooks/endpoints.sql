-- name: account-lock
-- The account's plan, its row locked until the transaction ends (serialises adds per account).
SELECT plan FROM accounts WHERE name = :account FOR UPDATE;

-- name: endpoint-count
-- How many endpoints the account has.
SELECT count(*) FROM webhook_endpoints WHERE account = :account;

-- name: endpoint-insert
-- The new endpoint's id; it receives events written after this moment only.
INSERT INTO webhook_endpoints (id, account, url, events, secret, notify_email, from_seq, created_at)
VALUES (:id, :account, :url, :events, :secret, :notify_email,
        (SELECT coalesce(max(seq), 0) FROM match_events), :now)
RETURNING id;

-- name: endpoint-list
-- The account's endpoints (never their secrets) with their pending deliveries, oldest first.
SELECT e.id, e.url, e.events, e.state, e.failures_in_row, e.last_delivery_at, e.last_status, e.created_at,
       (SELECT count(*) FROM webhook_deliveries d WHERE d.endpoint_id = e.id AND d.state = 'pending') AS pending
FROM webhook_endpoints e
WHERE e.account = :account
ORDER BY e.created_at, e.id;

-- name: endpoint-get
-- One endpoint with its secrets (for signing a test delivery): the current one, and the one
-- it replaced with the end of that one's overlap (NULL when none).
SELECT id, account, url, events, secret, previous_secret, previous_secret_until, state
FROM webhook_endpoints WHERE id = :id;

-- name: endpoint-rotate
-- The endpoint's secret replaced by :secret; the replaced one signs beside it until
-- :previous_until (NULL: not at all). Returns the account and, when a secret replaced by an
-- earlier rotation was still signing at :now, until when it would have (it is dropped now).
UPDATE webhook_endpoints e
SET secret = :secret,
    previous_secret = CASE WHEN :previous_until::timestamptz IS NULL THEN NULL ELSE before.secret END,
    previous_secret_until = :previous_until
FROM (SELECT id, secret, previous_secret_until FROM webhook_endpoints WHERE id = :id FOR UPDATE) AS before
WHERE e.id = before.id
RETURNING e.account,
          CASE WHEN before.previous_secret_until > :now THEN before.previous_secret_until END AS dropped_until;

-- name: endpoint-delete
-- The id of the removed endpoint (its deliveries and tries go with it).
DELETE FROM webhook_endpoints WHERE id = :id RETURNING id;

-- name: recent-match
-- The most recently finished match, as event_rows shows it (the Test action sends it).
SELECT e.* FROM event_rows e
WHERE e.status = 'finished' AND e.end_at IS NOT NULL
ORDER BY e.end_at DESC, e.event_id
LIMIT 1;
