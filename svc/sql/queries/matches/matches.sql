-- name: list
-- replica: ok
-- Draw matches newest first (latest day first; the same day by id; the few without a day last),
-- filtered by player (either side), editions :tids (NULL = any; the edition, series and year
-- filters resolved by archive-match-editions), discipline, round and with_odds (finished with
-- match-winner prices); one page with the size of the whole list.
-- :fast_total (only discipline, round and with_odds given) takes the size from match_counts for
-- matches before the cutoff and counts the rest live; otherwise the list is counted live.
WITH filtered AS NOT MATERIALIZED (
    SELECT m.id, m.day
    FROM matches m
    WHERE (:player::text IS NULL OR m.side1 @> ARRAY[:player] OR m.side2 @> ARRAY[:player])
      AND (:tids::text[] IS NULL OR m.tournament_id = ANY (:tids))
      AND (:discipline::text IS NULL OR m.discipline = :discipline)
      AND (:round::text IS NULL OR m.round_code = :round)
      -- A scalar subquery (not EXISTS) so the check is one index probe per candidate row: under
      -- the OR, EXISTS becomes a hashed subplan over every price (~50 ms at demo scale).
      AND (NOT :with_odds::bool OR m.status = 'finished'
           AND (SELECT true FROM odds o WHERE o.match_id = m.id AND o.market = 'winner' LIMIT 1))
), page AS (
    -- :sort_page (a few editions asked for): sort their matches rather than walk the whole
    -- newest-first index until a page of them turns up, which for editions years back means
    -- reading every newer match first. `day + 0` sorts the same but cannot use that index.
    SELECT f.id, f.day FROM filtered f
    ORDER BY CASE WHEN :sort_page::bool THEN f.day + 0 END DESC NULLS LAST, f.day DESC NULLS LAST, f.id DESC
    OFFSET :offset LIMIT :limit
), total AS (
    SELECT CASE WHEN :fast_total::bool THEN
        (SELECT coalesce(sum(c.n), 0) FROM match_counts c
         WHERE (:discipline::text IS NULL OR c.discipline = :discipline)
           AND (:round::text IS NULL OR c.round_code = :round)
           AND (NOT :with_odds::bool OR c.priced))
        + (SELECT count(*) FROM filtered f WHERE f.day >= (SELECT cutoff FROM match_count_cutoff))
    ELSE (SELECT count(*) FROM filtered) END AS total
)
SELECT e.*, total.total
FROM page
JOIN event_rows e ON e.match_id = page.id
CROSS JOIN total
ORDER BY page.day DESC NULLS LAST, page.id DESC;

-- name: editions
-- replica: ok
-- Ids of the editions a /v1/matches request covers: :tournament (when given) within :series and
-- :year (when given).
SELECT coalesce(array_agg(t.id), '{}') AS ids
FROM tournaments t
WHERE (:tournament::text IS NULL OR t.id = :tournament)
  AND (:series::text IS NULL OR t.series = :series)
  AND (:year::int IS NULL OR t.year = :year);

-- name: one
-- One draw match with its players and match-winner prices; no row for an unknown id.
SELECT e.* FROM event_rows e WHERE e.match_id = :id;
