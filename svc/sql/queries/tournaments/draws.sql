-- name: draw-facts
-- For a draw request: whether the edition is para or team, and the sport classes of the
-- :discipline draw (empty when none); no row for an unknown edition.
SELECT t.para, t.team,
       ARRAY(SELECT DISTINCT m.sport_class FROM matches m
             WHERE m.tournament_id = t.id AND m.discipline = :discipline AND m.sport_class IS NOT NULL
             ORDER BY 1) AS classes
FROM tournaments t WHERE t.id = :id;

-- name: draw
-- The draw of one discipline (and sport classes :classes, NULL = all) of an edition: group
-- stages first (by name), then the knockout rounds from the first to the final with the
-- bronze match (3P) just before the final; within a round in draw order.
SELECT e.*
FROM event_rows e
WHERE e.tournament_id = :id AND e.discipline = :discipline
  AND (:classes::text[] IS NULL OR e.sport_class = ANY (:classes))
ORDER BY e.sport_class NULLS FIRST,
         array_position(ARRAY['R128', 'R64', 'R32', 'R16', 'QF', 'SF', '3P', 'F'], e.round_code) NULLS FIRST,
         e.round_name, e.position;

-- name: ties
-- The ties of an edition in page order (optionally of one stage, :stage folded), with both
-- nations' names; one row with NULL tie columns for an edition without ties, none for an
-- unknown edition. :stages lists every stage of the edition, in order of first tie.
SELECT t.team AS team_event,
       ARRAY(SELECT s.stage FROM ties s WHERE s.tournament_id = t.id GROUP BY s.stage ORDER BY min(s.number)) AS stages,
       ti.id, ti.stage, ti.round_code, ti.number, ti.team1, c1.name AS team1_name, ti.team2, c2.name AS team2_name,
       ti.score1, ti.score2, ti.winner, ti.day, ti.venue
FROM tournaments t
LEFT JOIN ties ti ON ti.tournament_id = t.id AND (:stage::text IS NULL OR lower(ti.stage) = lower(:stage))
LEFT JOIN countries c1 ON c1.code = ti.team1
LEFT JOIN countries c2 ON c2.code = ti.team2
WHERE t.id = :id
ORDER BY ti.number;

-- name: tie-matches
-- The matches of the ties :ties, as event rows, in tie order.
SELECT e.*
FROM matches m
JOIN event_rows e ON e.match_id = m.id
WHERE m.tie_id = ANY (:ties::text[])
ORDER BY m.tie_id, m.tie_order;
