-- Inputs of /v1/analysis/records, computed once per import.

-- Finals reached and won per player, year and discipline: individual draws only (a team
-- event's final is a country's), every level. A final is a match with round_code F.
DROP TABLE IF EXISTS record_finals;
CREATE TABLE record_finals AS
SELECT s.player_id, s.year, s.discipline, count(*)::int AS finals, count(*) FILTER (WHERE s.won)::int AS titles
FROM (
    SELECT unnest(m.side1) AS player_id, t.year, m.discipline, m.winner = 1 AS won
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE m.round_code = 'F' AND m.status = 'finished' AND NOT t.team
    UNION ALL
    SELECT unnest(m.side2), t.year, m.discipline, m.winner = 2
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE m.round_code = 'F' AND m.status = 'finished' AND NOT t.team
) s
GROUP BY s.player_id, s.year, s.discipline;
CREATE INDEX record_finals_year ON record_finals (year, discipline);

-- The same over every year, per player over all disciplines (scope ALL) and per discipline, so
-- the unfiltered lists are index ranges.
DROP TABLE IF EXISTS record_final_totals;
CREATE TABLE record_final_totals AS
SELECT scope, player_id, sum(finals)::int AS finals, sum(titles)::int AS titles,
       min(year) AS finals_from, max(year) AS finals_to,
       min(year) FILTER (WHERE titles > 0) AS titles_from, max(year) FILTER (WHERE titles > 0) AS titles_to
FROM (SELECT 'ALL' AS scope, * FROM record_finals UNION ALL SELECT discipline, * FROM record_finals) f
GROUP BY scope, player_id;
CREATE INDEX record_final_totals_titles ON record_final_totals (scope, titles DESC);
CREATE INDEX record_final_totals_finals ON record_final_totals (scope, finals DESC);

-- Per completed match (outcome played) with its games: points over the whole match and the
-- winner's margin. A final of public record held without its score (the real world's World
-- Championships) has neither: left out, where a NULL margin would head the DESC ordering.
DROP TABLE IF EXISTS record_matches;
CREATE TABLE record_matches AS
SELECT m.id AS match_id, t.year, m.discipline, g.points::int AS points, abs(g.diff)::int AS margin
FROM matches m JOIN tournaments t ON t.id = m.tournament_id
-- both sums in one pass over the games (two subqueries read them twice: 1.6-2.2 s -> 0.9 s, demo)
CROSS JOIN LATERAL (SELECT sum(a + b) AS points, sum(a - b) AS diff FROM unnest(m.g1, m.g2) AS g(a, b)) g
WHERE m.status = 'finished' AND m.outcome = 'played' AND cardinality(m.g1) > 0;
CREATE INDEX record_matches_margin ON record_matches (margin DESC, match_id);
CREATE INDEX record_matches_points ON record_matches (points DESC, match_id);
CREATE INDEX record_matches_year ON record_matches (year, discipline);

-- Winning streaks: runs of won matches in a player's matches in playing order (day, then round),
-- over all disciplines (scope ALL) and within each discipline. Walkovers are skipped (nothing
-- was played); a retirement counts for the side that went on. One row per streak and year it
-- touches, so a year range can cut a streak to the wins inside it.
DROP TABLE IF EXISTS record_streak_years;
CREATE TABLE record_streak_years AS
WITH played AS MATERIALIZED (  -- each player's matches numbered once in playing order
    SELECT s.player_id, s.discipline, s.won, s.year, s.day,
           row_number() OVER (PARTITION BY s.player_id ORDER BY s.day, s.start_date, s.round_no, s.match_id) AS n
    FROM (
        SELECT unnest(m.side1) AS player_id, m.discipline, m.winner = 1 AS won, t.year, m.id AS match_id,
               coalesce(m.day, t.start_date, make_date(t.year, 1, 1)) AS day, t.start_date,
               array_position(ARRAY['R128','R64','R32','R16','QF','SF','3P','F'], m.round_code) AS round_no
        FROM matches m JOIN tournaments t ON t.id = m.tournament_id
        WHERE m.status = 'finished' AND m.outcome <> 'walkover'
        UNION ALL
        SELECT unnest(m.side2), m.discipline, m.winner = 2, t.year, m.id,
               coalesce(m.day, t.start_date, make_date(t.year, 1, 1)), t.start_date,
               array_position(ARRAY['R128','R64','R32','R16','QF','SF','3P','F'], m.round_code)
        FROM matches m JOIN tournaments t ON t.id = m.tournament_id
        WHERE m.status = 'finished' AND m.outcome <> 'walkover'
    ) s
)
-- gaps and islands: within a run of wins, position minus position among wins is constant
SELECT 'ALL'::text AS scope, player_id, run, year, count(*)::int AS wins, min(day) AS first_day, max(day) AS last_day
FROM (SELECT *, n - row_number() OVER (PARTITION BY player_id, won ORDER BY n) AS run FROM played) r
WHERE won
GROUP BY player_id, run, year
UNION ALL
SELECT discipline, player_id, run, year, count(*)::int, min(day), max(day)
FROM (SELECT *, row_number() OVER (PARTITION BY player_id, discipline ORDER BY n)
                - row_number() OVER (PARTITION BY player_id, discipline, won ORDER BY n) AS run FROM played) r
WHERE won
GROUP BY discipline, player_id, run, year;
CREATE INDEX record_streak_years_scope ON record_streak_years (scope, year);

CREATE INDEX record_streak_years_run ON record_streak_years (scope, player_id, run);

-- Whole streaks (every year) with the years they span: the unfiltered list, and the candidates
-- for a year range (a streak cut to a range is never longer than the whole streak).
DROP TABLE IF EXISTS record_streaks;
CREATE TABLE record_streaks AS
SELECT scope, player_id, run, sum(wins)::int AS wins, min(first_day) AS first_day, max(last_day) AS last_day,
       min(year) AS first_year, max(year) AS last_year
FROM record_streak_years
GROUP BY scope, player_id, run;
CREATE INDEX record_streaks_order ON record_streaks (scope, wins DESC, player_id);
CREATE INDEX record_streaks_first ON record_streaks (scope, first_year, wins);  -- narrow year ranges
-- Fresh statistics: these tables are built after the import's ANALYZE.
ANALYZE record_finals;
ANALYZE record_final_totals;
ANALYZE record_matches;
ANALYZE record_streak_years;
ANALYZE record_streaks;
