-- Order of knockout rounds, for "newest first" within a day and for "furthest round reached":
-- R128 = 1 ... SF = 6, bronze match 3P = 7, F = 8; group stages (NULL) = 0.
CREATE OR REPLACE FUNCTION round_rank(code text) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT coalesce(array_position(ARRAY['R128', 'R64', 'R32', 'R16', 'QF', 'SF', '3P', 'F'], code), 0) $$;
