-- One row per player per finished draw match (walkovers and retirements included): the
-- player's side, partner (NULL in singles), opponents, games from the player's side, whether
-- they won, and per-match figures the stats add up. The base of partners, opponents, titles
-- and stats, so those four agree with each other by construction.
DROP TABLE IF EXISTS player_match;
CREATE TABLE player_match AS
SELECT pl.player_id, m.id AS match_id, m.tournament_id, t.year, t.level, t.team, m.discipline, m.sport_class,
       m.round_code,
       -- the day a match is ordered by: its own, else its edition's first day, else its year
       coalesce(m.day, t.start_date, make_date(t.year, 1, 1)) AS day, m.start_at, round_rank(m.round_code) AS round_rank,
       sd.side::smallint AS side,
       CASE WHEN cardinality(sd.own) = 2 THEN sd.own[3 - pl.ord] END AS partner,
       sd.opp AS opponents, sd.gf, sd.ga, m.winner = sd.side AS won, m.outcome,
       g.games_won, g.games_lost, g.points_won, g.points_lost, g.first_won, g.ext_played, g.ext_won,
       g.games_won + g.games_lost = 3 AS deciding,
       m.round_code = 'F' AND NOT t.team AS final  -- a final of an individual event (a tie's final is the team's)
FROM matches m
JOIN tournaments t ON t.id = m.tournament_id
CROSS JOIN LATERAL (VALUES (1, m.side1, m.side2, m.g1, m.g2), (2, m.side2, m.side1, m.g2, m.g1)) AS sd(side, own, opp, gf, ga)
CROSS JOIN LATERAL unnest(sd.own) WITH ORDINALITY AS pl(player_id, ord)
CROSS JOIN LATERAL (
    SELECT count(*) FILTER (WHERE x.complete AND x.f > x.a)::int AS games_won,
           count(*) FILTER (WHERE x.complete AND x.f < x.a)::int AS games_lost,
           coalesce(sum(x.f), 0)::int AS points_won,
           coalesce(sum(x.a), 0)::int AS points_lost,
           bool_or(x.f > x.a) FILTER (WHERE x.i = 1 AND x.complete) AS first_won,
           -- extended: the loser reached 20; only under 21-point rally scoring (from 1 Aug 2006)
           count(*) FILTER (WHERE x.complete AND least(x.f, x.a) >= 20 AND x.rally)::int AS ext_played,
           count(*) FILTER (WHERE x.complete AND least(x.f, x.a) >= 20 AND x.rally AND x.f > x.a)::int AS ext_won
    FROM (SELECT i, sd.gf[i] AS f, sd.ga[i] AS a,
                 -- a retired match's last game was left unfinished
                 i <= cardinality(sd.gf) - (m.outcome = 'retired')::int AS complete,
                 coalesce(m.day, t.start_date, make_date(t.year, 1, 1)) >= DATE '2006-08-01' AS rally
          FROM generate_subscripts(sd.gf, 1) AS i) x
) g
WHERE m.status = 'finished' AND m.winner IS NOT NULL;
CREATE INDEX player_match_player ON player_match (player_id, discipline, year);
CREATE INDEX player_match_finals ON player_match (player_id, day DESC) WHERE final;
ANALYZE player_match;
