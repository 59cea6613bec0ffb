-- name: has-matches
-- Whether any world is loaded (serve loads the demo world into an empty database); returns has (boolean).
SELECT EXISTS (SELECT 1 FROM matches) AS has;

-- name: source
-- What the loaded world is: world_meta's source (the real world: bwf), else its scale.
SELECT coalesce((SELECT value FROM world_meta WHERE key = 'source'), (SELECT value FROM world_meta WHERE key = 'scale'));

-- name: coverage
-- The loaded world's note on what it does not cover (world_meta `coverage`), null when it covers everything.
SELECT value FROM world_meta WHERE key = 'coverage';
