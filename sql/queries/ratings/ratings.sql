-- name: table
-- One page of the rating table of :discipline as on :day (each player's latest standing before that
-- day; with :active only those who played in the year before it), best first with the standard
-- competition rank; each row with the table's size and the player.
WITH latest AS (
    SELECT r.player_id, r.day, r.rating, r.variance, r.matches
    FROM rating_days r
    WHERE r.discipline = :discipline AND daterange(r.day, r.until, '(]') @> :day::date
      AND (NOT :active OR r.day >= (:day::date - 365))
), ranked AS (
    SELECT latest.*, rank() OVER (ORDER BY rating DESC) AS rank, count(*) OVER () AS total
    FROM latest
    ORDER BY rating DESC, player_id
    OFFSET :offset LIMIT :limit
)
SELECT ranked.*, p.name, p.country
FROM ranked JOIN players p ON p.id = ranked.player_id
ORDER BY ranked.rank, ranked.player_id;

-- name: player-history
-- One page of a player's rating history before :day, newest first, in one discipline or all; each
-- row with the change from the player's previous day in that discipline and the history's size.
SELECT r.discipline, r.day, r.rating, r.variance, r.matches,
       r.rating - lag(r.rating) OVER (PARTITION BY r.discipline ORDER BY r.day) AS change,
       count(*) OVER () AS total
FROM rating_days r
WHERE r.player_id = :player AND r.day < :day AND (:discipline::text IS NULL OR r.discipline = :discipline)
ORDER BY r.day DESC, array_position(ARRAY['MS','WS','MD','WD','XD'], r.discipline)
OFFSET :offset LIMIT :limit;
