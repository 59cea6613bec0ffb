-- Venues, host cities and country profiles for /v1/venues, /v1/venues/{id}, /v1/locations and
-- /v1/countries/{code}, computed once per import. An edition counts as staged once it has
-- started (or has no dates: a few very old ones); editions still to come are left out, as in
-- series_stats.

-- Per venue: its city, elevation (the hall's own, else the city's), editions staged with first
-- and last year, and those editions newest first (the venue profile serves them as they are).
DROP TABLE IF EXISTS venue_stats;
CREATE TABLE venue_stats AS
WITH staged AS (
    SELECT t.* FROM tournaments t WHERE t.start_date IS NULL OR t.start_date <= current_date
)
SELECT v.id, v.name, fold(v.name) AS folded, c.id AS city_id, c.name AS city, fold(c.name) AS city_folded,
       c.country, coalesce(v.elevation_m, c.elevation_m) AS elevation_m,
       count(s.id)::int AS editions, min(s.year) AS first_year, max(s.year) AS last_year,
       coalesce(jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name, 'series', s.series, 'year', s.year,
                                             'start', s.start_date, 'end', s.end_date)
                          ORDER BY s.year DESC, s.start_date DESC NULLS LAST, s.id) FILTER (WHERE s.id IS NOT NULL),
                '[]'::jsonb) AS staged
FROM venues v
JOIN cities c ON c.id = v.city_id
LEFT JOIN staged s ON s.venue_id = v.id
GROUP BY v.id, c.id;
ALTER TABLE venue_stats ADD PRIMARY KEY (id);
CREATE INDEX venue_stats_order ON venue_stats (editions DESC, name, id) WHERE editions > 0;

-- Per host city: elevation, editions staged, the halls used (most editions first) and the years.
DROP TABLE IF EXISTS location_stats;
CREATE TABLE location_stats AS
WITH staged AS (
    SELECT t.* FROM tournaments t WHERE t.start_date IS NULL OR t.start_date <= current_date
), halls AS (
    SELECT s.city_id, v.id, v.name, count(*) AS n, max(s.year) AS last
    FROM staged s JOIN venues v ON v.id = s.venue_id
    GROUP BY s.city_id, v.id
)
SELECT c.id AS city_id, c.name AS city, fold(c.name) AS folded, c.country, c.elevation_m,
       count(s.id)::int AS editions, min(s.year) AS first_year, max(s.year) AS last_year,
       coalesce((SELECT jsonb_agg(jsonb_build_object('id', h.id, 'name', h.name, 'editions', h.n)
                                  ORDER BY h.n DESC, h.last DESC, h.name)
                 FROM halls h WHERE h.city_id = c.id), '[]'::jsonb) AS venues,
       coalesce(array_agg(DISTINCT s.year ORDER BY s.year) FILTER (WHERE s.id IS NOT NULL), '{}') AS years
FROM cities c
JOIN staged s ON s.city_id = c.id
GROUP BY c.id;
ALTER TABLE location_stats ADD PRIMARY KEY (city_id);
CREATE INDEX location_stats_order ON location_stats (editions DESC, city, city_id);

-- Per country: its ten best players (most titles, then wins), its ten latest titles with the
-- winning players, and every edition it staged, newest first. A title is a final won in an
-- individual (not team) event, as in country_stats; a pair of two nations counts for both.
DROP TABLE IF EXISTS country_profiles;
CREATE TABLE country_profiles AS
WITH finals AS (
    SELECT m.id, m.tournament_id, t.name AS tournament_name, t.year, m.discipline, m.sport_class, m.day,
           CASE m.winner WHEN 1 THEN m.side1 ELSE m.side2 END AS won_by
    FROM matches m
    JOIN tournaments t ON t.id = m.tournament_id AND NOT t.team
    WHERE m.round_code = 'F' AND m.status = 'finished' AND m.winner IS NOT NULL
), player_titles AS (
    SELECT pid AS player_id, count(*)::int AS titles
    FROM finals, unnest(finals.won_by) AS pid
    GROUP BY pid
), ranked AS (
    SELECT p.country, p.id, p.name, coalesce(pt.titles, 0) AS titles, coalesce(tot.matches, 0) AS matches,
           coalesce(tot.wins, 0) AS wins, tot.first_year, tot.last_year,
           row_number() OVER (PARTITION BY p.country ORDER BY coalesce(pt.titles, 0) DESC, coalesce(tot.wins, 0) DESC,
                                                              coalesce(tot.matches, 0) DESC, p.id) AS rank
    FROM players p
    LEFT JOIN player_titles pt ON pt.player_id = p.id
    LEFT JOIN player_totals tot ON tot.player_id = p.id
    WHERE p.country IS NOT NULL AND tot.matches > 0
), top AS (
    SELECT country, jsonb_agg(jsonb_build_object('id', id, 'name', name, 'titles', titles, 'matches', matches,
                                                 'wins', wins, 'first_year', first_year, 'last_year', last_year)
                              ORDER BY rank) AS top_players
    FROM ranked WHERE rank <= 10 GROUP BY country
), titled AS (
    SELECT DISTINCT ON (pc.country, f.id) pc.country, f.*
    FROM finals f
    CROSS JOIN LATERAL (SELECT DISTINCT p.country FROM players p
                        WHERE p.id = ANY (f.won_by) AND p.country IS NOT NULL) pc
), titled_ranked AS (
    SELECT t.*, row_number() OVER (PARTITION BY t.country ORDER BY t.day DESC NULLS LAST, t.year DESC, t.id) AS rank
    FROM titled t
), recent AS (
    SELECT tr.country,
           jsonb_agg(jsonb_build_object(
               'tournament', jsonb_build_object('id', tr.tournament_id, 'name', tr.tournament_name, 'year', tr.year),
               'discipline', tr.discipline, 'sport_class', tr.sport_class, 'date', tr.day, 'match', tr.id,
               'players', (SELECT jsonb_agg(jsonb_build_object('id', p.id, 'name', p.name, 'country', p.country) ORDER BY s.ord)
                           FROM unnest(tr.won_by) WITH ORDINALITY AS s(pid, ord) JOIN players p ON p.id = s.pid))
                     ORDER BY tr.rank) AS recent_titles
    FROM titled_ranked tr WHERE tr.rank <= 10 GROUP BY tr.country
), hosted AS (
    SELECT c.country,
           jsonb_agg(jsonb_build_object('id', t.id, 'name', t.name, 'series', t.series, 'year', t.year,
                                        'city', c.name, 'venue', CASE WHEN v.id IS NULL THEN NULL
                                                                 ELSE jsonb_build_object('id', v.id, 'name', v.name) END)
                     ORDER BY t.year DESC, t.start_date DESC NULLS LAST, t.id) AS hosted
    FROM tournaments t
    JOIN cities c ON c.id = t.city_id
    LEFT JOIN venues v ON v.id = t.venue_id
    WHERE (t.start_date IS NULL OR t.start_date <= current_date) AND c.country IS NOT NULL
    GROUP BY c.country
)
SELECT co.code, coalesce(top.top_players, '[]') AS top_players, coalesce(recent.recent_titles, '[]') AS recent_titles,
       coalesce(hosted.hosted, '[]') AS hosted
FROM countries co
LEFT JOIN top ON top.country = co.code
LEFT JOIN recent ON recent.country = co.code
LEFT JOIN hosted ON hosted.country = co.code;
ALTER TABLE country_profiles ADD PRIMARY KEY (code);
