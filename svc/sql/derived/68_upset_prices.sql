-- The winner of every completed priced match at its average closing price (walkovers and wins by
-- retirement left out: an injury is not an upset), for /v1/analysis/upsets?by=price: longest first.
DROP TABLE IF EXISTS upset_prices;
CREATE TABLE upset_prices AS
SELECT match_id, year, discipline, winner,
       CASE winner WHEN 1 THEN close1 ELSE close2 END AS winner_price,
       CASE winner WHEN 1 THEN chance1 ELSE 1 - chance1 END AS winner_chance
FROM backtest_matches b
WHERE EXISTS (SELECT 1 FROM matches m WHERE m.id = b.match_id AND m.outcome = 'played');
CREATE INDEX upset_prices_price ON upset_prices (winner_price DESC, match_id);
ANALYZE upset_prices;
