-- A player's opponents are counted on request from player_match (svc/sql/queries/player_record/
-- opponents.sql) instead of a derived table of every pair: on the full scale that table held
-- 17.9 M rows and took 119 s of a 565 s import (ops/bench/world_import), against a request that
-- reads one player's rows of player_match (1.9 ms on average, 7 ms for the busiest player). The
-- table an earlier import made is dropped here; no import makes it again.
DROP TABLE IF EXISTS player_opponents;
