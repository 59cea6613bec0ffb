-- name: search
-- Hits for each part of the query (:parts, e.g. both names of "A/B"), at most :limit per part,
-- best first; score 30-100 from trigram similarity of the folded names (accents and capitals
-- ignored). A year in the query (:years, one per part, NULL when none) keeps only that edition.
SELECT part.ord, hit.*
FROM unnest(:parts::text[], :years::int[]) WITH ORDINALITY AS part(q, year, ord)
CROSS JOIN LATERAL (
    SELECT s.kind, s.id, s.name, s.country, s.score
    FROM (
        SELECT s.*, CASE WHEN part.q = '' THEN 100  -- a bare year: every edition of that year fits
                    ELSE round(100 * (similarity(s.folded, fold(part.q)) + word_similarity(fold(part.q), s.folded)) / 2)::int END AS score
        FROM search_names s
        WHERE (part.q = '' OR s.folded % fold(part.q) OR fold(part.q) <% s.folded)
          AND (:kind::text IS NULL OR s.kind = :kind)
          AND (part.year IS NULL OR s.kind = 'tournament' AND s.year = part.year)
          AND (part.q <> '' OR part.year IS NOT NULL)
    ) s
    WHERE s.score >= 30
    ORDER BY s.score DESC, s.weight DESC, s.name
    LIMIT :limit
) hit
ORDER BY part.ord, hit.score DESC;
