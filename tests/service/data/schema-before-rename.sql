-- The schema of a database made before migrations were renamed for what they hold
-- (commit d3677a3: 110_archive_a_indexes.sql, 130_archive_c_rounds.sql), as pg_dump 18 wrote it
-- with --inserts, less its psql-only \restrict lines and the PostgreSQL 17+ transaction_timeout.
--
-- PostgreSQL database dump
--


-- Dumped from database version 18.6
-- Dumped by pg_dump version 18.6

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

--
-- Name: pg_trgm; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;


--
-- Name: unaccent; Type: EXTENSION; Schema: -; Owner: -
--

CREATE EXTENSION IF NOT EXISTS unaccent WITH SCHEMA public;


--
-- Name: fold(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.fold(t text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT lower(public.unaccent('public.unaccent'::regdictionary, t)) $$;


--
-- Name: round_rank(text); Type: FUNCTION; Schema: public; Owner: -
--

CREATE FUNCTION public.round_rank(code text) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT coalesce(array_position(ARRAY['R128', 'R64', 'R32', 'R16', 'QF', 'SF', '3P', 'F'], code), 0) $$;


SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.accounts (
    name text NOT NULL,
    plan text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT accounts_plan_check CHECK ((plan = ANY (ARRAY['free'::text, 'archive'::text, 'odds'::text, 'live'::text])))
);


--
-- Name: api_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.api_keys (
    id bigint NOT NULL,
    account text NOT NULL,
    key_hash bytea NOT NULL,
    prefix text NOT NULL,
    state text DEFAULT 'current'::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    replaced_at timestamp with time zone,
    replaced_by bigint,
    CONSTRAINT api_keys_state_check CHECK ((state = ANY (ARRAY['current'::text, 'replaced'::text])))
);


--
-- Name: api_keys_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.api_keys_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: api_keys_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.api_keys_id_seq OWNED BY public.api_keys.id;


--
-- Name: cities; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.cities (
    id integer NOT NULL,
    name text NOT NULL,
    country text,
    elevation_m integer
);


--
-- Name: corrections; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.corrections (
    match_id text NOT NULL,
    corrected_at timestamp with time zone NOT NULL,
    old_g1 smallint[] NOT NULL,
    old_g2 smallint[] NOT NULL,
    old_winner smallint
);


--
-- Name: countries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.countries (
    code text NOT NULL,
    name text NOT NULL
);


--
-- Name: matches; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.matches (
    id text NOT NULL,
    event_id text NOT NULL,
    tournament_id text NOT NULL,
    discipline text NOT NULL,
    sport_class text,
    round_code text,
    round_name text NOT NULL,
    "position" integer NOT NULL,
    tie_id text,
    tie_order integer,
    side1 text[] NOT NULL,
    side2 text[] NOT NULL,
    seed1 smallint,
    seed2 smallint,
    g1 smallint[] DEFAULT '{}'::smallint[] NOT NULL,
    g2 smallint[] DEFAULT '{}'::smallint[] NOT NULL,
    winner smallint,
    outcome text,
    status text NOT NULL,
    day date,
    start_at timestamp with time zone,
    end_at timestamp with time zone,
    CONSTRAINT matches_discipline_check CHECK ((discipline = ANY (ARRAY['MS'::text, 'WS'::text, 'MD'::text, 'WD'::text, 'XD'::text]))),
    CONSTRAINT matches_outcome_check CHECK ((outcome = ANY (ARRAY['played'::text, 'retired'::text, 'walkover'::text]))),
    CONSTRAINT matches_round_code_check CHECK ((round_code = ANY (ARRAY['R128'::text, 'R64'::text, 'R32'::text, 'R16'::text, 'QF'::text, 'SF'::text, '3P'::text, 'F'::text]))),
    CONSTRAINT matches_status_check CHECK ((status = ANY (ARRAY['scheduled'::text, 'live'::text, 'finished'::text]))),
    CONSTRAINT matches_winner_check CHECK ((winner = ANY (ARRAY[1, 2])))
);


--
-- Name: odds; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.odds (
    match_id text NOT NULL,
    bookmaker text NOT NULL,
    market text NOT NULL,
    line numeric(5,1),
    open1 numeric(6,2) NOT NULL,
    open2 numeric(6,2) NOT NULL,
    close1 numeric(6,2) NOT NULL,
    close2 numeric(6,2) NOT NULL
);


--
-- Name: players; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.players (
    id text NOT NULL,
    name text NOT NULL,
    slug text NOT NULL,
    country text,
    gender text NOT NULL,
    born date,
    hand text,
    height_cm integer,
    coach text,
    sport_class text,
    strength real NOT NULL,
    CONSTRAINT players_gender_check CHECK ((gender = ANY (ARRAY['M'::text, 'W'::text]))),
    CONSTRAINT players_hand_check CHECK ((hand = ANY (ARRAY['left'::text, 'right'::text])))
);


--
-- Name: tournaments; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.tournaments (
    id text NOT NULL,
    series text NOT NULL,
    name text NOT NULL,
    year integer NOT NULL,
    level text NOT NULL,
    para boolean DEFAULT false NOT NULL,
    team boolean DEFAULT false NOT NULL,
    tier text,
    start_date date,
    end_date date,
    city_id integer,
    venue_id text,
    prize_money integer,
    medals boolean DEFAULT false NOT NULL,
    draw_size integer,
    CONSTRAINT tournaments_level_check CHECK ((level = ANY (ARRAY['senior'::text, 'junior'::text])))
);


--
-- Name: event_rows; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.event_rows AS
 SELECT m.id AS match_id,
    m.event_id,
    m.tournament_id,
    t.name AS tournament_name,
    t.year,
    t.team AS team_event,
    m.discipline,
    m.sport_class,
    m.round_code,
    m.status,
    m.day,
    m.start_at,
    m.end_at,
    m.seed1,
    m.seed2,
    m.g1,
    m.g2,
    m.winner,
    m.outcome,
    ( SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'country', p.country) ORDER BY s.ord) AS json_agg
           FROM (unnest(m.side1) WITH ORDINALITY s(pid, ord)
             JOIN public.players p ON ((p.id = s.pid)))) AS players1,
    ( SELECT json_agg(json_build_object('id', p.id, 'name', p.name, 'country', p.country) ORDER BY s.ord) AS json_agg
           FROM (unnest(m.side2) WITH ORDINALITY s(pid, ord)
             JOIN public.players p ON ((p.id = s.pid)))) AS players2,
    ( SELECT json_build_object('bookmakers', count(*), 'open1', (avg(o.open1))::double precision, 'open2', (avg(o.open2))::double precision, 'close1', (avg(o.close1))::double precision, 'close2', (avg(o.close2))::double precision, 'best1', (max(o.close1))::double precision, 'best2', (max(o.close2))::double precision, 'margin', (avg(((((1)::numeric / o.close1) + ((1)::numeric / o.close2)) - (1)::numeric)))::double precision) AS json_build_object
           FROM public.odds o
          WHERE ((o.match_id = m.id) AND (o.market = 'winner'::text))) AS odds,
    m.round_name,
    m."position",
    m.tie_id,
    m.tie_order,
    m.side1,
    m.side2,
    t.series
   FROM (public.matches m
     JOIN public.tournaments t ON ((t.id = m.tournament_id)));


--
-- Name: key_usage; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.key_usage (
    key_id bigint NOT NULL,
    minute_start timestamp with time zone NOT NULL,
    minute_calls integer DEFAULT 0 NOT NULL,
    day date NOT NULL,
    day_calls integer DEFAULT 0 NOT NULL,
    month date NOT NULL,
    month_calls integer DEFAULT 0 NOT NULL
);


--
-- Name: live_changes; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.live_changes (
    seq bigint NOT NULL,
    match_id text NOT NULL,
    discipline text NOT NULL,
    kind text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    payload jsonb NOT NULL,
    CONSTRAINT live_changes_kind_check CHECK ((kind = ANY (ARRAY['started'::text, 'score'::text, 'finished'::text, 'corrected'::text])))
);


--
-- Name: live_changes_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.live_changes_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: live_changes_seq_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.live_changes_seq_seq OWNED BY public.live_changes.seq;


--
-- Name: live_feed_corrections; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.live_feed_corrections (
    match_id text NOT NULL,
    due_at timestamp with time zone NOT NULL,
    true_g1 smallint[] NOT NULL,
    true_g2 smallint[] NOT NULL
);


--
-- Name: live_feed_editions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.live_feed_editions (
    tournament_id text NOT NULL,
    drawn_at timestamp with time zone,
    matches integer DEFAULT 0 NOT NULL,
    finished_at timestamp with time zone
);


--
-- Name: live_feed_matches; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.live_feed_matches (
    match_id text NOT NULL,
    rally_no integer NOT NULL,
    next_at timestamp with time zone NOT NULL
);


--
-- Name: live_feed_state; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.live_feed_state (
    id boolean DEFAULT true NOT NULL,
    world text NOT NULL,
    played_to timestamp with time zone NOT NULL,
    CONSTRAINT live_feed_state_id_check CHECK (id)
);


--
-- Name: live_prices; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.live_prices (
    match_id text NOT NULL,
    bookmaker text NOT NULL,
    price1 numeric(6,2) NOT NULL,
    price2 numeric(6,2) NOT NULL,
    updated_at timestamp with time zone NOT NULL
);


--
-- Name: rallies; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rallies (
    match_id text NOT NULL,
    game smallint NOT NULL,
    rally smallint NOT NULL,
    server smallint NOT NULL,
    winner smallint NOT NULL,
    score1 smallint NOT NULL,
    score2 smallint NOT NULL,
    CONSTRAINT rallies_server_check CHECK ((server = ANY (ARRAY[1, 2]))),
    CONSTRAINT rallies_winner_check CHECK ((winner = ANY (ARRAY[1, 2])))
);


--
-- Name: live_rows; Type: VIEW; Schema: public; Owner: -
--

CREATE VIEW public.live_rows AS
 SELECT match_id,
    event_id,
    tournament_id,
    tournament_name,
    year,
    team_event,
    discipline,
    sport_class,
    round_code,
    status,
    day,
    start_at,
    end_at,
    seed1,
    seed2,
    g1,
    g2,
    winner,
    outcome,
    players1,
    players2,
    odds,
    round_name,
    "position",
    tie_id,
    tie_order,
    side1,
    side2,
    series,
    ( SELECT r.winner
           FROM public.rallies r
          WHERE (r.match_id = e.match_id)
          ORDER BY r.game DESC, r.rally DESC
         LIMIT 1) AS serving,
    ( SELECT json_build_object('bookmakers', count(*), 'price1', (avg(lp.price1))::double precision, 'price2', (avg(lp.price2))::double precision) AS json_build_object
           FROM public.live_prices lp
          WHERE (lp.match_id = e.match_id)) AS in_play
   FROM public.event_rows e;


--
-- Name: live_stream_slots; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.live_stream_slots (
    key_id bigint NOT NULL,
    slot smallint NOT NULL,
    holder text NOT NULL,
    expires_at timestamp with time zone NOT NULL
);


--
-- Name: match_events; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.match_events (
    id text NOT NULL,
    seq bigint NOT NULL,
    type text NOT NULL,
    match_id text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    payload jsonb NOT NULL,
    CONSTRAINT match_events_type_check CHECK ((type = ANY (ARRAY['match.started'::text, 'match.finished'::text, 'result.corrected'::text])))
);


--
-- Name: match_events_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.match_events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: match_events_seq_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.match_events_seq_seq OWNED BY public.match_events.seq;


--
-- Name: plans; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.plans (
    name text NOT NULL,
    rank integer NOT NULL,
    per_minute integer NOT NULL,
    per_day integer NOT NULL
);


--
-- Name: rankings; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.rankings (
    week date NOT NULL,
    discipline text NOT NULL,
    rank integer NOT NULL,
    name text NOT NULL,
    player1 text,
    player2 text,
    points integer NOT NULL,
    full_list boolean NOT NULL
);


--
-- Name: schema_migrations; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.schema_migrations (
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);


--
-- Name: series; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.series (
    slug text NOT NULL,
    name text NOT NULL,
    level text NOT NULL,
    para boolean DEFAULT false NOT NULL,
    team boolean DEFAULT false NOT NULL,
    first_year integer NOT NULL,
    CONSTRAINT series_level_check CHECK ((level = ANY (ARRAY['senior'::text, 'junior'::text])))
);


--
-- Name: ties; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.ties (
    id text NOT NULL,
    tournament_id text NOT NULL,
    stage text NOT NULL,
    round_code text,
    number integer NOT NULL,
    team1 text NOT NULL,
    team2 text NOT NULL,
    score1 integer,
    score2 integer,
    winner smallint,
    day date,
    venue text,
    CONSTRAINT ties_round_code_check CHECK ((round_code = ANY (ARRAY['QF'::text, 'SF'::text, 'F'::text]))),
    CONSTRAINT ties_winner_check CHECK ((winner = ANY (ARRAY[1, 2])))
);


--
-- Name: venues; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.venues (
    id text NOT NULL,
    name text NOT NULL,
    city_id integer NOT NULL,
    elevation_m integer
);


--
-- Name: webhook_attempts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_attempts (
    id bigint NOT NULL,
    delivery_id bigint NOT NULL,
    try integer NOT NULL,
    at timestamp with time zone NOT NULL,
    status_code integer,
    error text,
    latency_ms real NOT NULL,
    outcome text NOT NULL,
    CONSTRAINT webhook_attempts_outcome_check CHECK ((outcome = ANY (ARRAY['succeeded'::text, 'retry'::text, 'ended'::text])))
);


--
-- Name: webhook_attempts_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.webhook_attempts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: webhook_attempts_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.webhook_attempts_id_seq OWNED BY public.webhook_attempts.id;


--
-- Name: webhook_deliveries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_deliveries (
    id bigint NOT NULL,
    event_id text NOT NULL,
    endpoint_id text NOT NULL,
    state text DEFAULT 'pending'::text NOT NULL,
    tries integer DEFAULT 0 NOT NULL,
    next_try_at timestamp with time zone NOT NULL,
    claimed_by text,
    claim_expires_at timestamp with time zone,
    created_at timestamp with time zone NOT NULL,
    finished_at timestamp with time zone,
    CONSTRAINT webhook_deliveries_state_check CHECK ((state = ANY (ARRAY['pending'::text, 'succeeded'::text, 'ended'::text])))
);


--
-- Name: webhook_deliveries_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.webhook_deliveries_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: webhook_deliveries_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.webhook_deliveries_id_seq OWNED BY public.webhook_deliveries.id;


--
-- Name: webhook_endpoints; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_endpoints (
    id text NOT NULL,
    account text NOT NULL,
    url text NOT NULL,
    events text[] NOT NULL,
    secret text NOT NULL,
    notify_email text,
    state text DEFAULT 'active'::text NOT NULL,
    failures_in_row integer DEFAULT 0 NOT NULL,
    from_seq bigint NOT NULL,
    created_at timestamp with time zone NOT NULL,
    last_delivery_at timestamp with time zone,
    last_status integer,
    paused_at timestamp with time zone,
    CONSTRAINT webhook_endpoints_events_check CHECK (((cardinality(events) > 0) AND (events <@ ARRAY['match.started'::text, 'match.finished'::text, 'result.corrected'::text]))),
    CONSTRAINT webhook_endpoints_state_check CHECK ((state = ANY (ARRAY['active'::text, 'paused'::text])))
);


--
-- Name: webhook_fanout; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_fanout (
    id integer NOT NULL,
    last_seq bigint NOT NULL,
    gap_since timestamp with time zone,
    CONSTRAINT webhook_fanout_id_check CHECK ((id = 1))
);


--
-- Name: webhook_notices; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.webhook_notices (
    id bigint NOT NULL,
    endpoint_id text NOT NULL,
    account text NOT NULL,
    email text,
    subject text NOT NULL,
    body text NOT NULL,
    created_at timestamp with time zone NOT NULL,
    sent_at timestamp with time zone,
    error text
);


--
-- Name: webhook_notices_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.webhook_notices_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: webhook_notices_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.webhook_notices_id_seq OWNED BY public.webhook_notices.id;


--
-- Name: world_meta; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.world_meta (
    key text NOT NULL,
    value text NOT NULL
);


--
-- Name: api_keys id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys ALTER COLUMN id SET DEFAULT nextval('public.api_keys_id_seq'::regclass);


--
-- Name: live_changes seq; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_changes ALTER COLUMN seq SET DEFAULT nextval('public.live_changes_seq_seq'::regclass);


--
-- Name: match_events seq; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.match_events ALTER COLUMN seq SET DEFAULT nextval('public.match_events_seq_seq'::regclass);


--
-- Name: webhook_attempts id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_attempts ALTER COLUMN id SET DEFAULT nextval('public.webhook_attempts_id_seq'::regclass);


--
-- Name: webhook_deliveries id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries ALTER COLUMN id SET DEFAULT nextval('public.webhook_deliveries_id_seq'::regclass);


--
-- Name: webhook_notices id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_notices ALTER COLUMN id SET DEFAULT nextval('public.webhook_notices_id_seq'::regclass);


--
-- Data for Name: accounts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: api_keys; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: cities; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: corrections; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: countries; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: key_usage; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: live_changes; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: live_feed_corrections; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: live_feed_editions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: live_feed_matches; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: live_feed_state; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: live_prices; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: live_stream_slots; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: match_events; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: matches; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: odds; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: plans; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.plans VALUES ('free', 0, 10, 50);
INSERT INTO public.plans VALUES ('archive', 1, 60, 5000);
INSERT INTO public.plans VALUES ('odds', 2, 120, 20000);
INSERT INTO public.plans VALUES ('live', 3, 300, 100000);


--
-- Data for Name: players; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: rallies; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: rankings; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: schema_migrations; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.schema_migrations VALUES ('001_platform.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('002_world.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('003_plans.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('004_event_rows.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('005_match_events.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('110_archive_a_indexes.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('130_archive_c_rounds.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('200_live.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('201_live_rows.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('202_live_editions.sql', '2026-11-23 07:59:29.988283+00');
INSERT INTO public.schema_migrations VALUES ('300_webhooks.sql', '2026-11-23 07:59:29.988283+00');


--
-- Data for Name: series; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: ties; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: tournaments; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: venues; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: webhook_attempts; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: webhook_deliveries; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: webhook_endpoints; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: webhook_fanout; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.webhook_fanout VALUES (1, 0, NULL);


--
-- Data for Name: webhook_notices; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: world_meta; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Name: api_keys_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.api_keys_id_seq', 1, false);


--
-- Name: live_changes_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.live_changes_seq_seq', 1, false);


--
-- Name: match_events_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.match_events_seq_seq', 1, false);


--
-- Name: webhook_attempts_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.webhook_attempts_id_seq', 1, false);


--
-- Name: webhook_deliveries_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.webhook_deliveries_id_seq', 1, false);


--
-- Name: webhook_notices_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.webhook_notices_id_seq', 1, false);


--
-- Name: accounts accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.accounts
    ADD CONSTRAINT accounts_pkey PRIMARY KEY (name);


--
-- Name: api_keys api_keys_key_hash_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_key_hash_key UNIQUE (key_hash);


--
-- Name: api_keys api_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_pkey PRIMARY KEY (id);


--
-- Name: cities cities_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cities
    ADD CONSTRAINT cities_pkey PRIMARY KEY (id);


--
-- Name: corrections corrections_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.corrections
    ADD CONSTRAINT corrections_pkey PRIMARY KEY (match_id, corrected_at);


--
-- Name: countries countries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.countries
    ADD CONSTRAINT countries_pkey PRIMARY KEY (code);


--
-- Name: key_usage key_usage_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.key_usage
    ADD CONSTRAINT key_usage_pkey PRIMARY KEY (key_id);


--
-- Name: live_changes live_changes_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_changes
    ADD CONSTRAINT live_changes_pkey PRIMARY KEY (seq);


--
-- Name: live_feed_corrections live_feed_corrections_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_feed_corrections
    ADD CONSTRAINT live_feed_corrections_pkey PRIMARY KEY (match_id);


--
-- Name: live_feed_editions live_feed_editions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_feed_editions
    ADD CONSTRAINT live_feed_editions_pkey PRIMARY KEY (tournament_id);


--
-- Name: live_feed_matches live_feed_matches_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_feed_matches
    ADD CONSTRAINT live_feed_matches_pkey PRIMARY KEY (match_id);


--
-- Name: live_feed_state live_feed_state_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_feed_state
    ADD CONSTRAINT live_feed_state_pkey PRIMARY KEY (id);


--
-- Name: live_prices live_prices_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_prices
    ADD CONSTRAINT live_prices_pkey PRIMARY KEY (match_id, bookmaker);


--
-- Name: live_stream_slots live_stream_slots_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.live_stream_slots
    ADD CONSTRAINT live_stream_slots_pkey PRIMARY KEY (key_id, slot);


--
-- Name: match_events match_events_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.match_events
    ADD CONSTRAINT match_events_pkey PRIMARY KEY (id);


--
-- Name: match_events match_events_seq_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.match_events
    ADD CONSTRAINT match_events_seq_key UNIQUE (seq);


--
-- Name: matches matches_event_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.matches
    ADD CONSTRAINT matches_event_id_key UNIQUE (event_id);


--
-- Name: matches matches_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.matches
    ADD CONSTRAINT matches_pkey PRIMARY KEY (id);


--
-- Name: odds odds_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.odds
    ADD CONSTRAINT odds_pkey PRIMARY KEY (match_id, bookmaker, market);


--
-- Name: plans plans_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.plans
    ADD CONSTRAINT plans_pkey PRIMARY KEY (name);


--
-- Name: players players_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_pkey PRIMARY KEY (id);


--
-- Name: rallies rallies_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rallies
    ADD CONSTRAINT rallies_pkey PRIMARY KEY (match_id, game, rally);


--
-- Name: rankings rankings_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rankings
    ADD CONSTRAINT rankings_pkey PRIMARY KEY (discipline, week, rank, name);


--
-- Name: schema_migrations schema_migrations_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (name);


--
-- Name: series series_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.series
    ADD CONSTRAINT series_pkey PRIMARY KEY (slug);


--
-- Name: ties ties_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ties
    ADD CONSTRAINT ties_pkey PRIMARY KEY (id);


--
-- Name: tournaments tournaments_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tournaments
    ADD CONSTRAINT tournaments_pkey PRIMARY KEY (id);


--
-- Name: venues venues_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.venues
    ADD CONSTRAINT venues_pkey PRIMARY KEY (id);


--
-- Name: webhook_attempts webhook_attempts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_attempts
    ADD CONSTRAINT webhook_attempts_pkey PRIMARY KEY (id);


--
-- Name: webhook_deliveries webhook_deliveries_event_id_endpoint_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_event_id_endpoint_id_key UNIQUE (event_id, endpoint_id);


--
-- Name: webhook_deliveries webhook_deliveries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_pkey PRIMARY KEY (id);


--
-- Name: webhook_endpoints webhook_endpoints_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_pkey PRIMARY KEY (id);


--
-- Name: webhook_fanout webhook_fanout_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_fanout
    ADD CONSTRAINT webhook_fanout_pkey PRIMARY KEY (id);


--
-- Name: webhook_notices webhook_notices_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_notices
    ADD CONSTRAINT webhook_notices_pkey PRIMARY KEY (id);


--
-- Name: world_meta world_meta_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.world_meta
    ADD CONSTRAINT world_meta_pkey PRIMARY KEY (key);


--
-- Name: api_keys_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX api_keys_account ON public.api_keys USING btree (account);


--
-- Name: live_changes_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX live_changes_created ON public.live_changes USING btree (created_at);


--
-- Name: match_events_created; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX match_events_created ON public.match_events USING btree (created_at);


--
-- Name: matches_day; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_day ON public.matches USING btree (day) WHERE (status = 'finished'::text);


--
-- Name: matches_discipline_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_discipline_newest ON public.matches USING btree (discipline, day DESC NULLS LAST, id DESC);


--
-- Name: matches_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_newest ON public.matches USING btree (day DESC NULLS LAST, id DESC);


--
-- Name: matches_open; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_open ON public.matches USING btree (start_at) WHERE (status <> 'finished'::text);


--
-- Name: matches_round_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_round_newest ON public.matches USING btree (round_code, day DESC NULLS LAST, id DESC);


--
-- Name: matches_side1; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_side1 ON public.matches USING gin (side1);


--
-- Name: matches_side2; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_side2 ON public.matches USING gin (side2);


--
-- Name: matches_tie; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_tie ON public.matches USING btree (tie_id, tie_order) WHERE (tie_id IS NOT NULL);


--
-- Name: matches_tournament; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX matches_tournament ON public.matches USING btree (tournament_id, discipline, round_code);


--
-- Name: odds_winner; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX odds_winner ON public.odds USING btree (match_id) WHERE (market = 'winner'::text);


--
-- Name: ties_tournament; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX ties_tournament ON public.ties USING btree (tournament_id);


--
-- Name: tournaments_city; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tournaments_city ON public.tournaments USING btree (city_id);


--
-- Name: tournaments_newest; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tournaments_newest ON public.tournaments USING btree (year DESC, start_date DESC NULLS LAST, id);


--
-- Name: tournaments_series_year; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tournaments_series_year ON public.tournaments USING btree (series, year);


--
-- Name: tournaments_start; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tournaments_start ON public.tournaments USING btree (start_date);


--
-- Name: tournaments_venue; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tournaments_venue ON public.tournaments USING btree (venue_id);


--
-- Name: tournaments_year; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX tournaments_year ON public.tournaments USING btree (year);


--
-- Name: webhook_attempts_delivery; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_attempts_delivery ON public.webhook_attempts USING btree (delivery_id);


--
-- Name: webhook_deliveries_due; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_due ON public.webhook_deliveries USING btree (next_try_at) WHERE (state = 'pending'::text);


--
-- Name: webhook_deliveries_endpoint; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_deliveries_endpoint ON public.webhook_deliveries USING btree (endpoint_id) WHERE (state = 'pending'::text);


--
-- Name: webhook_endpoints_account; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX webhook_endpoints_account ON public.webhook_endpoints USING btree (account);


--
-- Name: api_keys api_keys_account_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_account_fkey FOREIGN KEY (account) REFERENCES public.accounts(name) ON DELETE CASCADE;


--
-- Name: api_keys api_keys_replaced_by_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.api_keys
    ADD CONSTRAINT api_keys_replaced_by_fkey FOREIGN KEY (replaced_by) REFERENCES public.api_keys(id);


--
-- Name: cities cities_country_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.cities
    ADD CONSTRAINT cities_country_fkey FOREIGN KEY (country) REFERENCES public.countries(code);


--
-- Name: corrections corrections_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.corrections
    ADD CONSTRAINT corrections_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: key_usage key_usage_key_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.key_usage
    ADD CONSTRAINT key_usage_key_id_fkey FOREIGN KEY (key_id) REFERENCES public.api_keys(id) ON DELETE CASCADE;


--
-- Name: matches matches_tie_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.matches
    ADD CONSTRAINT matches_tie_id_fkey FOREIGN KEY (tie_id) REFERENCES public.ties(id);


--
-- Name: matches matches_tournament_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.matches
    ADD CONSTRAINT matches_tournament_id_fkey FOREIGN KEY (tournament_id) REFERENCES public.tournaments(id);


--
-- Name: odds odds_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.odds
    ADD CONSTRAINT odds_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: players players_country_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.players
    ADD CONSTRAINT players_country_fkey FOREIGN KEY (country) REFERENCES public.countries(code);


--
-- Name: rallies rallies_match_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.rallies
    ADD CONSTRAINT rallies_match_id_fkey FOREIGN KEY (match_id) REFERENCES public.matches(id);


--
-- Name: ties ties_team1_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ties
    ADD CONSTRAINT ties_team1_fkey FOREIGN KEY (team1) REFERENCES public.countries(code);


--
-- Name: ties ties_team2_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ties
    ADD CONSTRAINT ties_team2_fkey FOREIGN KEY (team2) REFERENCES public.countries(code);


--
-- Name: ties ties_tournament_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.ties
    ADD CONSTRAINT ties_tournament_id_fkey FOREIGN KEY (tournament_id) REFERENCES public.tournaments(id);


--
-- Name: tournaments tournaments_city_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tournaments
    ADD CONSTRAINT tournaments_city_id_fkey FOREIGN KEY (city_id) REFERENCES public.cities(id);


--
-- Name: tournaments tournaments_series_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tournaments
    ADD CONSTRAINT tournaments_series_fkey FOREIGN KEY (series) REFERENCES public.series(slug);


--
-- Name: tournaments tournaments_venue_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.tournaments
    ADD CONSTRAINT tournaments_venue_id_fkey FOREIGN KEY (venue_id) REFERENCES public.venues(id);


--
-- Name: venues venues_city_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.venues
    ADD CONSTRAINT venues_city_id_fkey FOREIGN KEY (city_id) REFERENCES public.cities(id);


--
-- Name: webhook_attempts webhook_attempts_delivery_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_attempts
    ADD CONSTRAINT webhook_attempts_delivery_id_fkey FOREIGN KEY (delivery_id) REFERENCES public.webhook_deliveries(id) ON DELETE CASCADE;


--
-- Name: webhook_deliveries webhook_deliveries_endpoint_id_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_deliveries
    ADD CONSTRAINT webhook_deliveries_endpoint_id_fkey FOREIGN KEY (endpoint_id) REFERENCES public.webhook_endpoints(id) ON DELETE CASCADE;


--
-- Name: webhook_endpoints webhook_endpoints_account_fkey; Type: FK CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.webhook_endpoints
    ADD CONSTRAINT webhook_endpoints_account_fkey FOREIGN KEY (account) REFERENCES public.accounts(name) ON DELETE CASCADE;


--
-- PostgreSQL database dump complete
--


