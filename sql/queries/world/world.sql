-- name: has-matches
-- Whether any world is loaded (serve loads the demo world into an empty database); returns has (boolean).
SELECT EXISTS (SELECT 1 FROM matches) AS has;
