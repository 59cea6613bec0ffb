-- name: matches
-- replica: ok
-- Every finished draw match in which :player1 and :player2 stood on opposite sides (singles
-- and doubles), newest first, with the side :player1 was on.
SELECT e.*, CASE WHEN m.side1 @> ARRAY[:player1::text] THEN 1 ELSE 2 END AS side_of_player1
FROM matches m
JOIN tournaments t ON t.id = m.tournament_id
JOIN event_rows e ON e.match_id = m.id
WHERE m.status = 'finished' AND m.winner IS NOT NULL
  AND ((m.side1 @> ARRAY[:player1::text] AND m.side2 @> ARRAY[:player2::text])
    OR (m.side1 @> ARRAY[:player2::text] AND m.side2 @> ARRAY[:player1::text]))
ORDER BY coalesce(m.day, t.start_date, make_date(t.year, 1, 1)) DESC, m.start_at DESC NULLS LAST,
         round_rank(m.round_code) DESC, m.id DESC;
