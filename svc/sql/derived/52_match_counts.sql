-- Sizes of /v1/matches lists filtered only by discipline, round and with_odds, for the matches
-- that no longer change: those played more than two weeks before the import (and the few with
-- no day), and before the day of any match not yet finished (a world generated as of an
-- earlier day has its open matches then). The list adds the matches from the cutoff on,
-- counted live, so a result coming in after the import is counted too. Counting 100k+ rows
-- per request would take ~30 ms.
DROP TABLE IF EXISTS match_count_cutoff;
CREATE TABLE match_count_cutoff AS
SELECT least(current_date - 14, (SELECT min(day) FROM matches WHERE status <> 'finished') - 1) AS cutoff;

DROP TABLE IF EXISTS match_counts;
CREATE TABLE match_counts AS
SELECT m.discipline, m.round_code,
       (m.status = 'finished' AND EXISTS (SELECT 1 FROM odds o WHERE o.match_id = m.id AND o.market = 'winner')) AS priced,
       count(*)::int AS n
FROM matches m, match_count_cutoff c
WHERE m.day < c.cutoff OR m.day IS NULL
GROUP BY 1, 2, 3;
