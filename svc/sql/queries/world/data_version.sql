-- name: data-version
-- The data version (moved on by every import, svc/world/derived.py): what svc.core.replicas asks a
-- replica to learn whether it has replayed the import a request's key check saw on the primary.
SELECT value FROM world_meta WHERE key = 'data_version';
