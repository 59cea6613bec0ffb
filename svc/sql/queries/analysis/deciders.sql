-- name: deciders
-- replica: ok
-- Per period (a year, or a decade named by its first year): completed matches, three-game
-- matches, first-game losers who won, games, points, rally-scoring games and extended games.
SELECT (CASE WHEN :by = 'year' THEN year ELSE year / 10 * 10 END) AS period,
       min(year) AS first_year, max(year) AS last_year,
       sum(matches)::int AS matches, sum(three_game)::int AS three_game, sum(first_loser_wins)::int AS first_loser_wins,
       sum(games)::int AS games, sum(points)::bigint AS points, sum(rally_games)::int AS rally_games,
       sum(extended_games)::int AS extended_games
FROM decider_stats
WHERE (:discipline::text IS NULL OR discipline = :discipline)
  AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
GROUP BY 1
ORDER BY 1;
