-- name: upsets-by-price
-- replica: ok
-- The winners at the longest average closing prices: the first :limit places (ties share one), each
-- a draw match row of event_rows with the market's margin-free chance and the own rating's chance.
WITH top AS (
    SELECT match_id, winner, winner_price, winner_chance AS market_chance FROM upset_prices
    WHERE (:discipline::text IS NULL OR discipline = :discipline)
      AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
    ORDER BY winner_price DESC FETCH FIRST (:limit) ROWS WITH TIES
)
SELECT rank() OVER (ORDER BY t.winner_price DESC) AS place, t.winner AS upset_winner, t.winner_price, t.market_chance,
       r.winner_chance AS rating_chance, e.*
FROM top t
JOIN event_rows e ON e.match_id = t.match_id
LEFT JOIN rating_matches r ON r.match_id = t.match_id
ORDER BY place, e.year, e.match_id;

-- name: upsets-by-rating
-- replica: ok
-- The winners the own rating gave the lowest chance before the match: the first :limit places,
-- each a draw match row of event_rows with the winner's average closing price where priced.
WITH top AS (
    SELECT match_id, winner_chance AS rating_chance FROM rating_matches
    WHERE played AND (:discipline::text IS NULL OR discipline = :discipline)
      AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
    ORDER BY winner_chance FETCH FIRST (:limit) ROWS WITH TIES
)
SELECT rank() OVER (ORDER BY t.rating_chance) AS place, e.winner AS upset_winner, u.winner_price,
       u.winner_chance AS market_chance, t.rating_chance, e.*
FROM top t
JOIN event_rows e ON e.match_id = t.match_id
LEFT JOIN upset_prices u ON u.match_id = t.match_id
ORDER BY place, e.year, e.match_id;
