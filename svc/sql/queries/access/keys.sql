-- name: plan-upsert
-- Writes one plan's limits (the code's table is the source of truth).
INSERT INTO plans (name, rank, per_minute, per_day)
VALUES (:name, :rank, :per_minute, :per_day)
ON CONFLICT (name) DO UPDATE SET rank = EXCLUDED.rank, per_minute = EXCLUDED.per_minute, per_day = EXCLUDED.per_day;

-- name: account-upsert
-- Creates the account with its plan, or leaves an existing one as it is; returns its plan.
INSERT INTO accounts (name, plan) VALUES (:name, :plan)
ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
RETURNING plan;

-- name: account-set-plan
-- Changes an account's plan; returns the account name, nothing when unknown.
UPDATE accounts SET plan = :plan WHERE name = :name RETURNING name;

-- name: key-insert
-- Stores a new key's hash; returns its id.
INSERT INTO api_keys (account, key_hash, prefix) VALUES (:account, :key_hash, :prefix) RETURNING id;

-- name: key-usage-init
-- The key's counters, starting empty (or copied from the key it replaces, so replacing
-- a key never resets an allowance).
INSERT INTO key_usage (key_id, minute_start, minute_calls, day, day_calls, month, month_calls)
SELECT :key_id, coalesce(u.minute_start, 'epoch'), coalesce(u.minute_calls, 0),
       coalesce(u.day, 'epoch'), coalesce(u.day_calls, 0), coalesce(u.month, 'epoch'), coalesce(u.month_calls, 0)
FROM (SELECT 1) one LEFT JOIN key_usage u ON u.key_id = :from_key_id;

-- name: key-by-hash
-- The key row with its account's plan, for `keys replace`.
SELECT k.id, k.account, k.state, k.prefix FROM api_keys k WHERE k.key_hash = :key_hash;

-- name: key-mark-replaced
-- Ends a key at once; returns its id when it was current.
UPDATE api_keys SET state = 'replaced', replaced_at = now(), replaced_by = :new_id
WHERE id = :id AND state = 'current' RETURNING id;
