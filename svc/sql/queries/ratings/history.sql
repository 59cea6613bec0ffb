-- name: results
-- Every finished match in playing order as the rating reads it (the view rated_results).
SELECT * FROM rated_results ORDER BY day, id;

-- name: clear
-- Empties the rating tables before a rebuild.
TRUNCATE rating_days, rating_firsts, rating_matches, rating_draws;

-- name: model-save
-- Keeps the model's description (settings, fitted home edge and decider, held-out figures) as JSON.
INSERT INTO world_meta (key, value) VALUES ('rating_model', :model)
ON CONFLICT (key) DO UPDATE SET value = excluded.value;

-- name: model
-- The model's description as the last rebuild kept it (JSON text); null before any.
SELECT value FROM world_meta WHERE key = 'rating_model';

-- name: match
-- One finished match the live feed has just settled, as the rating reads it.
SELECT * FROM rated_results WHERE id = :match_id;

-- name: day-matches
-- The finished matches of one day, rated as :rated_as (a discipline, or a para discipline and
-- class), that any of `players` played (their day is rated again with a new one).
SELECT * FROM rated_results
WHERE rated_as = :rated_as AND day = :day
  AND (side1 && :players::text[] OR side2 && :players::text[])
ORDER BY id;

-- name: standings
-- Each of `players`' latest standing before `day` in every discipline they are rated in.
SELECT DISTINCT ON (r.player_id, r.discipline) r.player_id, r.discipline, r.day, r.rating, r.variance, r.matches
FROM rating_days r
WHERE r.player_id = ANY (:players::text[]) AND r.day < :day
ORDER BY r.player_id, r.discipline, r.day DESC;

-- name: draw-level
-- The level a newcomer enters a draw at, once set.
SELECT level FROM rating_draws WHERE draw = :draw;

-- name: draw-field
-- A draw's first day and the players of its matches that day (played or to come): the field a
-- newcomer is measured against, known on that day.
WITH d AS (
    SELECT m.side1, m.side2, coalesce(m.day, t.start_date, make_date(t.year, 7, 1)) AS day
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE m.tournament_id = :tournament_id AND m.discipline = :discipline
      AND m.sport_class IS NOT DISTINCT FROM :sport_class
)
SELECT array_agg(DISTINCT p) AS players, min(d.day) AS first_day
FROM d CROSS JOIN LATERAL unnest(d.side1 || d.side2) p
WHERE d.day = (SELECT min(day) FROM d);

-- name: draw-level-save
-- Keeps the level a newcomer enters a draw at.
INSERT INTO rating_draws (draw, level) VALUES (:draw, :level) ON CONFLICT (draw) DO NOTHING;

-- name: day-save
-- Writes (or rewrites) players' standings at the end of a day, each holding until the player's next
-- day rated (none while it is the latest), ends their standing before it on that day, and notes
-- the day as the first rated of a player new to the discipline.
WITH saved AS (
    INSERT INTO rating_days (discipline, player_id, day, rating, variance, matches, until)
    SELECT :discipline, p, :day, r, v, n,
           (SELECT min(d.day) FROM rating_days d WHERE d.discipline = :discipline AND d.player_id = p AND d.day > :day)
    FROM unnest(:players::text[], :ratings::real[], :variances::real[], :matches::int[]) AS x(p, r, v, n)
    ON CONFLICT (discipline, player_id, day) DO UPDATE
    SET rating = excluded.rating, variance = excluded.variance, matches = excluded.matches
    RETURNING player_id
), firsts AS (
    INSERT INTO rating_firsts (discipline, player_id, day)
    SELECT :discipline, p, :day FROM unnest(:players::text[]) AS p
    ON CONFLICT (discipline, player_id) DO UPDATE SET day = least(rating_firsts.day, excluded.day)
)
UPDATE rating_days d SET until = :day
FROM saved
WHERE d.discipline = :discipline AND d.player_id = saved.player_id
  AND d.day = (SELECT max(e.day) FROM rating_days e
               WHERE e.discipline = :discipline AND e.player_id = saved.player_id AND e.day < :day);

-- name: match-save
-- Keeps a match's pre-match chance and side ratings.
INSERT INTO rating_matches (match_id, discipline, year, chance1, rating1, rating2, winner_chance, played)
VALUES (:match_id, :discipline, :year, :chance1, :rating1, :rating2, :winner_chance, :played)
ON CONFLICT (match_id) DO UPDATE SET chance1 = excluded.chance1, rating1 = excluded.rating1,
    rating2 = excluded.rating2, winner_chance = excluded.winner_chance;
