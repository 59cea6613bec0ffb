-- name: partners
-- A player's partners (one row with partner NULL per singles discipline played): matches
-- together, wins, titles, first and last year; most matches together first.
SELECT pp.discipline, pp.partner, p.name AS partner_name, p.country AS partner_country,
       pp.matches, pp.wins, pp.titles, pp.first_year, pp.last_year
FROM player_partners pp
LEFT JOIN players p ON p.id = pp.partner
WHERE pp.player_id = :id AND (:discipline::text IS NULL OR pp.discipline = :discipline::text)
ORDER BY pp.matches DESC, pp.wins DESC, pp.last_year DESC, pp.discipline, pp.partner NULLS FIRST;
