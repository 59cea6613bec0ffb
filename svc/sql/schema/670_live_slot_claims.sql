-- take_live_slots: the slot claims of the streams one worker opens at once, in one statement
-- (svc_live.slots queues the claims that arrive while the previous batch runs). Element i of the
-- arrays is one claim: key p_keys[i] for holder p_holders[i], a lease until p_expires[i], a lease
-- that ran out by p_now[i] being free. Returns, for each claim in order, the slot taken (1 or 2,
-- svc_live.slots.MAX_STREAMS) or null when live leases hold both.
--
-- Exact, as the statement per claim it replaces was: a slot is taken only by an INSERT .. ON
-- CONFLICT DO UPDATE WHERE expired, which locks the row and re-checks its latest version, so two
-- claims racing for one slot (any worker, any server, any batch) cannot both get it. A slot seen
-- held by a live lease is passed over without locking it (a release racing with that read refuses
-- a claim that a moment later would have succeeded, as it would alone). Claims are taken in key
-- order (then in their order of arrival), so batches of several processes lock rows in the same
-- order and never wait on each other in a cycle; a worker's claims of one key in one batch are
-- served in the order they came.
CREATE OR REPLACE FUNCTION take_live_slots(p_keys bigint[], p_holders text[], p_expires timestamptz[],
                                           p_now timestamptz[])
RETURNS smallint[]
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
AS $fn$
DECLARE
    taken smallint[] := array_fill(NULL::smallint, ARRAY[coalesce(array_length(p_keys, 1), 0)]);
    i int;
    got smallint;
BEGIN
    FOR i IN SELECT c.i FROM generate_subscripts(p_keys, 1) AS c(i) ORDER BY p_keys[c.i], c.i LOOP
        FOR s IN 1 .. 2 LOOP  -- MAX_STREAMS
            CONTINUE WHEN EXISTS (
                SELECT FROM live_stream_slots l
                WHERE l.key_id = p_keys[i] AND l.slot = s AND l.expires_at > p_now[i]
            );
            INSERT INTO live_stream_slots AS l (key_id, slot, holder, expires_at)
            VALUES (p_keys[i], s, p_holders[i], p_expires[i])
            ON CONFLICT (key_id, slot) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
            WHERE l.expires_at <= p_now[i]
            RETURNING l.slot INTO got;
            IF got IS NOT NULL THEN
                taken[i] := got;
                EXIT;
            END IF;
        END LOOP;
    END LOOP;
    RETURN taken;
END
$fn$;
