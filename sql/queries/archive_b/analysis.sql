-- name: archb-seed-stats
-- Per seed over the years asked: seeded entries and how many reached the semi-final, the final
-- and won, summed from seed_stats.
SELECT seed, sum(entries)::int AS entries, sum(reached_sf)::int AS reached_sf, sum(reached_f)::int AS reached_f,
       sum(won)::int AS won
FROM seed_stats
WHERE (:discipline::text IS NULL OR discipline = :discipline)
  AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
GROUP BY seed
ORDER BY seed;

-- name: archb-seed-rounds
-- Per round: matches of a seeded against an unseeded side and the seeded side's wins.
SELECT round_code, sum(matches)::int AS matches, sum(seeded_wins)::int AS seeded_wins
FROM seed_rounds
WHERE (:discipline::text IS NULL OR discipline = :discipline)
  AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
GROUP BY round_code
ORDER BY array_position(ARRAY['R128','R64','R32','R16','QF','SF','3P','F'], round_code);

-- name: archb-deciders
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
