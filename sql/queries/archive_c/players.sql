-- name: sub-player
-- One player's reference (id, name, country); no row for an unknown id.
SELECT p.id, p.name, p.country FROM players p WHERE p.id = :id;

-- name: sub-players-two
-- The references (id, name, country) of the players among :player1 and :player2 that exist.
SELECT p.id, p.name, p.country FROM players p WHERE p.id IN (:player1, :player2);
