-- count_calls: the calls of one worker made at once, counted in one statement (the service's
-- Database.batched runs it for every call waiting while the previous batch ran). Per key, as many
-- of the calls asking to be counted (:counts true, the key current, its plan's rank at least the
-- call's need) as both limits still allow are counted, in their order; windows that have passed
-- restart at 0. Locking the key_usage rows in key order serialises batches from any number of
-- processes, and each locked row is read at its latest version, so N+1 calls at once from
-- anywhere count exactly N. A counted call's counters are those it would have seen alone, one
-- call after another (the first of three sees +1, the third +3); every other call sees the
-- counters after the batch. A row per call whose key exists, with its 1-based place in `ord`.
-- In PL/pgSQL with a generic plan: as a plain statement it was planned afresh on every call
-- (1.7 ms of planning against 0.5 ms of work).

CREATE OR REPLACE FUNCTION count_calls(p_key_hashes bytea[], p_need_ranks int[], p_counts bool[],
                                       p_minute timestamptz, p_day date, p_month date)
RETURNS TABLE (ord int, id bigint, key_hash bytea, state text, prefix text, account text, plan text,
               per_minute int, per_day int, counted bool, minute_calls int, day_calls int, month_calls int,
               data_version text)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
BEGIN
RETURN QUERY
WITH req AS (
    SELECT r.ord::int AS ord, r.key_hash, r.need_rank, r.count
    FROM unnest(p_key_hashes, p_need_ranks, p_counts) WITH ORDINALITY AS r(key_hash, need_rank, count, ord)
), k AS (
    SELECT req.ord, k.id, k.key_hash, k.state, k.prefix, k.account, a.plan, p.per_minute, p.per_day,
           req.count AND k.state = 'current' AND p.rank >= req.need_rank AS wants
    FROM req
    JOIN api_keys k ON k.key_hash = req.key_hash
    JOIN accounts a ON a.name = k.account
    JOIN plans p ON p.name = a.plan
), asked AS (  -- each call asking to be counted: its turn among its key's
    SELECT ord, id, row_number() OVER (PARTITION BY id ORDER BY ord) AS turn FROM k WHERE wants
), wanted AS (
    SELECT k.id, count(asked.ord) AS n, min(k.per_minute) AS per_minute, min(k.per_day) AS per_day
    FROM k JOIN asked ON asked.ord = k.ord GROUP BY k.id
), locked AS (
    SELECT u.key_id,
           CASE WHEN u.minute_start >= p_minute THEN u.minute_calls ELSE 0 END AS minute_calls,
           CASE WHEN u.day >= p_day THEN u.day_calls ELSE 0 END AS day_calls,
           CASE WHEN u.month >= p_month THEN u.month_calls ELSE 0 END AS month_calls,
           w.n, w.per_minute, w.per_day
    FROM key_usage u JOIN wanted w ON w.id = u.key_id
    ORDER BY u.key_id
    FOR UPDATE OF u
), granted AS (
    SELECT key_id, minute_calls, day_calls, month_calls,
           greatest(0, least(n, per_minute - minute_calls, per_day - day_calls)) AS g
    FROM locked
), counted AS (
    UPDATE key_usage u SET
        minute_calls = g.minute_calls + g.g, minute_start = greatest(u.minute_start, p_minute),
        day_calls = g.day_calls + g.g, day = greatest(u.day, p_day),
        month_calls = g.month_calls + g.g, month = greatest(u.month, p_month)
    FROM granted g
    WHERE u.key_id = g.key_id AND g.g > 0
    RETURNING u.key_id
)
SELECT k.ord, k.id, k.key_hash, k.state, k.prefix, k.account, k.plan, k.per_minute, k.per_day,
       coalesce(asked.turn <= g.g, false) AS counted,
       (coalesce(g.minute_calls, CASE WHEN u.minute_start >= p_minute THEN u.minute_calls ELSE 0 END) + x.step)::int AS minute_calls,
       (coalesce(g.day_calls, CASE WHEN u.day >= p_day THEN u.day_calls ELSE 0 END) + x.step)::int AS day_calls,
       (coalesce(g.month_calls, CASE WHEN u.month >= p_month THEN u.month_calls ELSE 0 END) + x.step)::int AS month_calls,
       (SELECT value FROM world_meta WHERE key = 'data_version') AS data_version  -- for the answer cache
FROM k
LEFT JOIN asked ON asked.ord = k.ord
LEFT JOIN granted g ON g.key_id = k.id
LEFT JOIN key_usage u ON u.key_id = k.id
CROSS JOIN LATERAL (SELECT CASE WHEN asked.turn <= g.g THEN asked.turn ELSE coalesce(g.g, 0) END AS step) x;
END
$fn$;
