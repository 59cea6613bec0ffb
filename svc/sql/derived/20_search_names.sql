-- Everything /v1/search can find, with its accent- and case-folded name under a trigram index.
-- `weight` orders equally good hits: players by matches played, tournaments by year.
DROP TABLE IF EXISTS search_names;
CREATE TABLE search_names AS
SELECT 'player'::text AS kind, p.id, p.name, p.country, NULL::int AS year, fold(p.name) AS folded,
       coalesce(pt.matches, 0) AS weight
FROM players p LEFT JOIN player_totals pt ON pt.player_id = p.id
UNION ALL
SELECT 'tournament', t.id, t.name, c.country, t.year, fold(t.name), t.year
FROM tournaments t LEFT JOIN cities c ON c.id = t.city_id
UNION ALL
SELECT 'series', s.slug, s.name, NULL, NULL, fold(s.name), 0 FROM series s
UNION ALL
SELECT 'country', c.code, c.name, c.code, NULL, fold(c.name || ' ' || c.code), 0 FROM countries c
UNION ALL
SELECT 'venue', v.id, v.name, c.country, NULL, fold(v.name), 0 FROM venues v JOIN cities c ON c.id = v.city_id
UNION ALL
SELECT 'city', NULL, c.name, c.country, NULL, fold(c.name), 0 FROM cities c;
CREATE INDEX search_names_trgm ON search_names USING gin (folded gin_trgm_ops);
