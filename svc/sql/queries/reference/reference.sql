-- name: countries
-- Every country with its player counts, first year and individual titles by discipline: one row
-- each, the JSON object of its list item (the record's fields in order) as PostgreSQL writes it.
SELECT row_to_json(c)::text AS item
FROM (SELECT code, name, players, active_players, first_year, titles, titles_by_discipline FROM country_stats) c
ORDER BY c.name;

-- name: series-list
-- Every series with its editions held and first and last year.
SELECT slug, name, level, para, team, first_year, last_year, editions FROM series_stats ORDER BY first_year, slug;

-- name: series-exists
-- true when a series has this slug.
SELECT EXISTS (SELECT 1 FROM series WHERE slug = :slug);

-- name: calendar
-- Editions of one year in date order (undated last), optionally of one series and level
-- (para = para-badminton series; senior/junior = that level, para excluded), with host city and venue.
SELECT t.id, t.name, t.series, t.level, t.para, t.start_date, t.end_date, t.prize_money, t.tier, t.cancelled,
       c.name AS city, c.country, v.id AS venue_id, v.name AS venue_name,
       coalesce(v.elevation_m, c.elevation_m) AS elevation_m
FROM tournaments t
LEFT JOIN cities c ON c.id = t.city_id
LEFT JOIN venues v ON v.id = t.venue_id
WHERE t.year = :year
  AND (:series::text IS NULL OR t.series = :series)
  AND (:level::text IS NULL OR (:level = 'para' AND t.para) OR (:level <> 'para' AND NOT t.para AND t.level = :level))
ORDER BY t.start_date NULLS LAST, t.name;
