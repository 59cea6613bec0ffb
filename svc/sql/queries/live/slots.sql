-- name: slot-take
-- Takes the first free of the key's two slots (no row, or a lease that ran out by :now) for
-- :holder until :expires_at; returns the slot, nothing when live leases hold both. One statement
-- for both (a second stream of a key made two): slot 2 is tried only when slot 1 was not taken
-- (the second insert reads the first's RETURNING, so it runs after it). Each insert is atomic on
-- its own: ON CONFLICT locks the row and re-checks its latest version, so two claims racing for
-- one slot (any worker, any server) cannot both get it. svc_live.slots.MAX_STREAMS is its 2.
WITH first_slot AS (
    INSERT INTO live_stream_slots AS s (key_id, slot, holder, expires_at)
    VALUES (:key_id, 1, :holder, :expires_at)
    ON CONFLICT (key_id, slot) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
    WHERE s.expires_at <= :now
    RETURNING slot
), second_slot AS (
    INSERT INTO live_stream_slots AS s (key_id, slot, holder, expires_at)
    SELECT :key_id, 2, :holder, :expires_at WHERE NOT EXISTS (SELECT FROM first_slot)
    ON CONFLICT (key_id, slot) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
    WHERE s.expires_at <= :now
    RETURNING slot
)
SELECT slot FROM first_slot UNION ALL SELECT slot FROM second_slot;

-- name: slot-release
-- Frees the slot if :holder still holds it; returns the slot freed, nothing otherwise.
DELETE FROM live_stream_slots WHERE key_id = :key_id AND slot = :slot AND holder = :holder
RETURNING slot;

-- name: slot-next-free
-- When the first of the key's unexpired leases runs out (null when none is held).
SELECT min(expires_at) FROM live_stream_slots WHERE key_id = :key_id AND expires_at > :now;

-- name: slot-renew-many
-- Extends every lease still held by one of :holders (one worker's streams at once); returns the
-- holders of :holders it did not find (their leases were lost): usually none, so the renewal of
-- 10,000 streams sends back nothing rather than their 10,000 names.
WITH renewed AS (
    UPDATE live_stream_slots SET expires_at = :expires_at
    WHERE holder = ANY(:holders::text[])
    RETURNING holder
)
SELECT holder FROM unnest(:holders::text[]) AS asked(holder)
EXCEPT SELECT holder FROM renewed;
