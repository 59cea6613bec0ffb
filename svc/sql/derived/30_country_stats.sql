-- Per country: players, players active in the last two years, first year, and individual
-- titles (finals won; a pair of two nations counts once for each).
DROP TABLE IF EXISTS country_stats;
CREATE TABLE country_stats AS
WITH final_wins AS (
    SELECT DISTINCT m.id, m.discipline, p.country
    FROM matches m
    JOIN tournaments t ON t.id = m.tournament_id AND NOT t.team
    JOIN players p ON p.id = ANY (CASE m.winner WHEN 1 THEN m.side1 ELSE m.side2 END)
    WHERE m.round_code = 'F' AND m.status = 'finished' AND m.winner IS NOT NULL AND p.country IS NOT NULL
), titles AS (
    SELECT country, count(*)::int AS titles,
           jsonb_build_object(
               'MS', count(*) FILTER (WHERE discipline = 'MS'), 'WS', count(*) FILTER (WHERE discipline = 'WS'),
               'MD', count(*) FILTER (WHERE discipline = 'MD'), 'WD', count(*) FILTER (WHERE discipline = 'WD'),
               'XD', count(*) FILTER (WHERE discipline = 'XD')) AS by_discipline
    FROM final_wins GROUP BY country
), people AS (
    SELECT p.country, count(*)::int AS players,
           count(*) FILTER (WHERE pt.last_day >= current_date - interval '2 years')::int AS active_players,
           min(pt.first_year) AS first_year
    FROM players p LEFT JOIN player_totals pt ON pt.player_id = p.id
    WHERE p.country IS NOT NULL
    GROUP BY p.country
)
SELECT c.code, c.name, coalesce(pe.players, 0) AS players, coalesce(pe.active_players, 0) AS active_players,
       pe.first_year, coalesce(ti.titles, 0) AS titles,
       coalesce(ti.by_discipline, '{"MS":0,"WS":0,"MD":0,"WD":0,"XD":0}'::jsonb) AS titles_by_discipline
FROM countries c
LEFT JOIN people pe ON pe.country = c.code
LEFT JOIN titles ti ON ti.country = c.code;
ALTER TABLE country_stats ADD PRIMARY KEY (code);
