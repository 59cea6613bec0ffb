-- name: run
-- replica: ok
-- One strategy over the settled priced matches the filters keep, one unit a bet at the average
-- closing price backed: bets, wins, profit, the sum of the market's chances of the sides backed and
-- of their variances (for the expected rate and its interval), the mean price, and the longest run
-- of lost bets in date order; and how many matches the match filters keep.
-- One pass over the kept matches in date order (the table's (day, match_id) index gives the
-- order; svc/sql/derived/66_backtest_matches.sql keeps the table in that order): a lost bet's run
-- is the bets lost since the last won one, i.e. the losses so far less the losses so far at the
-- last win -- one pass is cheaper than grouping the runs of materialized steps. Planned per call,
-- so that unused filters fold away (a generic plan keeps every filter's test). The timings are in
-- the commit messages that chose these.
-- plan: per call
WITH kept AS (
    SELECT b.day, b.match_id, p.side,
           CASE p.side WHEN 1 THEN b.close1 ELSE b.close2 END AS price,
           CASE p.side WHEN 1 THEN b.chance1 ELSE 1 - b.chance1 END AS chance,
           b.winner = p.side AS won
    FROM backtest_matches b
    CROSS JOIN LATERAL (SELECT CASE :strategy
                                   WHEN 'favourite' THEN b.favourite WHEN 'outsider' THEN 3 - b.favourite
                                   WHEN 'seeded' THEN b.seeded WHEN 'unseeded' THEN 3 - b.seeded
                                   WHEN 'steam' THEN b.steam WHEN 'drift' THEN 3 - b.steam END AS side) p
    WHERE (:discipline::text IS NULL OR b.discipline = :discipline)
      AND (:round::text IS NULL OR b.round_code = :round)
      AND b.year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
), marked AS (
    SELECT kept.*,
           side IS NOT NULL AND price >= coalesce(:min_price::float8, 0)
               AND price <= coalesce(:max_price::float8, 'Infinity') AS bet
    FROM kept
), counted AS (  -- the lost bets so far, in date order
    SELECT marked.*, count(*) FILTER (WHERE bet AND NOT won) OVER w AS losses
    FROM marked
    WINDOW w AS (ORDER BY day NULLS FIRST, match_id ROWS UNBOUNDED PRECEDING)
), runs AS (    -- and those at the last won bet
    SELECT counted.*, coalesce(max(losses) FILTER (WHERE bet AND won) OVER w, 0) AS losses_at_win
    FROM counted
    WINDOW w AS (ORDER BY day NULLS FIRST, match_id ROWS UNBOUNDED PRECEDING)
)
SELECT count(*) FILTER (WHERE bet)::int AS bets, count(*) FILTER (WHERE bet AND won)::int AS wins,
       coalesce(sum(CASE WHEN won THEN price - 1 ELSE -1 END) FILTER (WHERE bet), 0)::float8 AS profit,
       coalesce(sum(chance) FILTER (WHERE bet), 0)::float8 AS chance_sum,
       coalesce(sum(chance * (1 - chance)) FILTER (WHERE bet), 0)::float8 AS variance,
       coalesce(sum(price) FILTER (WHERE bet), 0)::float8 AS price_sum,
       coalesce(max(losses - losses_at_win) FILTER (WHERE bet AND NOT won), 0)::int AS worst_run,
       count(*)::int AS matches
FROM runs;
