-- Per player, discipline and year: the sums /v1/players/{id}/stats adds up over a range of
-- years (rates are computed from them per request).
DROP TABLE IF EXISTS player_stats_year;
CREATE TABLE player_stats_year AS
SELECT player_id, discipline, year,
       count(*)::int AS matches, count(*) FILTER (WHERE won)::int AS wins,
       sum(games_won)::int AS games_won, sum(games_lost)::int AS games_lost,
       sum(points_won)::int AS points_won, sum(points_lost)::int AS points_lost,
       count(*) FILTER (WHERE deciding)::int AS deciding_played,
       count(*) FILTER (WHERE deciding AND won)::int AS deciding_won,
       sum(ext_played)::int AS extended_played, sum(ext_won)::int AS extended_won,
       count(*) FILTER (WHERE NOT first_won)::int AS after_losing_played,
       count(*) FILTER (WHERE NOT first_won AND won)::int AS after_losing_won,
       count(*) FILTER (WHERE first_won)::int AS after_winning_played,
       count(*) FILTER (WHERE first_won AND won)::int AS after_winning_won,
       count(*) FILTER (WHERE outcome = 'retired' AND won)::int AS retired_won,
       count(*) FILTER (WHERE outcome = 'retired' AND NOT won)::int AS retired_lost,
       count(*) FILTER (WHERE outcome = 'walkover' AND won)::int AS walkover_won,
       count(*) FILTER (WHERE outcome = 'walkover' AND NOT won)::int AS walkover_lost
FROM player_match
GROUP BY player_id, discipline, year;
ALTER TABLE player_stats_year ADD PRIMARY KEY (player_id, discipline, year);
ANALYZE player_stats_year;
