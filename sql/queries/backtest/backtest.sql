-- name: matches
-- The settled priced matches a backtest runs over, in date order: average opening and closing prices
-- (to the cent), side 1's margin-free closing chance, seeds and winner.
SELECT match_id, day, seeded1, seeded2, winner, open1, open2, close1, close2, chance1
FROM backtest_matches
WHERE (:discipline::text IS NULL OR discipline = :discipline)
  AND (:round::text IS NULL OR round_code = :round)
  AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
ORDER BY day NULLS FIRST, match_id;
