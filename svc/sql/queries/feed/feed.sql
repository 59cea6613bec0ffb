-- name: lock-try
-- Takes the feed's session-level advisory lock if no other session holds it; returns got (boolean).
SELECT pg_try_advisory_lock(:lock::bigint) AS got;

-- name: lock-held
-- A round trip on the lock's session: fails when that session (and so the lock) is gone; returns one row.
SELECT 1 AS alive;

-- name: world
-- Which world is loaded (seed, scale, as_of, now), as one text; the feed starts afresh on another.
SELECT coalesce(string_agg(key || '=' || value, '|' ORDER BY key), '') FROM world_meta
WHERE key IN ('seed', 'scale', 'as_of', 'now');

-- name: state-get
-- The feed's saved position: the world it played and the moment it played it up to.
SELECT world, played_to FROM live_feed_state;

-- name: state-save
-- Saves the feed's position; returns nothing useful.
INSERT INTO live_feed_state (id, world, played_to) VALUES (true, :world, :played_to)
ON CONFLICT (id) DO UPDATE SET world = EXCLUDED.world, played_to = EXCLUDED.played_to;

-- name: forget-matches
-- Drops the per-match play state (another world was loaded); returns nothing useful.
DELETE FROM live_feed_matches;

-- name: forget-corrections
-- Drops pending corrections (another world was loaded); returns nothing useful.
DELETE FROM live_feed_corrections;

-- name: adopt
-- Takes on every match in play that the feed is not playing yet (the generator left it live):
-- its rallies so far are counted and its next rally is due at :t. Returns the ids adopted.
INSERT INTO live_feed_matches (match_id, rally_no, next_at)
SELECT m.id, (SELECT count(*) FROM rallies r WHERE r.match_id = m.id), :t
FROM matches m
WHERE m.status = 'live' AND NOT EXISTS (SELECT 1 FROM live_feed_matches f WHERE f.match_id = m.id)
ON CONFLICT (match_id) DO NOTHING
RETURNING match_id;

-- name: start-due
-- Puts the scheduled matches (both sides known) whose start time has come by :t in play, earliest
-- first and at most 500 a step, with no points yet, their first rally due at their start time;
-- returns the ids started.
WITH due AS (
    SELECT id, start_at FROM matches
    WHERE status = 'scheduled' AND start_at <= :t AND cardinality(side1) > 0 AND cardinality(side2) > 0
    ORDER BY start_at, id
    LIMIT 500
), started AS (
    UPDATE matches m SET status = 'live', g1 = '{}', g2 = '{}'
    FROM due WHERE m.id = due.id AND m.status = 'scheduled'
    RETURNING m.id, due.start_at
)
INSERT INTO live_feed_matches (match_id, rally_no, next_at)
SELECT id, 0, start_at FROM started
ON CONFLICT (match_id) DO NOTHING
RETURNING match_id;

-- name: due
-- Matches the feed plays whose next rally is due by :t.
SELECT match_id FROM live_feed_matches WHERE next_at <= :t ORDER BY next_at, match_id;

-- name: load
-- One match being played: its draw place, score, sides' strengths, feed state and last rally.
SELECT m.id, m.tournament_id, m.discipline, m.sport_class, m.round_code, m.position, m.tie_id, m.status,
       m.day, m.start_at, m.g1, m.g2, m.side1, m.side2, m.seed1, m.seed2,
       (SELECT avg(p.strength) FROM players p WHERE p.id = ANY(m.side1))::float8 AS s1,
       (SELECT avg(p.strength) FROM players p WHERE p.id = ANY(m.side2))::float8 AS s2,
       f.rally_no, f.next_at, lr.game AS last_game, lr.rally AS last_rally, lr.winner AS last_winner
FROM matches m
JOIN live_feed_matches f ON f.match_id = m.id
LEFT JOIN LATERAL (SELECT r.game, r.rally, r.winner FROM rallies r WHERE r.match_id = m.id
                   ORDER BY r.game DESC, r.rally DESC LIMIT 1) lr ON true
WHERE m.id = :match_id;

-- name: forget-match
-- Stops playing a match (finished, or gone with a world reload); returns nothing useful.
DELETE FROM live_feed_matches WHERE match_id = :match_id;

-- name: rallies-insert
-- Appends rallies of a match (parallel arrays); returns nothing useful.
INSERT INTO rallies (match_id, game, rally, server, winner, score1, score2)
SELECT :match_id, g, r, s, w, a, b
FROM unnest(:games::smallint[], :rallies::smallint[], :servers::smallint[], :winners::smallint[],
            :score1::smallint[], :score2::smallint[]) AS t(g, r, s, w, a, b)
ON CONFLICT DO NOTHING;

-- name: score
-- Writes the score so far and the feed's next rally time; returns nothing useful.
WITH f AS (UPDATE live_feed_matches SET rally_no = :rally_no, next_at = :next_at WHERE match_id = :match_id)
UPDATE matches SET g1 = :g1, g2 = :g2 WHERE id = :match_id;

-- name: finish
-- Writes a finished match (score as published, winner, end time); returns nothing useful.
UPDATE matches SET g1 = :g1, g2 = :g2, winner = :winner, outcome = 'played', status = 'finished', end_at = :end_at
WHERE id = :match_id;

-- name: margins
-- Each bookmaker's margin on the match-winner market of a match, and its closing chance of side 1
-- with the margin taken out (where in-play prices start from).
SELECT bookmaker, (1 / open1 + 1 / open2 - 1)::float8 AS margin,
       ((1 / close1) / (1 / close1 + 1 / close2))::float8 AS chance_close
FROM odds WHERE match_id = :match_id AND market = 'winner' ORDER BY bookmaker;

-- name: prices
-- Writes in-play prices of a match, bookmaker by bookmaker (parallel arrays); returns nothing useful.
INSERT INTO live_prices (match_id, bookmaker, price1, price2, updated_at)
SELECT :match_id, b, p1, p2, :at
FROM unnest(:books::text[], :price1::numeric[], :price2::numeric[]) AS t(b, p1, p2)
ON CONFLICT (match_id, bookmaker) DO UPDATE SET price1 = EXCLUDED.price1, price2 = EXCLUDED.price2,
                                                updated_at = EXCLUDED.updated_at;

-- name: prices-drop
-- Drops a finished match's in-play prices; returns nothing useful.
DELETE FROM live_prices WHERE match_id = :match_id;

-- name: round
-- The two matches at :pos_a and :pos_b of a round of a draw (the pair feeding one match of the next round).
SELECT id, position, status, winner, side1, side2, seed1, seed2, end_at
FROM matches
WHERE tournament_id = :tournament_id AND discipline = :discipline
  AND sport_class IS NOT DISTINCT FROM :sport_class::text AND round_code = :round_code AND tie_id IS NULL
  AND position IN (:pos_a, :pos_b)
ORDER BY position;

-- name: match-insert
-- Schedules a match of the next round (nothing when it is already there); returns its id.
INSERT INTO matches (id, event_id, tournament_id, discipline, sport_class, round_code, round_name, position,
                     side1, side2, seed1, seed2, status, day, start_at)
VALUES (:id, :event_id, :tournament_id, :discipline, :sport_class, :round_code, :round_name, :position,
        :side1, :side2, :seed1, :seed2, 'scheduled', :day, :start_at)
ON CONFLICT DO NOTHING
RETURNING id;

-- name: odds-insert
-- Opening prices of a newly scheduled match, bookmaker by bookmaker (closing = opening until it starts).
INSERT INTO odds (match_id, bookmaker, market, line, open1, open2, close1, close2)
SELECT :match_id, b, 'winner', NULL, p1, p2, p1, p2
FROM unnest(:books::text[], :price1::numeric[], :price2::numeric[]) AS t(b, p1, p2)
ON CONFLICT DO NOTHING;

-- name: correction-plan
-- Notes that a result was published with a slip, to be corrected at :due_at; returns nothing useful.
INSERT INTO live_feed_corrections (match_id, due_at, true_g1, true_g2) VALUES (:match_id, :due_at, :true_g1, :true_g2)
ON CONFLICT (match_id) DO NOTHING;

-- name: corrections-due
-- Slipped results whose correction is due by :t, with the true score.
SELECT c.match_id, c.true_g1, c.true_g2, m.g1, m.g2, m.winner
FROM live_feed_corrections c JOIN matches m ON m.id = c.match_id
WHERE c.due_at <= :t AND m.status = 'finished'
ORDER BY c.due_at, c.match_id;

-- name: correct
-- Corrects a finished result to the true score, keeping the published one in corrections; returns the match id.
WITH old AS (
    INSERT INTO corrections (match_id, corrected_at, old_g1, old_g2, old_winner)
    SELECT id, :at, g1, g2, winner FROM matches WHERE id = :match_id
    ON CONFLICT DO NOTHING
), done AS (
    DELETE FROM live_feed_corrections WHERE match_id = :match_id
)
UPDATE matches SET g1 = :g1, g2 = :g2 WHERE id = :match_id
RETURNING id;

-- name: strengths
-- The average hidden strength of the players of each side (drives the engine; never served).
SELECT (SELECT avg(strength) FROM players WHERE id = ANY(:side1::text[]))::float8 AS s1,
       (SELECT avg(strength) FROM players WHERE id = ANY(:side2::text[]))::float8 AS s2;

-- name: meta
-- The world's provenance (seed, scale, as_of, now) as key/value rows: the feed's calendar and start.
SELECT key, value FROM world_meta WHERE key IN ('seed', 'scale', 'as_of', 'now') ORDER BY key;

-- name: forget-editions
-- Drops the feed's record of editions (another world was loaded); returns nothing useful.
DELETE FROM live_feed_editions;

-- name: editions-due
-- Editions starting between :from_day and :to_day with no match yet that the feed has not
-- handled: the ones it may have to draw.
SELECT t.id FROM tournaments t
WHERE t.start_date BETWEEN :from_day AND :to_day
  AND NOT EXISTS (SELECT 1 FROM live_feed_editions e WHERE e.tournament_id = t.id)
  AND NOT EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.id)
ORDER BY t.start_date, t.id;

-- name: edition-drawn
-- Records that the feed drew an edition (or had nothing to draw for it); returns its id.
INSERT INTO live_feed_editions (tournament_id, drawn_at, matches) VALUES (:tournament_id, :at, :matches)
ON CONFLICT (tournament_id) DO NOTHING
RETURNING tournament_id;

-- name: players-insert
-- Adds the players of a new draw who have not played before (parallel arrays); returns nothing useful.
INSERT INTO players (id, name, slug, country, gender, born, hand, height_cm, coach, sport_class, strength)
SELECT * FROM unnest(:ids::text[], :names::text[], :slugs::text[], :countries::text[], :genders::text[],
                     :borns::date[], :hands::text[], :heights::integer[], :coaches::text[], :classes::text[],
                     :strengths::real[])
ON CONFLICT (id) DO NOTHING;

-- name: draw-insert
-- Schedules the first round of a new draw (parallel arrays; a side as its player ids joined by commas);
-- returns the ids inserted.
INSERT INTO matches (id, event_id, tournament_id, discipline, sport_class, round_code, round_name, position,
                     side1, side2, seed1, seed2, status, day, start_at)
SELECT id, event_id, :tournament_id, d, c, rc, rn, pos,
       string_to_array(s1, ','), string_to_array(s2, ','),
       sd1, sd2, 'scheduled', dy, st
FROM unnest(:ids::text[], :event_ids::text[], :disciplines::text[], :classes::text[], :round_codes::text[],
            :round_names::text[], :positions::integer[], :sides1::text[], :sides2::text[], :seeds1::smallint[],
            :seeds2::smallint[], :days::date[], :starts::timestamptz[])
     AS t(id, event_id, d, c, rc, rn, pos, s1, s2, sd1, sd2, dy, st)
ON CONFLICT DO NOTHING
RETURNING id;

-- name: odds-rows-insert
-- Opening prices of newly drawn matches, every bookmaker and market (closing = opening until
-- they start; parallel arrays); returns nothing useful.
INSERT INTO odds (match_id, bookmaker, market, line, open1, open2, close1, close2)
SELECT * FROM unnest(:match_ids::text[], :books::text[], :markets::text[], :lines::numeric[], :open1::numeric[],
                     :open2::numeric[], :close1::numeric[], :close2::numeric[])
ON CONFLICT DO NOTHING;

-- name: event-sizes
-- The size of each knockout draw of an edition (twice its biggest round), for its timetable.
SELECT discipline, sport_class, 2 * max(n)::int AS size
FROM (SELECT discipline, sport_class, round_code, count(*) AS n FROM matches
      WHERE tournament_id = :tournament_id AND tie_id IS NULL
        AND round_code IN ('R128', 'R64', 'R32', 'R16', 'QF', 'SF', 'F')
      GROUP BY discipline, sport_class, round_code) r
GROUP BY discipline, sport_class
ORDER BY discipline, sport_class;

-- name: edition-finished
-- Records that an edition's last match has ended, once every match of it is finished; returns
-- its id then, nothing before.
INSERT INTO live_feed_editions (tournament_id, finished_at)
SELECT :tournament_id, :at
WHERE EXISTS (SELECT 1 FROM matches WHERE tournament_id = :tournament_id)
  AND NOT EXISTS (SELECT 1 FROM matches WHERE tournament_id = :tournament_id AND status <> 'finished')
ON CONFLICT (tournament_id) DO UPDATE SET finished_at = EXCLUDED.finished_at
WHERE live_feed_editions.finished_at IS NULL
RETURNING tournament_id;
