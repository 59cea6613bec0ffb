-- The own rating (svc.rating): rebuilt from every result at import, advanced by the live feed.

CREATE EXTENSION IF NOT EXISTS btree_gist;  -- one GiST index over (discipline, the days a standing holds)

-- One row per player, discipline and day played: the standing after that day's matches. The
-- rating as on a date is the latest row before it (a day's own results count from the next day).
CREATE TABLE IF NOT EXISTS rating_days (
    discipline  text NOT NULL,
    player_id   text NOT NULL,
    day         date NOT NULL,
    rating      real NOT NULL,
    variance    real NOT NULL,       -- deviation squared at the end of the day (grows with inactivity after)
    matches     integer NOT NULL,    -- rated matches so far in this discipline
    until       date,                -- the player's next day rated in this discipline; NULL while it is the latest
    PRIMARY KEY (discipline, player_id, day)
);
-- The standing in force on D is the row with day < D <= until: a table as on any day visits only
-- the rows in force then, not a player's whole history.
CREATE INDEX IF NOT EXISTS rating_days_in_force ON rating_days USING gist (discipline, daterange(day, until, '(]'));
CREATE INDEX IF NOT EXISTS rating_days_player ON rating_days (player_id, day);

-- Each rated match: side 1's chance before it, from the ratings at the start of its day, and the
-- winner's (for upsets by rating: lowest first).
CREATE TABLE IF NOT EXISTS rating_matches (
    match_id       text PRIMARY KEY,
    discipline     text NOT NULL,
    year           integer NOT NULL,    -- the tournament's year
    chance1        real NOT NULL,
    rating1        real NOT NULL,
    rating2        real NOT NULL,
    winner_chance  real NOT NULL,
    played         boolean NOT NULL     -- completed (not won by retirement): what counts as an upset
);
CREATE INDEX IF NOT EXISTS rating_matches_upsets ON rating_matches (winner_chance, match_id) WHERE played;
CREATE INDEX IF NOT EXISTS rating_matches_upsets_by ON rating_matches (discipline, year, winner_chance) WHERE played;

-- The level a newcomer enters a draw at (tournament, discipline, sport class).
CREATE TABLE IF NOT EXISTS rating_draws (
    draw   text PRIMARY KEY,
    level  real NOT NULL
);

-- Finished matches as the rating reads them: the day (the edition's start, else 1 July of its
-- year, when the match has none), the draw a newcomer enters, the points, and which side is at
-- home (all its players from the host country).
CREATE OR REPLACE VIEW rated_results AS
SELECT m.id, coalesce(m.day, t.start_date, make_date(t.year, 7, 1)) AS day,
       m.tournament_id || ':' || m.discipline || coalesce(':' || m.sport_class, '') AS draw,
       m.tournament_id, t.year, m.sport_class, m.discipline, m.side1, m.side2, m.winner, m.outcome, m.g1, m.g2,
       (SELECT coalesce(sum(x), 0) FROM unnest(m.g1) x)::int AS points1,
       (SELECT coalesce(sum(x), 0) FROM unnest(m.g2) x)::int AS points2,
       coalesce(ci.country IS NOT NULL
                AND (SELECT bool_and(p.country = ci.country) FROM players p WHERE p.id = ANY (m.side1)), false) AS home1,
       coalesce(ci.country IS NOT NULL
                AND (SELECT bool_and(p.country = ci.country) FROM players p WHERE p.id = ANY (m.side2)), false) AS home2
FROM matches m
JOIN tournaments t ON t.id = m.tournament_id
LEFT JOIN cities ci ON ci.id = t.city_id
WHERE m.status = 'finished' AND m.winner IS NOT NULL;
