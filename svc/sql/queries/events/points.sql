-- name: match-status
-- The status of the match an event (ev_) or draw match (mt_) id names; no row when unknown.
SELECT m.status FROM matches m WHERE m.event_id = :id OR m.id = :id;

-- name: points
-- A match (by ev_ or mt_ id) with its status, scores and every rally in order (game, rally):
-- who served, who won, the score after it; rallies is NULL when none are held.
SELECT m.id AS match_id, m.event_id, m.status, m.outcome, m.winner, m.g1, m.g2, m.discipline,
       (SELECT json_agg(json_build_object('game', r.game, 'rally', r.rally, 'server', r.server, 'winner', r.winner,
                                          's1', r.score1, 's2', r.score2) ORDER BY r.game, r.rally)
        FROM rallies r WHERE r.match_id = m.id) AS rallies
FROM matches m
WHERE m.event_id = :id OR m.id = :id;
