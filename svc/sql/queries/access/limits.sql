-- name: authorize-and-count
-- One call alone (a batch of one, see authorize-and-count-batch: this statement is cheaper to
-- run, 0.26 against 0.55 ms): the key, its plan and its counters in one round trip. When :count is true and the key
-- is current, has the plan rank :need_rank and is under both limits, the call is counted
-- (windows that have passed restart at 1). The row lock on key_usage serialises
-- concurrent calls and the WHERE is re-checked on the latest row, so N+1 calls at once
-- from any number of processes count exactly N. No row: unknown key.
WITH k AS (
    SELECT k.id, k.key_hash, k.state, k.prefix, k.account, a.plan, p.rank, p.per_minute, p.per_day
    FROM api_keys k
    JOIN accounts a ON a.name = k.account
    JOIN plans p ON p.name = a.plan
    WHERE k.key_hash = :key_hash
), counted AS (
    UPDATE key_usage u SET
        minute_calls = CASE WHEN u.minute_start >= :minute THEN u.minute_calls + 1 ELSE 1 END,
        minute_start = greatest(u.minute_start, :minute),
        day_calls = CASE WHEN u.day >= :day THEN u.day_calls + 1 ELSE 1 END,
        day = greatest(u.day, :day),
        month_calls = CASE WHEN u.month >= :month THEN u.month_calls + 1 ELSE 1 END,
        month = greatest(u.month, :month)
    FROM k
    WHERE :count AND u.key_id = k.id AND k.state = 'current' AND k.rank >= :need_rank
      AND (u.minute_start < :minute OR u.minute_calls < k.per_minute)
      AND (u.day < :day OR u.day_calls < k.per_day)
    RETURNING u.minute_calls, u.day_calls, u.month_calls
)
SELECT 1 AS ord, k.id, k.key_hash, k.state, k.prefix, k.account, k.plan, k.per_minute, k.per_day,
       c.minute_calls IS NOT NULL AS counted,
       coalesce(c.minute_calls, CASE WHEN u.minute_start >= :minute THEN u.minute_calls ELSE 0 END) AS minute_calls,
       coalesce(c.day_calls, CASE WHEN u.day >= :day THEN u.day_calls ELSE 0 END) AS day_calls,
       coalesce(c.month_calls, CASE WHEN u.month >= :month THEN u.month_calls ELSE 0 END) AS month_calls,
       (SELECT value FROM world_meta WHERE key = 'data_version') AS data_version  -- for the answer cache
FROM k
LEFT JOIN counted c ON true
LEFT JOIN key_usage u ON u.key_id = k.id;

-- name: authorize-and-count-batch
-- Calls of one worker made at once, counted in one round trip by count_calls
-- (svc/sql/schema/600_call_counting.sql): the arrays hold one element per call; a row per known key
-- with the call's 1-based place in `ord`, as authorize-and-count answers for one.
SELECT * FROM count_calls(:key_hashes::bytea[], :need_ranks::int[], :counts::bool[], :minute, :day, :month);

-- name: refund
-- Takes back one call counted in the windows given (those the call was counted in), never below
-- zero; returns the counters after.
UPDATE key_usage SET
    minute_calls = CASE WHEN minute_start = :minute THEN greatest(minute_calls - 1, 0) ELSE minute_calls END,
    day_calls = CASE WHEN day = :day THEN greatest(day_calls - 1, 0) ELSE day_calls END,
    month_calls = CASE WHEN month = :month THEN greatest(month_calls - 1, 0) ELSE month_calls END
WHERE key_id = :key_id
RETURNING minute_calls, day_calls, month_calls;

-- name: claim-calls-many
-- Blocks of calls for one key or many (the claims one worker made while its last batch ran), each
-- counted at once by claim_calls (svc/sql/schema/660_call_blocks.sql), the worker's previous block
-- of the key given back in the same round trip. Made in key order: batches from any number of
-- workers lock the keys' key_usage rows in the same order, as count_calls does, so they never
-- deadlock. A row per claim whose key exists, with its 1-based place in `ord`.
SELECT c.ord, r.*
FROM (
    SELECT n.*
    FROM unnest(:key_hashes::bytea[], :need_ranks::int[], :minutes::timestamptz[], :days::date[],
                :months::date[], :old_blocks::bigint[], :returned::int[])
         WITH ORDINALITY AS n(key_hash, need_rank, minute, day, month, old_block, returned, ord)
    JOIN api_keys ak ON ak.key_hash = n.key_hash
    ORDER BY ak.id
) c
CROSS JOIN LATERAL claim_calls(c.key_hash, c.need_rank, c.minute, c.day, c.month, :want, :share, :holder,
                               :lease_s, c.old_block, c.returned) r;

-- name: give-back-calls
-- Blocks given back with what each did not use; returns how many were still held.
SELECT give_back_calls(:blocks::bigint[], :unused::int[]);

-- name: note-unused-calls
-- What blocks still held still hold unused, as their worker last counted: what the sweep gives
-- back should the worker die.
UPDATE call_blocks b SET unused = n.unused
FROM unnest(:blocks::bigint[], :unused::int[]) AS n(id, unused)
WHERE b.id = n.id;

-- name: sweep-call-blocks
-- Blocks whose lease ended give back what they held unused; returns how many.
SELECT sweep_call_blocks();
