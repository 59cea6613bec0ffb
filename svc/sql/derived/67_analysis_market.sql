-- How the closing market did, pre-counted per year and discipline for /v1/analysis/market, from
-- the settled priced matches of 66_backtest_matches.sql (walkovers excepted). A match's favourite
-- is the side with the shorter average closing price, to the cent as the results feed shows it and
-- as /v1/backtest backs it (a tie has none and is left out); its expected chance is the market's
-- margin-free closing chance.
DROP TABLE IF EXISTS market_stats;
CREATE TABLE market_stats AS
WITH priced AS (
    SELECT year, discipline, round_code, seeded1, seeded2, winner, close1 AS c1, close2 AS c2, chance1
    FROM backtest_matches
), favourites AS (
    SELECT year, discipline, round_code,
           CASE WHEN c1 < c2 THEN 1 ELSE 2 END AS side,
           least(c1, c2) AS price,
           CASE WHEN c1 < c2 THEN chance1 ELSE 1 - chance1 END AS chance,
           winner = CASE WHEN c1 < c2 THEN 1 ELSE 2 END AS won,
           CASE WHEN c1 < c2 THEN seeded1 ELSE seeded2 END AS fav_seeded,
           CASE WHEN c1 < c2 THEN seeded2 ELSE seeded1 END AS dog_seeded
    FROM priced
    WHERE c1 <> c2
), bucketed AS (
    SELECT year, discipline, price, chance, won,
           CASE WHEN price < 1.10 THEN '1.01-1.09' WHEN price < 1.25 THEN '1.10-1.24'
                WHEN price < 1.50 THEN '1.25-1.49' WHEN price < 1.75 THEN '1.50-1.74' ELSE '1.75-2.00' END AS band,
           coalesce(round_code, 'group') AS round,
           CASE WHEN fav_seeded AND dog_seeded THEN 'both seeded' WHEN fav_seeded THEN 'favourite seeded'
                WHEN dog_seeded THEN 'outsider seeded' ELSE 'neither seeded' END AS seeding
    FROM favourites
)
SELECT year, discipline, dimension, bucket, count(*)::int AS matches, sum(chance)::float8 AS expected,
       count(*) FILTER (WHERE won)::int AS wins, coalesce(sum(price) FILTER (WHERE won), 0)::float8 AS returned
FROM bucketed,
     LATERAL (VALUES ('price', band), ('round', round), ('seeding', seeding)) AS d(dimension, bucket)
GROUP BY year, discipline, dimension, bucket;
CREATE INDEX market_stats_year ON market_stats (year, discipline);
ANALYZE market_stats;

-- Each bookmaker's margin at closing (1/price1 + 1/price2 - 1) on the match-winner market.
DROP TABLE IF EXISTS bookmaker_margins;
CREATE TABLE bookmaker_margins AS
SELECT t.year, m.discipline, o.bookmaker, count(*)::int AS quotes,
       sum(1 / o.close1 + 1 / o.close2 - 1)::float8 AS margin_sum
FROM odds o
JOIN matches m ON m.id = o.match_id
JOIN tournaments t ON t.id = m.tournament_id
WHERE o.market = 'winner' AND m.status = 'finished'
GROUP BY t.year, m.discipline, o.bookmaker;
ANALYZE bookmaker_margins;
