-- Every settled match with match-winner prices, one row each, for /v1/backtest: the average
-- opening and closing prices of each side as the results feed shows them (to the cent), the
-- market's margin-free closing chance of side 1, the seeds, the winner, and the side each
-- strategy backs (outsider, unseeded and drift back the other side; NULL: no bet), decided once
-- here instead of on every request. Stored in date order, the order a backtest reads it in
-- (its longest losing run): the index then reads the table front to back.
DROP TABLE IF EXISTS backtest_matches;
CREATE TABLE backtest_matches AS
SELECT a.*,
       CASE WHEN close1 < close2 THEN 1 WHEN close2 < close1 THEN 2 END::smallint AS favourite,
       CASE WHEN seeded1 AND NOT seeded2 THEN 1 WHEN seeded2 AND NOT seeded1 THEN 2 END::smallint AS seeded,
       CASE WHEN close1 / open1 < close2 / open2 THEN 1 WHEN close2 / open2 < close1 / open1 THEN 2 END::smallint AS steam
FROM (
    SELECT m.id AS match_id, t.year, m.discipline, m.round_code, m.day, m.seed1 IS NOT NULL AS seeded1,
           m.seed2 IS NOT NULL AS seeded2, m.winner,
           round(avg(o.open1), 2)::float8 AS open1, round(avg(o.open2), 2)::float8 AS open2,
           round(avg(o.close1), 2)::float8 AS close1, round(avg(o.close2), 2)::float8 AS close2,
           ((1 / avg(o.close1)) / (1 / avg(o.close1) + 1 / avg(o.close2)))::float8 AS chance1
    FROM matches m
    JOIN tournaments t ON t.id = m.tournament_id
    JOIN odds o ON o.match_id = m.id AND o.market = 'winner'
    WHERE m.status = 'finished' AND m.outcome <> 'walkover' AND m.winner IS NOT NULL
    GROUP BY m.id, t.year
) a
ORDER BY a.day NULLS FIRST, a.match_id;
CREATE INDEX backtest_matches_order ON backtest_matches (day NULLS FIRST, match_id);
ANALYZE backtest_matches;
