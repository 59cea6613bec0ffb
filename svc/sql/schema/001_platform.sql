-- Platform state: accounts, keys, call counters. Kept when a world is replaced.

CREATE TABLE IF NOT EXISTS accounts (
    name        text PRIMARY KEY,
    plan        text NOT NULL CHECK (plan IN ('free', 'archive', 'odds', 'live')),
    created_at  timestamptz NOT NULL DEFAULT now()
);

-- Only the SHA-256 of a key is stored; `prefix` is the public part shown in logs.
CREATE TABLE IF NOT EXISTS api_keys (
    id           bigserial PRIMARY KEY,
    account      text NOT NULL REFERENCES accounts(name) ON DELETE CASCADE,
    key_hash     bytea NOT NULL UNIQUE,
    prefix       text NOT NULL,
    state        text NOT NULL DEFAULT 'current' CHECK (state IN ('current', 'replaced')),
    created_at   timestamptz NOT NULL DEFAULT now(),
    replaced_at  timestamptz,
    replaced_by  bigint REFERENCES api_keys(id)
);
CREATE INDEX IF NOT EXISTS api_keys_account ON api_keys(account);

-- One row per key: the current minute, UTC day and UTC month with their counts.
-- A single UPDATE moves the windows and counts the call, so concurrent workers
-- and servers sharing a key share one allowance (the row lock serialises them).
CREATE TABLE IF NOT EXISTS key_usage (
    key_id        bigint PRIMARY KEY REFERENCES api_keys(id) ON DELETE CASCADE,
    minute_start  timestamptz NOT NULL,
    minute_calls  integer NOT NULL DEFAULT 0,
    day           date NOT NULL,
    day_calls     integer NOT NULL DEFAULT 0,
    month         date NOT NULL,
    month_calls   integer NOT NULL DEFAULT 0
);
