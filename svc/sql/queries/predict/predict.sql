-- name: players
-- The players named by a prediction (no row for an unknown id), with gender for the discipline and
-- the sport class a para player is rated within.
SELECT id, name, country, gender, sport_class FROM players WHERE id = ANY (:ids::text[]);

-- name: meetings
-- Finished matches (walkovers included) in which every player of :side_a stood on one side and every
-- player of :side_b on the other, newest first; side_of_a tells which side :side_a was.
SELECT m.id, m.day, t.name AS tournament, m.discipline, m.g1, m.g2, m.winner, m.outcome,
       CASE WHEN m.side1 @> :side_a::text[] THEN 1 ELSE 2 END AS side_of_a
FROM matches m
JOIN tournaments t ON t.id = m.tournament_id
WHERE m.status = 'finished' AND m.winner IS NOT NULL
  AND ((m.side1 @> :side_a::text[] AND m.side2 @> :side_b::text[])
    OR (m.side2 @> :side_a::text[] AND m.side1 @> :side_b::text[]))
ORDER BY m.day DESC NULLS LAST, round_rank(m.round_code) DESC, m.id;
