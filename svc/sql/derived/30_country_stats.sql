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
           count(*) FILTER (WHERE discipline = 'MD')::int AS md, count(*) FILTER (WHERE discipline = 'MS')::int AS ms,
           count(*) FILTER (WHERE discipline = 'WD')::int AS wd, count(*) FILTER (WHERE discipline = 'WS')::int AS ws,
           count(*) FILTER (WHERE discipline = 'XD')::int AS xd
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
       -- json as row_to_json writes it (no spaces; keys in jsonb's order, which it was before): the
       -- list /v1/countries goes out as the rows PostgreSQL writes (svc.web.convert.rows_json)
       (SELECT row_to_json(d) FROM (SELECT coalesce(ti.md, 0) AS "MD", coalesce(ti.ms, 0) AS "MS",
               coalesce(ti.wd, 0) AS "WD", coalesce(ti.ws, 0) AS "WS", coalesce(ti.xd, 0) AS "XD") d) AS titles_by_discipline
FROM countries c
LEFT JOIN people pe ON pe.country = c.code
LEFT JOIN titles ti ON ti.country = c.code;
ALTER TABLE country_stats ADD PRIMARY KEY (code);
