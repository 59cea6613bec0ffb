-- name: live-slot-lock
-- Serialises slot claims of one key for the rest of the transaction; returns nothing useful.
SELECT pg_advisory_xact_lock(:lock_class::int, (:key_id::bigint % 2147483647)::int);

-- name: live-slot-free
-- The lowest slot number (1 .. :slots) of the key not held by an unexpired lease; none when all are held.
SELECT n AS slot
FROM generate_series(1, :slots::int) AS n
WHERE NOT EXISTS (SELECT 1 FROM live_stream_slots s
                  WHERE s.key_id = :key_id AND s.slot = n AND s.expires_at > :now)
ORDER BY n
LIMIT 1;

-- name: live-slot-claim
-- Takes (or takes over an expired) slot for :holder until :expires_at; returns the slot.
INSERT INTO live_stream_slots (key_id, slot, holder, expires_at)
VALUES (:key_id, :slot, :holder, :expires_at)
ON CONFLICT (key_id, slot) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
RETURNING slot;

-- name: live-slot-renew
-- Extends the lease while :holder still holds it; returns the slot, nothing when it was lost.
UPDATE live_stream_slots SET expires_at = :expires_at
WHERE key_id = :key_id AND slot = :slot AND holder = :holder
RETURNING slot;

-- name: live-slot-release
-- Frees the slot if :holder still holds it; returns the slot freed, nothing otherwise.
DELETE FROM live_stream_slots WHERE key_id = :key_id AND slot = :slot AND holder = :holder
RETURNING slot;

-- name: live-slot-next-free
-- When the first of the key's unexpired leases runs out (null when none is held).
SELECT min(expires_at) FROM live_stream_slots WHERE key_id = :key_id AND expires_at > :now;

-- name: live-slot-renew-many
-- Extends every lease still held by one of :holders (one worker's streams at once); returns the holders renewed.
UPDATE live_stream_slots SET expires_at = :expires_at
WHERE holder = ANY(:holders::text[])
RETURNING holder;
