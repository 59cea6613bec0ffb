-- name: market
-- replica: ok
-- The closing market's favourites by price band, round and seeding over a range of years: matches,
-- expected wins (sum of margin-free chances), wins, and the stakes returned backing each at its price.
SELECT dimension, bucket, sum(matches)::int AS matches, sum(expected)::float8 AS expected,
       sum(wins)::int AS wins, sum(returned)::float8 AS returned
FROM market_stats
WHERE (:discipline::text IS NULL OR discipline = :discipline)
  AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
GROUP BY dimension, bucket
ORDER BY dimension, bucket;

-- name: margins
-- replica: ok
-- Each bookmaker's closing match-winner quotes and their summed margins over a range of years.
SELECT bookmaker, sum(quotes)::int AS quotes, sum(margin_sum)::float8 AS margin_sum
FROM bookmaker_margins
WHERE (:discipline::text IS NULL OR discipline = :discipline)
  AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
GROUP BY bookmaker
ORDER BY bookmaker;
