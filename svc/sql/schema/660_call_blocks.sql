-- Calls claimed in blocks (svc/access/allowances.py): a worker counts k calls of a key's minute,
-- day and month at once (claim_calls), answers them from memory, and gives back what it did not
-- use (give_back_calls). Each block has a row here with a lease: a worker that dies keeps its
-- calls only until the lease ends, then any worker's sweep (sweep_call_blocks) gives them back.
-- `unused` is what the block held unused when claimed (the claiming call uses one): the sweep
-- returns that much, and a worker that found a window at 0 asks the holders of such rows to give
-- back (NOTIFY recall) before it refuses.
--
-- Every change a worker's key cache or data version must see is announced on the channel
-- svc_access: 'keys' (a key replaced or removed, an account's plan or a plan's limits changed),
-- 'version:<v>' (the data version moved), 'recall:<key id>' and 'returned:<key id>' (blocks).

CREATE TABLE IF NOT EXISTS call_blocks (
    id            bigserial PRIMARY KEY,
    key_id        bigint NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
    holder        text NOT NULL,  -- host:pid:random of the worker
    minute_start  timestamptz NOT NULL,  -- the windows the block's calls were counted in
    day           date NOT NULL,
    month         date NOT NULL,
    unused        integer NOT NULL,
    lease_until   timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS call_blocks_key ON call_blocks (key_id);
CREATE INDEX IF NOT EXISTS call_blocks_lease ON call_blocks (lease_until);

-- Lowers a key's counters by `n` in the windows given, those the calls were counted in: a window
-- that has moved on since is left alone (its count restarted), never below zero.
CREATE OR REPLACE FUNCTION uncount_calls(p_key_id bigint, p_n int, p_minute timestamptz, p_day date, p_month date)
RETURNS void LANGUAGE sql AS $fn$
    UPDATE key_usage SET
        minute_calls = CASE WHEN minute_start = p_minute THEN greatest(minute_calls - p_n, 0) ELSE minute_calls END,
        day_calls = CASE WHEN day = p_day THEN greatest(day_calls - p_n, 0) ELSE day_calls END,
        month_calls = CASE WHEN month = p_month THEN greatest(month_calls - p_n, 0) ELSE month_calls END
    WHERE key_id = p_key_id AND p_n > 0;
$fn$;

-- Gives back the blocks named with the calls each did not use. A block whose row is gone (swept:
-- its lease ended) gives back nothing more, so no call is returned twice. Tells waiting workers.
CREATE OR REPLACE FUNCTION give_back_calls(p_blocks bigint[], p_unused int[])
RETURNS int LANGUAGE plpgsql AS $fn$
DECLARE
    b call_blocks;
    done int := 0;
BEGIN
    FOR i IN 1 .. coalesce(array_length(p_blocks, 1), 0) LOOP
        DELETE FROM call_blocks WHERE id = p_blocks[i] RETURNING * INTO b;
        IF FOUND THEN
            PERFORM uncount_calls(b.key_id, p_unused[i], b.minute_start, b.day, b.month);
            PERFORM pg_notify('svc_access', 'returned:' || b.key_id);
            done := done + 1;
        END IF;
    END LOOP;
    RETURN done;
END
$fn$;

-- The blocks whose lease ended (their worker died or lost the database): each gives back what it
-- held unused when claimed.
CREATE OR REPLACE FUNCTION sweep_call_blocks()
RETURNS int LANGUAGE plpgsql AS $fn$
DECLARE
    b call_blocks;
    done int := 0;
BEGIN
    FOR b IN DELETE FROM call_blocks WHERE lease_until < now() RETURNING * LOOP
        PERFORM uncount_calls(b.key_id, b.unused, b.minute_start, b.day, b.month);
        PERFORM pg_notify('svc_access', 'returned:' || b.key_id);
        done := done + 1;
    END LOOP;
    RETURN done;
END
$fn$;

-- One claim: the key, its plan and limits, and (when it is current and its plan ranks at least
-- p_need_rank) a block of calls counted at once: at most p_want, at most 1/p_share of what the
-- tighter window has left (at least 1 while anything is left), never beyond either limit. The
-- claiming call uses the first. p_old_block (when not null) is given back first with p_returned
-- calls. Granted 0 with a window at 0: `held` is what other workers' blocks held unused when
-- claimed, and they are asked to give it back. Counters are those after the claim. No row: no
-- such key. In PL/pgSQL with a generic plan, as count_calls (600_call_counting.sql).
CREATE OR REPLACE FUNCTION claim_calls(p_key_hash bytea, p_need_rank int, p_minute timestamptz, p_day date,
                                       p_month date, p_want int, p_share int, p_holder text, p_lease_s float8,
                                       p_old_block bigint, p_returned int)
RETURNS TABLE (id bigint, key_hash bytea, state text, prefix text, account text, plan text, per_minute int,
               per_day int, granted int, block bigint, held int, minute_calls int, day_calls int,
               month_calls int, data_version text)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
    k record;
    u key_usage;
    mc int;
    dc int;
    mo int;
    g int := 0;
    h int := 0;
    blk bigint;
    wants bool;
BEGIN
    SELECT ak.id, ak.key_hash, ak.state, ak.prefix, ak.account, a.plan, p.rank, p.per_minute, p.per_day INTO k
    FROM api_keys ak JOIN accounts a ON a.name = ak.account JOIN plans p ON p.name = a.plan
    WHERE ak.key_hash = p_key_hash;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF p_old_block IS NOT NULL THEN
        PERFORM give_back_calls(ARRAY[p_old_block], ARRAY[p_returned]);
    END IF;
    SELECT * INTO u FROM key_usage WHERE key_usage.key_id = k.id FOR UPDATE;
    mc := CASE WHEN u.minute_start >= p_minute THEN u.minute_calls ELSE 0 END;
    dc := CASE WHEN u.day >= p_day THEN u.day_calls ELSE 0 END;
    mo := CASE WHEN u.month >= p_month THEN u.month_calls ELSE 0 END;
    wants := p_want > 0 AND k.state = 'current' AND k.rank >= p_need_rank;
    IF wants THEN
        g := greatest(0, least(p_want, k.per_minute - mc, k.per_day - dc,
                               greatest(1, least(k.per_minute - mc, k.per_day - dc) / p_share)));
    END IF;
    IF g > 0 THEN
        UPDATE key_usage SET
            minute_calls = mc + g, minute_start = greatest(key_usage.minute_start, p_minute),
            day_calls = dc + g, day = greatest(key_usage.day, p_day),
            month_calls = mo + g, month = greatest(key_usage.month, p_month)
        WHERE key_usage.key_id = k.id;
        mc := mc + g;
        dc := dc + g;
        mo := mo + g;
        INSERT INTO call_blocks (key_id, holder, minute_start, day, month, unused, lease_until)
        VALUES (k.id, p_holder, p_minute, p_day, p_month, g - 1, now() + make_interval(secs => p_lease_s))
        RETURNING call_blocks.id INTO blk;
    ELSIF wants THEN
        SELECT coalesce(sum(cb.unused), 0) INTO h FROM call_blocks cb
        WHERE cb.key_id = k.id AND cb.holder <> p_holder AND cb.unused > 0;
        IF h > 0 THEN
            PERFORM pg_notify('svc_access', 'recall:' || k.id);
        END IF;
    END IF;
    RETURN QUERY SELECT k.id, k.key_hash, k.state, k.prefix, k.account, k.plan, k.per_minute, k.per_day, g, blk, h,
                        mc, dc, mo, (SELECT value FROM world_meta WHERE key = 'data_version');
END
$fn$;

-- What a worker's key cache and data version must hear of.
CREATE OR REPLACE FUNCTION announce_access_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM pg_notify('svc_access', 'keys');
    RETURN NULL;
END
$fn$;

CREATE OR REPLACE FUNCTION announce_data_version() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
    -- TRUNCATE (a world loaded afresh) has no NEW: the workers read the version again
    PERFORM pg_notify('svc_access', 'version:' || CASE WHEN TG_OP = 'TRUNCATE' THEN '' ELSE NEW.value END);
    RETURN NULL;
END
$fn$;

DROP TRIGGER IF EXISTS api_keys_announce ON api_keys;
CREATE TRIGGER api_keys_announce AFTER UPDATE OR DELETE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION announce_access_change();
DROP TRIGGER IF EXISTS accounts_announce ON accounts;
CREATE TRIGGER accounts_announce AFTER UPDATE OF plan OR DELETE ON accounts
    FOR EACH STATEMENT EXECUTE FUNCTION announce_access_change();
DROP TRIGGER IF EXISTS plans_announce ON plans;
CREATE TRIGGER plans_announce AFTER UPDATE ON plans
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION announce_access_change();
DROP TRIGGER IF EXISTS world_meta_announce ON world_meta;
CREATE TRIGGER world_meta_announce AFTER INSERT OR UPDATE ON world_meta
    FOR EACH ROW WHEN (NEW.key = 'data_version') EXECUTE FUNCTION announce_data_version();
DROP TRIGGER IF EXISTS world_meta_truncate_announce ON world_meta;
CREATE TRIGGER world_meta_truncate_announce AFTER TRUNCATE ON world_meta
    FOR EACH STATEMENT EXECUTE FUNCTION announce_data_version();
