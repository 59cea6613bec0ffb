-- name: match
-- The match an event (ev_) or draw match (mt_) id names: its ids, status and sides; no row when unknown.
SELECT m.id AS match_id, m.event_id, m.status, m.discipline, m.side1, m.side2, m.winner
FROM matches m WHERE m.event_id = :id OR m.id = :id;

-- name: prices
-- Every bookmaker's opening and closing prices of one match, market by market (winner first, then
-- handicaps and totals), bookmakers by name.
SELECT o.market, o.line::float8 AS line, o.bookmaker, o.open1::float8 AS open1, o.open2::float8 AS open2,
       o.close1::float8 AS close1, o.close2::float8 AS close2
FROM odds o
WHERE o.match_id = :match_id
ORDER BY array_position(ARRAY['winner', 'handicap_games', 'handicap_points', 'total_games', 'total_points'], o.market),
         o.line, o.bookmaker;

-- name: in-play
-- The in-play match-winner prices of a match under way, bookmaker by bookmaker, with when each last moved.
SELECT bookmaker, price1::float8 AS price1, price2::float8 AS price2, updated_at
FROM live_prices WHERE match_id = :match_id ORDER BY bookmaker;
