-- Plan limits, written from the code's table at every start (svc/access/plans.py), so the
-- counting statement can read them in the same round trip.
CREATE TABLE IF NOT EXISTS plans (
    name        text PRIMARY KEY,
    rank        integer NOT NULL,
    per_minute  integer NOT NULL,
    per_day     integer NOT NULL
);
