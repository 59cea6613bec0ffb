-- Per player and opponent (each player on the other side, singles and doubles alike):
-- meetings, wins, losses and the most recent meeting, per discipline and over all
-- disciplines (scope = the discipline, or 'all').
DROP TABLE IF EXISTS player_opponents;
CREATE TABLE player_opponents AS
SELECT pm.player_id, o.opponent, coalesce(pm.discipline, 'all') AS scope,
       count(*)::int AS meetings, count(*) FILTER (WHERE pm.won)::int AS wins,
       count(*) FILTER (WHERE NOT pm.won)::int AS losses,
       (array_agg(pm.match_id ORDER BY pm.day DESC, pm.start_at DESC NULLS LAST, pm.round_rank DESC, pm.match_id DESC))[1] AS last_match,
       max(pm.day) AS last_day
FROM player_match pm
CROSS JOIN LATERAL unnest(pm.opponents) AS o(opponent)
GROUP BY GROUPING SETS ((pm.player_id, o.opponent, pm.discipline), (pm.player_id, o.opponent));
CREATE INDEX player_opponents_player ON player_opponents (player_id, scope, meetings DESC, last_day DESC);
ANALYZE player_opponents;
