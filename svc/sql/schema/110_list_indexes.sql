-- Indexes for the newest-first lists (/v1/matches, /v1/tournaments): each list is
-- ordered newest first, so an index in that order lets a page be read without sorting the
-- whole table, and a filter on discipline or round keeps the same order.
CREATE INDEX IF NOT EXISTS matches_newest ON matches (day DESC NULLS LAST, id DESC);
CREATE INDEX IF NOT EXISTS matches_discipline_newest ON matches (discipline, day DESC NULLS LAST, id DESC);
CREATE INDEX IF NOT EXISTS matches_round_newest ON matches (round_code, day DESC NULLS LAST, id DESC);
-- /v1/tournaments/{id}/ties reads a tie's matches in order.
CREATE INDEX IF NOT EXISTS matches_tie ON matches (tie_id, tie_order) WHERE tie_id IS NOT NULL;
-- /v1/tournaments newest first.
CREATE INDEX IF NOT EXISTS tournaments_newest ON tournaments (year DESC, start_date DESC NULLS LAST, id);
-- /v1/venues/{id} and /v1/locations group editions by hall and city.
CREATE INDEX IF NOT EXISTS tournaments_venue ON tournaments (venue_id);
CREATE INDEX IF NOT EXISTS tournaments_city ON tournaments (city_id);
-- /v1/matches?with_odds=true asks, match by match, whether a match-winner price exists.
CREATE INDEX IF NOT EXISTS odds_winner ON odds (match_id) WHERE market = 'winner';
