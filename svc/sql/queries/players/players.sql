-- name: exists
-- true when a player has this id.
SELECT EXISTS (SELECT 1 FROM players WHERE id = :id);

-- name: list
-- One page of the player list (most draw matches first, then id), optionally filtered by a name
-- fragment (:q, LIKE-escaped; accents and capitals folded as names are), country and gender, each
-- row with the size of the whole list: kept per country and gender in player_list_sizes, counted
-- only for a name fragment.
WITH listed AS NOT MATERIALIZED (
    SELECT l.player_id, l.matches
    FROM player_list l
    WHERE (:q::text IS NULL OR l.folded LIKE '%' || fold(:q) || '%')
      AND (:country::text IS NULL OR l.country = :country)
      AND (:gender::text IS NULL OR l.gender = :gender)
), page AS (
    SELECT * FROM listed ORDER BY matches DESC, player_id OFFSET :offset LIMIT :limit
), total AS (
    SELECT CASE WHEN :q::text IS NULL THEN
               (SELECT s.n FROM player_list_sizes s
                WHERE s.any_country = (:country::text IS NULL) AND s.any_gender = (:gender::text IS NULL)
                  AND (:country::text IS NULL OR s.country = :country)
                  AND (:gender::text IS NULL OR s.gender = :gender))
           ELSE (SELECT count(*) FROM listed) END AS n
)
SELECT p.id, p.name, p.slug, p.country, p.gender, t.first_year, t.last_year,
       coalesce(t.matches, 0) AS matches, coalesce(t.wins, 0) AS wins, coalesce((SELECT n FROM total), 0) AS total
FROM page JOIN players p ON p.id = page.player_id LEFT JOIN player_totals t ON t.player_id = page.player_id
ORDER BY page.matches DESC, page.player_id;

-- name: profile
-- One player with list figures, figures by discipline, career highs by discipline (with partner)
-- and number-one time by discipline, as JSON arrays; no row for an unknown id. `listed`: what
-- /v1/players/{id}/matches counts (every draw match) beside `matches` (played: finished, no
-- walkover), split into the walkovers and the matches not finished, through the side GIN indexes.
SELECT p.id, p.name, p.slug, p.country, p.gender, p.born, p.hand, p.height_cm, p.coach,
       t.first_year, t.last_year, coalesce(t.matches, 0) AS matches, coalesce(t.wins, 0) AS wins,
       (SELECT json_build_object('total', count(*),
                                 'walkovers', count(*) FILTER (WHERE m.status = 'finished' AND m.outcome = 'walkover'),
                                 'not_finished', count(*) FILTER (WHERE m.status <> 'finished'))
          FROM matches m WHERE m.side1 @> ARRAY[p.id] OR m.side2 @> ARRAY[p.id]) AS listed,
       (SELECT coalesce(json_agg(json_build_object('discipline', d.discipline, 'matches', d.matches, 'wins', d.wins,
                                                   'first_year', d.first_year, 'last_year', d.last_year)
                                 ORDER BY array_position(ARRAY['MS','WS','MD','WD','XD'], d.discipline)), '[]')
          FROM player_discipline_totals d WHERE d.player_id = p.id) AS by_discipline,
       (SELECT coalesce(json_agg(json_build_object('discipline', c.discipline, 'rank', c.rank, 'week', c.week,
                                                   'partner', CASE WHEN q.id IS NULL THEN NULL ELSE
                                                       json_build_object('id', q.id, 'name', q.name, 'country', q.country) END)
                                 ORDER BY c.rank, c.week, array_position(ARRAY['MS','WS','MD','WD','XD'], c.discipline)), '[]')
          FROM player_career_highs c LEFT JOIN players q ON q.id = c.partner_id WHERE c.player_id = p.id) AS highs,
       (SELECT coalesce(json_agg(json_build_object('discipline', n.discipline, 'weeks', n.weeks, 'reigns', n.reigns,
                                                   'first', n.first_day, 'last', n.last_day, 'current', n.current)
                                 ORDER BY array_position(ARRAY['MS','WS','MD','WD','XD'], n.discipline)), '[]')
          FROM player_number_ones n WHERE n.player_id = p.id) AS number_ones
FROM players p LEFT JOIN player_totals t ON t.player_id = p.id
WHERE p.id = :id;

-- name: rankings
-- A player's ranking history from :since, newest list first (then discipline), optionally of one
-- discipline; `known` is false (and no history rows) for an unknown player.
SELECT EXISTS (SELECT 1 FROM players WHERE id = :id) AS known, r.week, r.discipline, r.rank, r.points
FROM (SELECT 1) one
LEFT JOIN player_rankings r ON r.player_id = :id AND r.week >= :since
                          AND (:discipline::text IS NULL OR r.discipline = :discipline)
ORDER BY r.week DESC, array_position(ARRAY['MS','WS','MD','WD','XD'], r.discipline);

-- name: one
-- One player's reference (id, name, country); no row for an unknown id.
SELECT p.id, p.name, p.country FROM players p WHERE p.id = :id;

-- name: two
-- The references (id, name, country) of the players among :player1 and :player2 that exist.
SELECT p.id, p.name, p.country FROM players p WHERE p.id IN (:player1, :player2);
