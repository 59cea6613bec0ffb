-- name: names
-- replica: ok
-- Hits for each part of the query (:parts, e.g. both names of "A/B"), at most :limit per part,
-- best first; score 30-100 from trigram similarity of the folded names (accents and capitals
-- ignored). A year in the query (:years, one per part, NULL when none) keeps only that edition.
-- The folded query is computed once per part (a materialized step: inlined, fold() ran again for
-- every candidate row, four times each: 50 of the 55 ms of a common name on the full world), so
-- the trigram index answers the match.
WITH part AS MATERIALIZED (
    SELECT p.q, p.year, p.ord, fold(p.q) AS fq
    FROM unnest(:parts::text[], :years::int[]) WITH ORDINALITY AS p(q, year, ord)
)
SELECT part.ord, hit.kind, hit.id, hit.name, hit.country, hit.score
FROM part
CROSS JOIN LATERAL (
    SELECT scored.kind, scored.id, scored.name, scored.country, scored.score, scored.weight
    FROM (
        SELECT s.kind, s.id, s.name, s.country, s.weight,
               round(100 * (similarity(s.folded, part.fq) + word_similarity(part.fq, s.folded)) / 2)::int AS score
        FROM search_names s
        WHERE (s.folded % part.fq OR part.fq <% s.folded)
          AND (:kind::text IS NULL OR s.kind = :kind)
          AND (part.year IS NULL OR s.kind = 'tournament' AND s.year = part.year)
    ) scored
    WHERE scored.score >= 30
    ORDER BY scored.score DESC, scored.weight DESC, scored.name
    LIMIT :limit
) hit
ORDER BY part.ord, hit.score DESC, hit.weight DESC, hit.name;

-- name: year
-- replica: ok
-- A query that is only a year: every edition of that year (score 100: each fits exactly).
SELECT 1 AS ord, s.kind, s.id, s.name, s.country, 100 AS score
FROM search_names s
WHERE s.kind = 'tournament' AND s.year = :year AND (:kind::text IS NULL OR :kind = 'tournament')
ORDER BY s.name
LIMIT :limit;
