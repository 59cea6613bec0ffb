-- Per series: editions held (not counting those still to come), first and last year held.
DROP TABLE IF EXISTS series_stats;
CREATE TABLE series_stats AS
SELECT s.slug, s.name, s.level, s.para, s.team,
       coalesce(min(t.year), s.first_year) AS first_year, max(t.year) AS last_year, count(t.id)::int AS editions
FROM series s
LEFT JOIN tournaments t ON t.series = s.slug AND (t.start_date IS NULL OR t.start_date <= current_date)
GROUP BY s.slug;
ALTER TABLE series_stats ADD PRIMARY KEY (slug);
