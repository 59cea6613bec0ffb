-- name: seed-stats
-- replica: ok
-- Per seed over the years asked: seeded entries and how many reached the semi-final, the final
-- and won, summed from seed_stats.
SELECT seed, sum(entries)::int AS entries, sum(reached_sf)::int AS reached_sf, sum(reached_f)::int AS reached_f,
       sum(won)::int AS won
FROM seed_stats
WHERE (:discipline::text IS NULL OR discipline = :discipline)
  AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
GROUP BY seed
ORDER BY seed;

-- name: seed-rounds
-- replica: ok
-- Per round: matches of a seeded against an unseeded side and the seeded side's wins.
SELECT round_code, sum(matches)::int AS matches, sum(seeded_wins)::int AS seeded_wins
FROM seed_rounds
WHERE (:discipline::text IS NULL OR discipline = :discipline)
  AND year BETWEEN coalesce(:from_year::int, 0) AND coalesce(:to_year::int, 9999)
GROUP BY round_code
ORDER BY array_position(ARRAY['R128','R64','R32','R16','QF','SF','3P','F'], round_code);
