-- The badminton world. Replaced as a whole by `svc world` / `svc import`
-- (every table below is truncated and reloaded with COPY from a bundle).
-- The bundle format (one CSV per table, same columns, same order) is in docs/bundle.md.

CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent() is only STABLE; an IMMUTABLE wrapper lets indexes use it.
CREATE OR REPLACE FUNCTION fold(t text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
    AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, t)) $$;

CREATE TABLE IF NOT EXISTS world_meta (
    key    text PRIMARY KEY,   -- seed, scale, as_of, generator, format
    value  text NOT NULL
);

CREATE TABLE IF NOT EXISTS countries (
    code  text PRIMARY KEY,    -- IOC code, three letters
    name  text NOT NULL
);

CREATE TABLE IF NOT EXISTS cities (
    id           integer PRIMARY KEY,
    name         text NOT NULL,
    country      text REFERENCES countries(code),
    elevation_m  integer               -- metres above sea level, NULL when unknown
);

CREATE TABLE IF NOT EXISTS venues (
    id           text PRIMARY KEY,     -- vn_...
    name         text NOT NULL,
    city_id      integer NOT NULL REFERENCES cities(id),
    elevation_m  integer               -- the venue's own, NULL when unknown (then the city's applies)
);

CREATE TABLE IF NOT EXISTS series (
    slug        text PRIMARY KEY,      -- e.g. all-england
    name        text NOT NULL,
    level       text NOT NULL CHECK (level IN ('senior', 'junior')),
    para        boolean NOT NULL DEFAULT false,
    team        boolean NOT NULL DEFAULT false,   -- team event played in ties
    first_year  integer NOT NULL
);

CREATE TABLE IF NOT EXISTS tournaments (
    id           text PRIMARY KEY,     -- tr_...
    series       text NOT NULL REFERENCES series(slug),
    name         text NOT NULL,        -- e.g. "All England Open 2019"
    year         integer NOT NULL,
    level        text NOT NULL CHECK (level IN ('senior', 'junior')),
    para         boolean NOT NULL DEFAULT false,
    team         boolean NOT NULL DEFAULT false,
    tier         text,                 -- e.g. "Super 1000", "Superseries Premier"; NULL before tiers
    start_date   date,                 -- NULL when no dates are held
    end_date     date,
    city_id      integer REFERENCES cities(id),
    venue_id     text REFERENCES venues(id),
    prize_money  integer,              -- USD as recorded; NULL when none
    medals       boolean NOT NULL DEFAULT false,  -- has a medal table (podium)
    draw_size    integer               -- singles main draw size; NULL for team events
);
CREATE INDEX IF NOT EXISTS tournaments_series_year ON tournaments(series, year);
CREATE INDEX IF NOT EXISTS tournaments_year ON tournaments(year);
CREATE INDEX IF NOT EXISTS tournaments_start ON tournaments(start_date);

CREATE TABLE IF NOT EXISTS players (
    id           text PRIMARY KEY,     -- pl_...
    name         text NOT NULL,        -- as written in lists, e.g. "LEE Zii Jia"
    slug         text NOT NULL,
    country      text REFERENCES countries(code),
    gender       text NOT NULL CHECK (gender IN ('M', 'W')),
    born         date,
    hand         text CHECK (hand IN ('left', 'right')),
    height_cm    integer,
    coach        text,                 -- comma separated
    sport_class  text,                 -- para players only
    strength     real NOT NULL         -- hidden; drives results; never served
);

-- A tie of a team event (Thomas, Uber, Sudirman Cup ...).
CREATE TABLE IF NOT EXISTS ties (
    id             text PRIMARY KEY,   -- ti_...
    tournament_id  text NOT NULL REFERENCES tournaments(id),
    stage          text NOT NULL,      -- "Group A", "Quarter-finals", "Final" ...
    round_code     text CHECK (round_code IN ('QF', 'SF', 'F')),  -- NULL in groups
    number         integer NOT NULL,   -- place on its page
    team1          text NOT NULL REFERENCES countries(code),
    team2          text NOT NULL REFERENCES countries(code),
    score1         integer,
    score2         integer,
    winner         smallint CHECK (winner IN (1, 2)),
    day            date,
    venue          text
);
CREATE INDEX IF NOT EXISTS ties_tournament ON ties(tournament_id);

-- One row per draw match; the same match in the results feed has event_id.
CREATE TABLE IF NOT EXISTS matches (
    id             text PRIMARY KEY,   -- mt_...
    event_id       text NOT NULL UNIQUE,  -- ev_...
    tournament_id  text NOT NULL REFERENCES tournaments(id),
    discipline     text NOT NULL CHECK (discipline IN ('MS', 'WS', 'MD', 'WD', 'XD')),
    sport_class    text,               -- para only: WH1 or a pair WH1-WH2
    round_code     text CHECK (round_code IN ('R128', 'R64', 'R32', 'R16', 'QF', 'SF', '3P', 'F')),
    round_name     text NOT NULL,      -- as the draw names it ("Final", "Group B", "Round of 32")
    position       integer NOT NULL,   -- 1-based place within its round (draw order)
    tie_id         text REFERENCES ties(id),
    tie_order      integer,            -- order within its tie
    side1          text[] NOT NULL,    -- player ids (one for singles, two for doubles)
    side2          text[] NOT NULL,
    seed1          smallint,
    seed2          smallint,
    g1             smallint[] NOT NULL DEFAULT '{}',  -- points of side 1, game by game
    g2             smallint[] NOT NULL DEFAULT '{}',
    winner         smallint CHECK (winner IN (1, 2)),
    outcome        text CHECK (outcome IN ('played', 'retired', 'walkover')),  -- NULL until finished
    status         text NOT NULL CHECK (status IN ('scheduled', 'live', 'finished')),
    day            date,               -- day played (or scheduled); NULL when unknown
    start_at       timestamptz,        -- scheduled or actual start, where the era has it
    end_at         timestamptz         -- final point; NULL until finished and for older matches
);
CREATE INDEX IF NOT EXISTS matches_tournament ON matches(tournament_id, discipline, round_code);
CREATE INDEX IF NOT EXISTS matches_day ON matches(day) WHERE status = 'finished';
CREATE INDEX IF NOT EXISTS matches_open ON matches(start_at) WHERE status <> 'finished';
CREATE INDEX IF NOT EXISTS matches_side1 ON matches USING gin(side1);
CREATE INDEX IF NOT EXISTS matches_side2 ON matches USING gin(side2);

-- Bookmaker prices, one row per match, bookmaker and market.
-- market: winner | handicap_games | handicap_points | total_games | total_points
-- For handicaps `line` applies to side 1; for totals price1 = over, price2 = under.
CREATE TABLE IF NOT EXISTS odds (
    match_id   text NOT NULL REFERENCES matches(id),
    bookmaker  text NOT NULL,
    market     text NOT NULL,
    line       numeric(5,1),
    open1      numeric(6,2) NOT NULL,
    open2      numeric(6,2) NOT NULL,
    close1     numeric(6,2) NOT NULL,
    close2     numeric(6,2) NOT NULL,
    PRIMARY KEY (match_id, bookmaker, market)
);

-- Rally by rally, for the newest matches only.
CREATE TABLE IF NOT EXISTS rallies (
    match_id  text NOT NULL REFERENCES matches(id),
    game      smallint NOT NULL,
    rally     smallint NOT NULL,
    server    smallint NOT NULL CHECK (server IN (1, 2)),
    winner    smallint NOT NULL CHECK (winner IN (1, 2)),
    score1    smallint NOT NULL,       -- score after the rally
    score2    smallint NOT NULL,
    PRIMARY KEY (match_id, game, rally)
);

-- A finished result changed afterwards; the match row holds the corrected score.
CREATE TABLE IF NOT EXISTS corrections (
    match_id      text NOT NULL REFERENCES matches(id),
    corrected_at  timestamptz NOT NULL,
    old_g1        smallint[] NOT NULL,
    old_g2        smallint[] NOT NULL,
    old_winner    smallint,
    PRIMARY KEY (match_id, corrected_at)
);

-- The published world ranking: weekly lists per discipline.
-- full = every ranked player (from September 2026); otherwise the week's top list.
CREATE TABLE IF NOT EXISTS rankings (
    week        date NOT NULL,         -- the Tuesday the list was published
    discipline  text NOT NULL,
    rank        integer NOT NULL,
    name        text NOT NULL,         -- as published: a player or "A / B"
    player1     text,                  -- NULL when not yet matched to a player
    player2     text,                  -- doubles partner
    points      integer NOT NULL,
    full_list   boolean NOT NULL,
    PRIMARY KEY (discipline, week, rank, name)
);
