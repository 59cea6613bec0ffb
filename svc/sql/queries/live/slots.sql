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

-- name: slot-take-many
-- The claims of several streams at once (svc/sql/schema/670_live_slot_claims.sql): the arrays
-- hold one element per claim; the slot taken by each, in order (null: both slots are held).
SELECT take_live_slots(:key_ids::bigint[], :holders::text[], :expires_at::timestamptz[], :now::timestamptz[]);
