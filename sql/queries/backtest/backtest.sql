-- name: run
-- One strategy over the settled priced matches the filters keep, one unit a bet at the average
-- closing price backed: bets, wins, profit, the sum of the market's chances of the sides backed and
-- of their variances (for the expected rate and its interval), the mean price, and the longest run
-- of lost bets in date order; and how many matches the match filters keep.
WITH kept AS (
    SELECT * FROM backtest_matches b
    WHERE (:discipline::text IS NULL OR b.discipline = :discipline)
      AND (:round::text IS NULL OR b.round_code = :round)
      AND b.year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
), picks AS (
    SELECT b.day, b.match_id, s.side,
           CASE s.side WHEN 1 THEN b.close1 ELSE b.close2 END AS price,
           CASE s.side WHEN 1 THEN b.chance1 ELSE 1 - b.chance1 END AS chance,
           b.winner = s.side AS won
    FROM kept b,
         LATERAL (SELECT CASE :strategy
                             WHEN 'favourite' THEN b.favourite WHEN 'outsider' THEN 3 - b.favourite
                             WHEN 'seeded' THEN b.seeded WHEN 'unseeded' THEN 3 - b.seeded
                             WHEN 'steam' THEN b.steam WHEN 'drift' THEN 3 - b.steam END AS side) s
    WHERE s.side IS NOT NULL
), backed AS (
    SELECT * FROM picks
    WHERE price >= coalesce(:min_price::float8, 0) AND price <= coalesce(:max_price::float8, 'Infinity')
), runs AS (  -- each lost bet with the number of wins before it: a run of losses shares that number
    SELECT count(*) FILTER (WHERE won) OVER (ORDER BY day NULLS FIRST, match_id) AS wins_before, won FROM backed
)
SELECT count(*)::int AS bets, count(*) FILTER (WHERE won)::int AS wins,
       coalesce(sum(CASE WHEN won THEN price - 1 ELSE -1 END), 0)::float8 AS profit,
       coalesce(sum(chance), 0)::float8 AS chance_sum, coalesce(sum(chance * (1 - chance)), 0)::float8 AS variance,
       coalesce(sum(price), 0)::float8 AS price_sum,
       coalesce((SELECT max(n) FROM (SELECT count(*) AS n FROM runs WHERE NOT won GROUP BY wins_before) l), 0)::int
           AS worst_run,
       (SELECT count(*) FROM kept)::int AS matches
FROM backed;

