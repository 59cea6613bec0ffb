-- The prebuilt demo world's restore (svc/world/prebuilt.py), on the embedded database only.

-- name: public-tables
-- How many tables the public schema holds (0: a database never migrated, where a dump can be restored).
SELECT count(*) FROM pg_tables WHERE schemaname = 'public';

-- name: meta-all
-- The loaded world's world_meta rows (key, value): what the dump's manifest repeats.
SELECT key, value FROM world_meta ORDER BY key;

-- name: restoring-mark
-- Made before a restore and dropped after it: found at a start, the restore was cut short.
CREATE TABLE prebuilt_restoring ();

-- name: restoring-unmark
-- The restore finished.
DROP TABLE prebuilt_restoring;

-- name: restoring-marked
-- Whether a restore was cut short (its marker is still there); returns a boolean.
SELECT to_regclass('public.prebuilt_restoring') IS NOT NULL;

-- name: public-schema-drop
-- Wipes a restore that failed or was cut short: everything it made is in the public schema.
DROP SCHEMA public CASCADE;

-- name: public-schema-create
-- ... and the schema made again, as initdb leaves it (owned by the database's owner).
CREATE SCHEMA public AUTHORIZATION pg_database_owner;
