-- The rating table as on a day (/v1/ratings without a player) read from two btree indexes
-- instead of the GiST index over the days a standing holds. On the full world that index took
-- 67 ms to find the 6,294 standings in force today (its open-ended ranges overlap everywhere)
-- and 30 ms for the 20 k in force in 2001; the answer then sorted them all for one page.
--   rating_days_by_day: the active table (standings of the 365 days before D) is one range of days;
--   rating_days_best:   the all-time table's first pages walk standings best first and stop after
--                       one page (svc/sql/queries/ratings/ratings.sql, table-best);
--   rating_firsts:      the all-time table's size, the players first rated before D, without
--                       visiting their standings.
-- The indexes carry every column the table reads, so both are read index-only once vacuumed.
CREATE TABLE IF NOT EXISTS rating_firsts (
    discipline  text NOT NULL,
    player_id   text NOT NULL,
    day         date NOT NULL,      -- the player's first day rated in the discipline
    PRIMARY KEY (discipline, player_id)
);
CREATE INDEX IF NOT EXISTS rating_firsts_day ON rating_firsts (discipline, day);
INSERT INTO rating_firsts (discipline, player_id, day)
SELECT discipline, player_id, min(day) FROM rating_days GROUP BY discipline, player_id
ON CONFLICT DO NOTHING;

DROP INDEX IF EXISTS rating_days_in_force;
CREATE INDEX IF NOT EXISTS rating_days_by_day ON rating_days (discipline, day) INCLUDE (until, rating, player_id, variance, matches);
CREATE INDEX IF NOT EXISTS rating_days_best ON rating_days (discipline, rating DESC, player_id) INCLUDE (day, until, variance, matches);
