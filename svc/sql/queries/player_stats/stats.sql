-- name: stats
-- A player's stats sums per discipline over tournament years :from_year to :to_year (either
-- open), optionally of one discipline: one row per discipline played in that range.
SELECT discipline,
       sum(matches)::int AS matches, sum(wins)::int AS wins,
       sum(games_won)::int AS games_won, sum(games_lost)::int AS games_lost,
       sum(points_won)::int AS points_won, sum(points_lost)::int AS points_lost,
       sum(deciding_played)::int AS deciding_played, sum(deciding_won)::int AS deciding_won,
       sum(extended_played)::int AS extended_played, sum(extended_won)::int AS extended_won,
       sum(after_losing_played)::int AS after_losing_played, sum(after_losing_won)::int AS after_losing_won,
       sum(after_winning_played)::int AS after_winning_played, sum(after_winning_won)::int AS after_winning_won,
       sum(retired_won)::int AS retired_won, sum(retired_lost)::int AS retired_lost,
       sum(walkover_won)::int AS walkover_won, sum(walkover_lost)::int AS walkover_lost
FROM player_stats_year
WHERE player_id = :id
  AND (:discipline::text IS NULL OR discipline = :discipline::text)
  AND (:from_year::int IS NULL OR year >= :from_year::int)
  AND (:to_year::int IS NULL OR year <= :to_year::int)
GROUP BY discipline
ORDER BY discipline;
