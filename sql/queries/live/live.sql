-- name: in-play
-- Every match under way now (optionally of one discipline), earliest start first, as event
-- rows plus who serves next and the in-play match-winner prices.
SELECT l.* FROM live_rows l
WHERE l.status = 'live' AND (:discipline::text IS NULL OR l.discipline = :discipline)
ORDER BY l.start_at NULLS LAST, l.event_id;

-- name: match
-- One match (any status) shaped like a row of live-in-play, for the feed's change payloads.
SELECT l.* FROM live_rows l WHERE l.match_id = :match_id;
