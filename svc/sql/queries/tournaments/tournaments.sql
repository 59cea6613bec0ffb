-- name: exists
-- true when an edition has this id.
SELECT EXISTS (SELECT 1 FROM tournaments WHERE id = :id);

-- name: list
-- Editions that have started (or have no dates), newest first (year, then first day), optionally
-- of one series, year and level (para = para-badminton series; senior/junior = that level, para
-- excluded); one page and the size of the list, each with the disciplines of its draws and its
-- number of draw matches (counted for the page only, through matches_tournament).
WITH page AS (
    SELECT t.id, count(*) OVER () AS total
    FROM tournaments t
    WHERE (t.start_date IS NULL OR t.start_date <= :today)
      AND (:series::text IS NULL OR t.series = :series)
      AND (:year::int IS NULL OR t.year = :year)
      AND (:level::text IS NULL OR (:level = 'para' AND t.para) OR (:level <> 'para' AND NOT t.para AND t.level = :level))
    ORDER BY t.year DESC, t.start_date DESC NULLS LAST, t.id
    OFFSET :offset LIMIT :limit
)
SELECT t.id, t.series, t.name, t.year, t.level, t.para, t.team, t.start_date, t.end_date, page.total,
       d.disciplines, d.matches
FROM page
JOIN tournaments t ON t.id = page.id
CROSS JOIN LATERAL (
    SELECT coalesce(array_agg(DISTINCT m.discipline), '{}') AS disciplines, count(*)::int AS matches
    FROM matches m WHERE m.tournament_id = t.id
) d
ORDER BY t.year DESC, t.start_date DESC NULLS LAST, t.id;

-- name: one
-- One edition with its place, the matches of each round of each event (:rounds) and, when it has
-- a medal table, its semi-finals, bronze match and finals with players (:medal_matches).
SELECT t.id, t.series, t.name, t.year, t.level, t.para, t.team, t.tier, t.start_date, t.end_date,
       t.prize_money, t.medals, t.draw_size, c.name AS city, c.country, v.id AS venue_id, v.name AS venue_name,
       coalesce(v.elevation_m, c.elevation_m) AS elevation_m,
       (SELECT json_agg(json_build_object('discipline', r.discipline, 'sport_class', r.sport_class,
                                          'round_code', r.round_code, 'round', r.round_name, 'matches', r.n))
        FROM (SELECT m.discipline, m.sport_class, m.round_code, m.round_name, count(*)::int AS n
              FROM matches m WHERE m.tournament_id = t.id
              GROUP BY 1, 2, 3, 4) r) AS rounds,
       (SELECT json_agg(json_build_object('discipline', e.discipline, 'sport_class', e.sport_class,
                                          'round_code', e.round_code, 'position', e.position, 'status', e.status,
                                          'winner', e.winner, 'players1', e.players1, 'players2', e.players2))
        FROM event_rows e
        WHERE t.medals AND e.tournament_id = t.id AND e.round_code IN ('SF', '3P', 'F')) AS medal_matches
FROM tournaments t
LEFT JOIN cities c ON c.id = t.city_id
LEFT JOIN venues v ON v.id = t.venue_id
WHERE t.id = :id;

-- name: champions
-- The roll of honour of a series (optionally of one discipline) as JSON text, oldest edition
-- first, and the number of editions: one entry per edition with a decided final, champions and
-- runners-up keyed per event in the order MS, WS, MD, WD, XD (para classes within); and the
-- number of editions with a final held without its score (a result of public record: played,
-- no games), which meta.note reports.
WITH finals AS (
    SELECT sf.*, array_position(ARRAY['MS', 'WS', 'MD', 'WD', 'XD'], sf.discipline) AS event_order,
           (SELECT m.outcome = 'played' AND cardinality(m.g1) = 0 FROM matches m WHERE m.id = sf.match_id) AS unscored
    FROM series_finals sf
    WHERE sf.series = :series AND (:discipline::text IS NULL OR sf.discipline = :discipline)
), editions AS (
    SELECT f.year, f.tournament_id, bool_or(f.unscored) AS unscored,
           json_build_object(
               'year', f.year,
               'tournament', json_build_object('id', f.tournament_id, 'name', f.tournament_name),
               'champions', json_object_agg(f.event, f.champions ORDER BY f.event_order, f.sport_class),
               'runners_up', json_object_agg(f.event, f.runners_up ORDER BY f.event_order, f.sport_class),
               'winner_team', NULL, 'runner_up_team', NULL) AS entry
    FROM finals f
    GROUP BY f.year, f.tournament_id, f.tournament_name
)
SELECT coalesce(json_agg(e.entry ORDER BY e.year, e.tournament_id), '[]')::text AS roll, count(*)::int AS editions,
       count(*) FILTER (WHERE e.unscored)::int AS unscored_editions
FROM editions e;

-- name: team-champions
-- The roll of honour of a team series: each final tie's winning and losing nation, oldest first,
-- and whether the tie is held without its score (a result of public record), which meta.note reports.
SELECT f.year, f.tournament_id, f.tournament_name, f.winner_team, f.runner_up_team,
       ti.score1 IS NULL AS unscored
FROM series_team_finals f
JOIN ties ti ON ti.id = f.tie_id
WHERE f.series = :series
ORDER BY f.year, f.tournament_id;

-- name: series-most
-- The ten players who won the series most (optionally in one discipline), with their titles and
-- first and last winning year.
SELECT c.id, c.name, c.country, c.titles, c.first_year, c.last_year
FROM series_champion_counts c
WHERE c.series = :series AND c.discipline = coalesce(:discipline::text, '*')
ORDER BY c.titles DESC, c.first_year, c.id
LIMIT 10;

-- name: series-facts
-- A series' name and whether it is a team event; no row for an unknown slug.
SELECT s.slug, s.name, s.team, s.para FROM series s WHERE s.slug = :slug;
