-- Per player: draw matches played (walkovers not counted as played), wins, first and last year.
DROP TABLE IF EXISTS player_totals;
CREATE TABLE player_totals AS
SELECT s.player_id, count(*)::int AS matches, count(*) FILTER (WHERE s.won)::int AS wins,
       min(s.year) AS first_year, max(s.year) AS last_year, max(s.day) AS last_day
FROM (
    SELECT unnest(m.side1) AS player_id, m.winner = 1 AS won, t.year, m.day
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE m.status = 'finished' AND m.outcome <> 'walkover'
    UNION ALL
    SELECT unnest(m.side2), m.winner = 2, t.year, m.day
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE m.status = 'finished' AND m.outcome <> 'walkover'
) s
GROUP BY s.player_id;
ALTER TABLE player_totals ADD PRIMARY KEY (player_id);
