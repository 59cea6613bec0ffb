-- name: country-profile
-- One country: its counts and titles (country_stats) with top players, latest titles and the
-- editions it staged (country_profiles); no row for an unknown code.
SELECT cs.code, cs.name, cs.players, cs.active_players, cs.first_year, cs.titles, cs.titles_by_discipline,
       cp.top_players, cp.recent_titles, cp.hosted
FROM country_stats cs
JOIN country_profiles cp ON cp.code = cs.code
WHERE cs.code = :code;

-- name: venues
-- Venues that staged editions, most editions first, optionally in one country, in one city
-- (:city, folded) and with :q (folded) in the name; one page and the size of the list.
SELECT v.id, v.name, v.city, v.country, v.elevation_m, v.editions, v.first_year, v.last_year,
       count(*) OVER () AS total
FROM venue_stats v
WHERE v.editions > 0
  AND (:country::text IS NULL OR v.country = :country)
  AND (:city::text IS NULL OR v.city_folded = fold(:city))
  AND (:q::text IS NULL OR strpos(v.folded, fold(:q)) > 0)
ORDER BY v.editions DESC, v.name, v.id
OFFSET :offset LIMIT :limit;

-- name: venue
-- One venue with its city, elevation and every edition it staged, newest first.
SELECT v.id, v.name, v.city, v.country, v.elevation_m, v.editions, v.first_year, v.last_year, v.staged
FROM venue_stats v WHERE v.id = :id;

-- name: locations
-- Host cities, most editions first, optionally in one country and with :q (folded) in the
-- name, with the halls used and the years staged; one page and the size of the list.
SELECT l.city, l.country, l.elevation_m, l.editions, l.first_year, l.last_year, l.venues, l.years,
       count(*) OVER () AS total
FROM location_stats l
WHERE (:country::text IS NULL OR l.country = :country)
  AND (:q::text IS NULL OR strpos(l.folded, fold(:q)) > 0)
ORDER BY l.editions DESC, l.city, l.city_id
OFFSET :offset LIMIT :limit;

-- name: country-exists
-- true when a country has this IOC code.
SELECT EXISTS (SELECT 1 FROM countries WHERE code = :code);
