-- Editions a calendar lists but that were cancelled (not played): the real world's calendar
-- (public BWF data) marks them; generated worlds have none. Bundles may leave the column out
-- (docs/bundle.md: an optional column at the end of tournaments.csv).
ALTER TABLE tournaments ADD COLUMN IF NOT EXISTS cancelled boolean NOT NULL DEFAULT false;
