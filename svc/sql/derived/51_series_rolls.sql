-- Rolls of honour for /v1/series/{slug}/champions, computed once per import: one row per
-- finished final of an individual event (the winning and losing side with names), and one per
-- finished final tie of a team event (the winning and losing nation). Para events are keyed
-- per sport class ("MS WH1"), others by discipline ("MS").
DROP TABLE IF EXISTS series_finals;
CREATE TABLE series_finals AS
SELECT t.series, t.year, t.id AS tournament_id, t.name AS tournament_name, m.id AS match_id,
       m.discipline, m.sport_class,
       m.discipline || coalesce(' ' || m.sport_class, '') AS event,
       CASE m.winner WHEN 1 THEN m.side1 ELSE m.side2 END AS winner_ids,
       (SELECT jsonb_agg(jsonb_build_object('id', p.id, 'name', p.name, 'country', p.country) ORDER BY s.ord)
        FROM unnest(CASE m.winner WHEN 1 THEN m.side1 ELSE m.side2 END) WITH ORDINALITY AS s(pid, ord)
        JOIN players p ON p.id = s.pid) AS champions,
       (SELECT jsonb_agg(jsonb_build_object('id', p.id, 'name', p.name, 'country', p.country) ORDER BY s.ord)
        FROM unnest(CASE m.winner WHEN 1 THEN m.side2 ELSE m.side1 END) WITH ORDINALITY AS s(pid, ord)
        JOIN players p ON p.id = s.pid) AS runners_up
FROM matches m
JOIN tournaments t ON t.id = m.tournament_id AND NOT t.team
WHERE m.round_code = 'F' AND m.status = 'finished' AND m.winner IS NOT NULL;
CREATE INDEX series_finals_series ON series_finals (series, year, tournament_id);

DROP TABLE IF EXISTS series_team_finals;
CREATE TABLE series_team_finals AS
SELECT t.series, t.year, t.id AS tournament_id, t.name AS tournament_name, ti.id AS tie_id,
       jsonb_build_object('code', w.code, 'name', w.name) AS winner_team,
       jsonb_build_object('code', l.code, 'name', l.name) AS runner_up_team
FROM ties ti
JOIN tournaments t ON t.id = ti.tournament_id
JOIN countries w ON w.code = CASE ti.winner WHEN 1 THEN ti.team1 ELSE ti.team2 END
JOIN countries l ON l.code = CASE ti.winner WHEN 1 THEN ti.team2 ELSE ti.team1 END
WHERE ti.round_code = 'F' AND ti.winner IS NOT NULL;
CREATE INDEX series_team_finals_series ON series_team_finals (series, year);

-- Per series and discipline ('*' = all disciplines together): how many finals each player won,
-- first and last winning year; meta.most_titles of the roll of honour reads the top ten.
DROP TABLE IF EXISTS series_champion_counts;
CREATE TABLE series_champion_counts AS
SELECT f.series, d.discipline, p.id, p.name, p.country, count(*)::int AS titles,
       min(f.year) AS first_year, max(f.year) AS last_year
FROM series_finals f
CROSS JOIN LATERAL unnest(f.winner_ids) AS w(pid)
JOIN players p ON p.id = w.pid
CROSS JOIN LATERAL (VALUES (f.discipline), ('*')) AS d(discipline)
GROUP BY f.series, d.discipline, p.id;
CREATE INDEX series_champion_counts_top ON series_champion_counts (series, discipline, titles DESC, first_year, id);
