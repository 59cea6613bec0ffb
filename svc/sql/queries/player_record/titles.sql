-- name: titles
-- Every final of an individual event a player reached (finished), newest first: result,
-- tournament, level, discipline, sport class, partner and opponents, games from the player's side,
-- and the outcome (played with no games: a final of public record held without its score).
SELECT pm.match_id, pm.won, pm.tournament_id, t.name AS tournament_name, t.year, pm.level, pm.discipline,
       pm.sport_class, pm.gf, pm.ga, pm.outcome,
       CASE WHEN pm.partner IS NOT NULL THEN
           (SELECT json_build_object('id', p.id, 'name', p.name, 'country', p.country) FROM players p WHERE p.id = pm.partner)
       END AS partner,
       (SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'country', p.country) ORDER BY s.ord)
          FROM unnest(pm.opponents) WITH ORDINALITY AS s(pid, ord) JOIN players p ON p.id = s.pid) AS opponents
FROM player_match pm
JOIN tournaments t ON t.id = pm.tournament_id
WHERE pm.player_id = :id AND pm.final AND (:discipline::text IS NULL OR pm.discipline = :discipline::text)
ORDER BY pm.day DESC, pm.start_at DESC NULLS LAST, pm.match_id DESC;
