-- name: live-in-play
-- Every match under way now (optionally of one discipline), earliest start first, as event
-- rows plus who serves next and the in-play match-winner prices.
SELECT e.*,
       (SELECT r.winner FROM rallies r WHERE r.match_id = e.match_id
         ORDER BY r.game DESC, r.rally DESC LIMIT 1) AS serving,
       (SELECT json_build_object('bookmakers', count(*), 'price1', avg(lp.price1)::float8,
                                 'price2', avg(lp.price2)::float8)
          FROM live_prices lp WHERE lp.match_id = e.match_id) AS in_play
FROM event_rows e
WHERE e.status = 'live' AND (:discipline::text IS NULL OR e.discipline = :discipline)
ORDER BY e.start_at NULLS LAST, e.event_id;

-- name: live-match
-- One match (any status) shaped like a row of live-in-play, for the feed's change payloads.
SELECT e.*,
       (SELECT r.winner FROM rallies r WHERE r.match_id = e.match_id
         ORDER BY r.game DESC, r.rally DESC LIMIT 1) AS serving,
       (SELECT json_build_object('bookmakers', count(*), 'price1', avg(lp.price1)::float8,
                                 'price2', avg(lp.price2)::float8)
          FROM live_prices lp WHERE lp.match_id = e.match_id) AS in_play
FROM event_rows e
WHERE e.match_id = :match_id;
