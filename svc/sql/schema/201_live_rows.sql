-- A match as the live endpoints and the feed's change payloads show it: its event row,
-- who serves next (the winner of the last rally) and its in-play match-winner prices.
CREATE OR REPLACE VIEW live_rows AS
SELECT e.*,
       (SELECT r.winner FROM rallies r WHERE r.match_id = e.match_id
         ORDER BY r.game DESC, r.rally DESC LIMIT 1) AS serving,
       (SELECT json_build_object('bookmakers', count(*), 'price1', avg(lp.price1)::float8,
                                 'price2', avg(lp.price2)::float8)
          FROM live_prices lp WHERE lp.match_id = e.match_id) AS in_play
FROM event_rows e;
