-- Every settled match with match-winner prices, one row each, for /v1/backtest: the average
-- opening and closing prices of each side as the results feed shows them (to the cent), the
-- market's margin-free closing chance of side 1, the seeds, the winner, in date order.
DROP TABLE IF EXISTS backtest_matches;
CREATE TABLE backtest_matches AS
SELECT m.id AS match_id, t.year, m.discipline, m.round_code, m.day, m.seed1 IS NOT NULL AS seeded1,
       m.seed2 IS NOT NULL AS seeded2, m.winner,
       round(avg(o.open1), 2)::float8 AS open1, round(avg(o.open2), 2)::float8 AS open2,
       round(avg(o.close1), 2)::float8 AS close1, round(avg(o.close2), 2)::float8 AS close2,
       ((1 / avg(o.close1)) / (1 / avg(o.close1) + 1 / avg(o.close2)))::float8 AS chance1
FROM matches m
JOIN tournaments t ON t.id = m.tournament_id
JOIN odds o ON o.match_id = m.id AND o.market = 'winner'
WHERE m.status = 'finished' AND m.outcome <> 'walkover' AND m.winner IS NOT NULL
GROUP BY m.id, t.year;
CREATE INDEX backtest_matches_order ON backtest_matches (day, match_id);
ANALYZE backtest_matches;
