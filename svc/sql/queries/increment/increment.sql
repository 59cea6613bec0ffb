-- Statements of an increment of real results (svc.world.sources.increment), all inside its one transaction.

-- name: players
-- Every player held (id, name, country): a new spelling of one of them is that player.
SELECT id, name, country FROM players ORDER BY id;

-- name: country-add
-- A country not held yet; nothing when it is.
INSERT INTO countries (code, name) VALUES (:code, :name) ON CONFLICT (code) DO NOTHING;

-- name: players-add
-- Players not held yet (only what the files tell: name, country, gender), as parallel arrays.
INSERT INTO players (id, name, slug, country, gender, strength)
SELECT id, name, slug, country, gender, 0
FROM unnest(:ids::text[], :names::text[], :slugs::text[], :countries::text[], :genders::text[])
     AS p(id, name, slug, country, gender)
ON CONFLICT (id) DO NOTHING;

-- name: series-add
-- A series not held yet; nothing when it is.
INSERT INTO series (slug, name, level, para, team, first_year)
VALUES (:slug, :name, 'senior', false, false, :year) ON CONFLICT (slug) DO NOTHING;

-- name: city
-- The id of the host city (name and country), added with the next free id when not held.
WITH found AS (
    SELECT id FROM cities WHERE name = :name AND country IS NOT DISTINCT FROM :country::text
), added AS (
    INSERT INTO cities (id, name, country)
    SELECT (SELECT coalesce(max(id), 0) + 1 FROM cities), :name, :country::text
    WHERE NOT EXISTS (SELECT 1 FROM found)
    RETURNING id
)
SELECT id FROM found UNION ALL SELECT id FROM added LIMIT 1;

-- name: edition-add
-- An edition not held yet; returns its id when added, nothing when held.
INSERT INTO tournaments (id, series, name, year, level, para, team, tier, start_date, end_date, city_id, medals,
                         cancelled)
VALUES (:id, :series, :name, :year, :level, false, false, :tier, :first, :last, :city_id, false, :cancelled)
ON CONFLICT (id) DO NOTHING
RETURNING id;

-- name: edition-days
-- A held edition's dates widened to the days of its matches.
UPDATE tournaments SET start_date = least(start_date, :first), end_date = greatest(end_date, :last) WHERE id = :id;

-- name: matches-of-editions
-- The matches held in the editions an increment touches: where each stands in its draw, its sides,
-- score and winner.
SELECT tournament_id, discipline, round_name, id, position, side1, side2, g1, g2, winner
FROM matches WHERE tournament_id = ANY(:tournaments::text[]);

-- name: match-add
-- A finished match not held yet.
INSERT INTO matches (id, event_id, tournament_id, discipline, round_code, round_name, position, side1, side2,
                     g1, g2, winner, outcome, status, day)
VALUES (:id, :event_id, :tournament_id, :discipline, :round_code, :round_name, :position, :side1, :side2,
        :g1, :g2, :winner, :outcome, 'finished', :day);

-- name: rally-add
-- One rally of a match added (executed many times).
INSERT INTO rallies (match_id, game, rally, server, winner, score1, score2)
VALUES (:match_id, :game, :rally, :server, :winner, :score1, :score2);

-- name: correction-add
-- The score first published of a match being corrected, and when.
INSERT INTO corrections (match_id, corrected_at, old_g1, old_g2, old_winner)
VALUES (:match_id, :at, :old_g1, :old_g2, :old_winner) ON CONFLICT DO NOTHING;

-- name: match-correct
-- A held match's corrected score and winner.
UPDATE matches SET g1 = :g1, g2 = :g2, winner = :winner WHERE id = :id;

-- name: rankings-add
-- Ranking list rows not held yet, as parallel arrays; one row returned for each added.
INSERT INTO rankings (week, discipline, rank, name, player1, player2, points, full_list)
SELECT * FROM unnest(:weeks::date[], :disciplines::text[], :ranks::int[], :names::text[], :player1s::text[],
                     :player2s::text[], :points::int[], :fulls::bool[])
ON CONFLICT DO NOTHING
RETURNING 1;

-- name: pairs
-- Every doubles pair held (edition, discipline, day, the two player ids): an increment's side two
-- whose partner its own rows do not show takes the partner it has here.
SELECT tournament_id, discipline, day, side1 AS pair FROM matches
WHERE discipline IN ('MD', 'WD', 'XD') AND cardinality(side1) = 2
UNION ALL
SELECT tournament_id, discipline, day, side2 FROM matches
WHERE discipline IN ('MD', 'WD', 'XD') AND cardinality(side2) = 2;
