-- A match as every endpoint shows it (an event of the results feed, or a draw match): the
-- match, its tournament, its players in side order and a summary of its match-winner
-- prices. Columns not selected are not computed.
CREATE OR REPLACE VIEW event_rows AS
SELECT m.id AS match_id, m.event_id, m.tournament_id, t.name AS tournament_name, t.year, t.team AS team_event,
       m.discipline, m.sport_class, m.round_code, m.status, m.day, m.start_at, m.end_at,
       m.seed1, m.seed2, m.g1, m.g2, m.winner, m.outcome,
       (SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'country', p.country) ORDER BY s.ord)
          FROM unnest(m.side1) WITH ORDINALITY AS s(pid, ord) JOIN players p ON p.id = s.pid) AS players1,
       (SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'country', p.country) ORDER BY s.ord)
          FROM unnest(m.side2) WITH ORDINALITY AS s(pid, ord) JOIN players p ON p.id = s.pid) AS players2,
       (SELECT json_build_object(
                 'bookmakers', count(*),
                 'open1', avg(o.open1)::float8, 'open2', avg(o.open2)::float8,
                 'close1', avg(o.close1)::float8, 'close2', avg(o.close2)::float8,
                 'best1', max(o.close1)::float8, 'best2', max(o.close2)::float8,
                 'margin', avg(1 / o.close1 + 1 / o.close2 - 1)::float8)
          FROM odds o WHERE o.match_id = m.id AND o.market = 'winner') AS odds,
       m.round_name, m.position, m.tie_id, m.tie_order, m.side1, m.side2, t.series
FROM matches m
JOIN tournaments t ON t.id = m.tournament_id;
