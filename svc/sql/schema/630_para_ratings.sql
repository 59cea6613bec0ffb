-- Para badminton is rated within its sport classes (issue "A history a fan believes"): a para match
-- is rated under its discipline and class ("MS WH1", "MD WH1-WH2"), so that para players are never
-- in the standing table of the able-bodied discipline, whose players they never meet. `rated_as`
-- is that key (the discipline alone for able-bodied play); rating_days.discipline holds it.
-- Appended as the view's last column: CREATE OR REPLACE VIEW keeps the columns before it.
CREATE OR REPLACE VIEW rated_results AS
SELECT m.id, coalesce(m.day, t.start_date, make_date(t.year, 7, 1)) AS day,
       m.tournament_id || ':' || m.discipline || coalesce(':' || m.sport_class, '') AS draw,
       m.tournament_id, t.year, m.sport_class, m.discipline, m.side1, m.side2, m.winner, m.outcome, m.g1, m.g2,
       (SELECT coalesce(sum(x), 0) FROM unnest(m.g1) x)::int AS points1,
       (SELECT coalesce(sum(x), 0) FROM unnest(m.g2) x)::int AS points2,
       coalesce(ci.country IS NOT NULL
                AND (SELECT bool_and(p.country = ci.country) FROM players p WHERE p.id = ANY (m.side1)), false) AS home1,
       coalesce(ci.country IS NOT NULL
                AND (SELECT bool_and(p.country = ci.country) FROM players p WHERE p.id = ANY (m.side2)), false) AS home2,
       m.discipline || coalesce(' ' || m.sport_class, '') AS rated_as
FROM matches m
JOIN tournaments t ON t.id = m.tournament_id
LEFT JOIN cities ci ON ci.id = t.city_id
WHERE m.status = 'finished' AND m.winner IS NOT NULL;
