-- name: opponents
-- A player's :limit most frequent opponents (of :discipline, or over all disciplines): meetings,
-- wins, losses, and the most recent meeting with its score and the player's side in it. Counted
-- from the player's rows of player_match (at most a few hundred matches, read through
-- player_match_player), the list ordered and cut before the joins.
WITH po AS (
    SELECT o.opponent, count(*)::int AS meetings, count(*) FILTER (WHERE pm.won)::int AS wins,
           count(*) FILTER (WHERE NOT pm.won)::int AS losses,
           (array_agg(pm.match_id ORDER BY pm.day DESC, pm.start_at DESC NULLS LAST, pm.round_rank DESC,
                      pm.match_id DESC))[1] AS last_match,
           max(pm.day) AS last_day
    FROM player_match pm
    CROSS JOIN LATERAL unnest(pm.opponents) AS o(opponent)
    WHERE pm.player_id = :id AND (:discipline::text IS NULL OR pm.discipline = :discipline::text)
    GROUP BY o.opponent
    ORDER BY meetings DESC, last_day DESC, o.opponent
    LIMIT :limit
)
SELECT po.opponent, p.name AS opponent_name, p.country AS opponent_country, po.meetings, po.wins, po.losses,
       m.id AS match_id, m.day, m.tournament_id, t.name AS tournament_name, t.year, m.discipline, m.outcome,
       m.winner, m.g1, m.g2, CASE WHEN m.side1 @> ARRAY[:id::text] THEN 1 ELSE 2 END AS side
FROM po
JOIN players p ON p.id = po.opponent
JOIN matches m ON m.id = po.last_match
JOIN tournaments t ON t.id = m.tournament_id
ORDER BY po.meetings DESC, po.last_day DESC, po.opponent;
