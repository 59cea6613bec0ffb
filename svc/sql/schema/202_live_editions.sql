-- Editions the live feed has drawn (future editions, on their first day) or seen to the end
-- (the last match of its draws finished). Not part of the world: dropped with the feed's
-- other state when another world is loaded.
CREATE TABLE IF NOT EXISTS live_feed_editions (
    tournament_id  text PRIMARY KEY,
    drawn_at       timestamptz,          -- world time of the draw; NULL: drawn by the generator
    matches        integer NOT NULL DEFAULT 0,  -- first-round matches the feed drew (0: not drawn by the feed)
    finished_at    timestamptz           -- world time its last match ended
);
