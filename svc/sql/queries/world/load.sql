-- name: keys
-- The primary keys and unique constraints of `tables`, and the foreign keys from or to them
-- (name, table, definition, kind p/u/f), foreign keys first: a bulk load (svc.world.load) drops
-- them and adds them again after the COPY, each checked once over the whole table (an index built
-- by one sort, a foreign key by one join) instead of row by row.
SELECT c.conname AS name, c.conrelid::regclass::text AS tbl, pg_get_constraintdef(c.oid) AS ddl, c.contype AS kind
FROM pg_constraint c
WHERE (c.conrelid = ANY (:tables::regclass[]) AND c.contype IN ('p', 'u', 'f'))
   OR (c.confrelid = ANY (:tables::regclass[]) AND c.contype = 'f')
ORDER BY c.contype = 'f' DESC, c.conrelid, c.conname;
