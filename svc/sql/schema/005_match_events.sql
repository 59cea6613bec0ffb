-- The outbox: one row per match event, written in the same transaction as the change it
-- reports (a committed change always has its event; a rolled-back one never does).
-- The live feed writes it; the webhook scheduler delivers from it (deliveries reference `id`).
CREATE TABLE IF NOT EXISTS match_events (
    id          text PRIMARY KEY,          -- evt_...: identical for every endpoint and every try
    seq         bigserial UNIQUE,          -- creation order
    type        text NOT NULL CHECK (type IN ('match.started', 'match.finished', 'result.corrected')),
    match_id    text NOT NULL,             -- mt_ id (matches.id); no FK: a world reload must not cascade here
    created_at  timestamptz NOT NULL,
    payload     jsonb NOT NULL             -- the match shaped as GET /v1/events/{id} at that moment
);
CREATE INDEX IF NOT EXISTS match_events_created ON match_events(created_at);
