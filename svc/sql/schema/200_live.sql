-- The live hub and the live feed (svc_live). Not part of the world: a world reload leaves
-- these tables alone (no foreign keys into the world), and the feed drops state whose
-- match is gone.

-- The stream's change log: one row per score, status or price change of a match, in the
-- order the feed made them. `seq` is the SSE `id:`; Last-Event-ID resumes after it. Rows
-- older than the replay window are only kept for reading back; `live_changes_created`
-- answers "is this id still inside the window".
CREATE TABLE IF NOT EXISTS live_changes (
    seq         bigserial PRIMARY KEY,
    match_id    text NOT NULL,
    discipline  text NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('started', 'score', 'finished', 'corrected')),
    created_at  timestamptz NOT NULL,
    payload     jsonb NOT NULL          -- the match as /v1/live shows it at that moment
);
CREATE INDEX IF NOT EXISTS live_changes_created ON live_changes(created_at);

-- Stream slots: at most two open streams per key across every worker and server. A slot
-- is a lease that the worker holding the stream renews every few seconds; an expired
-- lease (its worker or client died) is free again.
CREATE TABLE IF NOT EXISTS live_stream_slots (
    key_id      bigint NOT NULL,
    slot        smallint NOT NULL,
    holder      text NOT NULL,          -- host:pid:stream of the worker holding it
    expires_at  timestamptz NOT NULL,
    PRIMARY KEY (key_id, slot)
);

-- The feed's position: the moment of the world it has played up to.
CREATE TABLE IF NOT EXISTS live_feed_state (
    id         boolean PRIMARY KEY DEFAULT true CHECK (id),
    world      text NOT NULL,           -- world_meta seed|as_of: another world starts afresh
    played_to  timestamptz NOT NULL
);

-- Each match the feed is playing: rallies played so far and when the next one is due.
CREATE TABLE IF NOT EXISTS live_feed_matches (
    match_id  text PRIMARY KEY,
    rally_no  integer NOT NULL,          -- rallies played, over the whole match
    next_at   timestamptz NOT NULL
);

-- Results published with a slip, and when the feed corrects them back to the true score.
CREATE TABLE IF NOT EXISTS live_feed_corrections (
    match_id  text PRIMARY KEY,
    due_at    timestamptz NOT NULL,
    true_g1   smallint[] NOT NULL,
    true_g2   smallint[] NOT NULL
);

-- In-play prices of the match-winner market, bookmaker by bookmaker (the odds table keeps
-- the pre-match opening and closing prices, which the analysis endpoints rely on).
CREATE TABLE IF NOT EXISTS live_prices (
    match_id    text NOT NULL,
    bookmaker   text NOT NULL,
    price1      numeric(6,2) NOT NULL,
    price2      numeric(6,2) NOT NULL,
    updated_at  timestamptz NOT NULL,
    PRIMARY KEY (match_id, bookmaker)
);
