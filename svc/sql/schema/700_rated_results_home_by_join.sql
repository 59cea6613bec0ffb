-- rated_results with the home test as joins instead of a subquery per side: the rating's rebuild reads
-- every result through this view, and at full scale (1.96 M results) the two subqueries were 3.9 M
-- index probes of players, about 20 of the read's 28 s. A side is one or two players, so each side's
-- players join by position (hash joins over the whole archive, index lookups for one match). The
-- answer is the one bool_and gave: false when a found player's country is not the host's, true when
-- one is and none is not, false (coalesced) when no player's country is known or the host has none.
CREATE OR REPLACE VIEW rated_results AS
SELECT m.id, coalesce(m.day, t.start_date, make_date(t.year, 7, 1)) AS day,
       m.tournament_id || ':' || m.discipline || coalesce(':' || m.sport_class, '') AS draw,
       m.tournament_id, t.year, m.sport_class, m.discipline, m.side1, m.side2, m.winner, m.outcome, m.g1, m.g2,
       (SELECT coalesce(sum(x), 0) FROM unnest(m.g1) x)::int AS points1,
       (SELECT coalesce(sum(x), 0) FROM unnest(m.g2) x)::int AS points2,
       coalesce(ci.country IS NOT NULL
                AND NOT (a1.country = ci.country IS FALSE OR a2.country = ci.country IS FALSE)
                AND (a1.country = ci.country OR a2.country = ci.country), false) AS home1,
       coalesce(ci.country IS NOT NULL
                AND NOT (b1.country = ci.country IS FALSE OR b2.country = ci.country IS FALSE)
                AND (b1.country = ci.country OR b2.country = ci.country), false) AS home2,
       m.discipline || coalesce(' ' || m.sport_class, '') AS rated_as
FROM matches m
JOIN tournaments t ON t.id = m.tournament_id
LEFT JOIN cities ci ON ci.id = t.city_id
LEFT JOIN players a1 ON a1.id = m.side1[1]
LEFT JOIN players a2 ON a2.id = m.side1[2]
LEFT JOIN players b1 ON b1.id = m.side2[1]
LEFT JOIN players b2 ON b2.id = m.side2[2]
WHERE m.status = 'finished' AND m.winner IS NOT NULL;
