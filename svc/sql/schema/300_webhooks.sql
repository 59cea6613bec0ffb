-- Webhooks: owners' endpoints, one delivery per (event, endpoint), every try,
-- owner notices, and the fan-out cursor over the outbox (match_events.seq).
-- Times are written by the service's clock (svc.core.clock.Clock), never now(), so Trio's
-- mock clock drives the whole schedule in tests.

CREATE TABLE IF NOT EXISTS webhook_endpoints (
    id                text PRIMARY KEY,      -- whe_...
    account           text NOT NULL REFERENCES accounts(name) ON DELETE CASCADE,
    url               text NOT NULL,
    events            text[] NOT NULL CHECK (cardinality(events) > 0 AND
                          events <@ ARRAY['match.started', 'match.finished', 'result.corrected']),
    secret            text NOT NULL,         -- whsec_...: kept in clear, it signs every delivery
    notify_email      text,                  -- where the pause notice goes; NULL: logged and kept only
    state             text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'paused')),
    failures_in_row   integer NOT NULL DEFAULT 0,
    from_seq          bigint NOT NULL,       -- only events after this match_events.seq are delivered
    created_at        timestamptz NOT NULL,
    last_delivery_at  timestamptz,           -- the last try, whatever its outcome
    last_status       integer,               -- its HTTP status; NULL when no answer came
    paused_at         timestamptz
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_account ON webhook_endpoints(account);

-- No foreign key to match_events: whoever maintains the outbox may prune or reload it.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id                bigserial PRIMARY KEY,
    event_id          text NOT NULL,         -- match_events.id (evt_...)
    endpoint_id       text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    state             text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'ended')),
    tries             integer NOT NULL DEFAULT 0,
    next_try_at       timestamptz NOT NULL,
    claimed_by        text,                  -- the claim token of the worker sending it now
    claim_expires_at  timestamptz,           -- after this another worker may take it over
    created_at        timestamptz NOT NULL,
    finished_at       timestamptz,
    UNIQUE (event_id, endpoint_id)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_due ON webhook_deliveries(next_try_at) WHERE state = 'pending';
CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id) WHERE state = 'pending';

CREATE TABLE IF NOT EXISTS webhook_attempts (
    id           bigserial PRIMARY KEY,
    delivery_id  bigint NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    try          integer NOT NULL,           -- 1..8
    at           timestamptz NOT NULL,
    status_code  integer,                    -- NULL: no answer (time-out, refused, connection failure)
    error        text,
    latency_ms   real NOT NULL,
    outcome      text NOT NULL CHECK (outcome IN ('succeeded', 'retry', 'ended'))
);
CREATE INDEX IF NOT EXISTS webhook_attempts_delivery ON webhook_attempts(delivery_id);

-- Kept whether or not an e-mail went out: the record of what the owner was told.
CREATE TABLE IF NOT EXISTS webhook_notices (
    id           bigserial PRIMARY KEY,
    endpoint_id  text NOT NULL,              -- no FK: the notice outlives a removed endpoint
    account      text NOT NULL,
    email        text,
    subject      text NOT NULL,
    body         text NOT NULL,
    created_at   timestamptz NOT NULL,
    sent_at      timestamptz,                -- NULL: not e-mailed (no SMTP server or no address)
    error        text
);

-- One row: the fan-out has created deliveries for every event up to last_seq. A gap in
-- seq (an insert not yet committed, or rolled back) holds the cursor back until
-- gap_since is older than the fan-out's gap wait.
CREATE TABLE IF NOT EXISTS webhook_fanout (
    id         integer PRIMARY KEY CHECK (id = 1),
    last_seq   bigint NOT NULL,
    gap_since  timestamptz
);
INSERT INTO webhook_fanout (id, last_seq) VALUES (1, 0) ON CONFLICT DO NOTHING;
