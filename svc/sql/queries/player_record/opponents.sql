-- name: opponents
-- A player's :limit most frequent opponents (of :discipline, or over all disciplines): meetings,
-- wins, losses, and the most recent meeting with its score and the player's side in it.
SELECT po.opponent, p.name AS opponent_name, p.country AS opponent_country, po.meetings, po.wins, po.losses,
       m.id AS match_id, m.day, m.tournament_id, t.name AS tournament_name, t.year, m.discipline, m.outcome,
       m.winner, m.g1, m.g2, CASE WHEN m.side1 @> ARRAY[:id::text] THEN 1 ELSE 2 END AS side
FROM player_opponents po
JOIN players p ON p.id = po.opponent
JOIN matches m ON m.id = po.last_match
JOIN tournaments t ON t.id = m.tournament_id
WHERE po.player_id = :id AND po.scope = coalesce(:discipline::text, 'all')
ORDER BY po.meetings DESC, po.last_day DESC, po.opponent
LIMIT :limit;
