-- name: has-matches
-- Whether any world is loaded (serve loads the demo world into an empty database); returns has (boolean).
SELECT EXISTS (SELECT 1 FROM matches) AS has;

-- name: source
-- What the loaded world is: world_meta's source (the real world: bwf), else its scale.
SELECT coalesce((SELECT value FROM world_meta WHERE key = 'source'), (SELECT value FROM world_meta WHERE key = 'scale'));

-- name: coverage
-- The loaded world's note on what it does not cover (world_meta `coverage`), null when it covers everything.
SELECT value FROM world_meta WHERE key = 'coverage';

-- name: plain-indexes
-- The indexes of `tables` that back no constraint (name and CREATE statement): a bulk load (the
-- importer's COPY, the rating rebuild's) drops them and builds them again after
-- (svc.core.sqlrun.indexes_built_after).
SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS ddl
FROM pg_index i
WHERE i.indrelid = ANY (:tables::regclass[])
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
ORDER BY 1;
