"""Playing one match forward, rally by rally, with the generator's match engine (pure
functions; the feed does the database side).

Each rally's randomness is named by the match and the rally's number, so the same match
replayed from the same state (a restarted feed, a catch-up) plays out the same way.
"""

from __future__ import annotations

import datetime as dt
import math
from functools import lru_cache

import attrs

from svc.world import engine
from svc.world.generate.ids import sub_rng

RALLY_S = (22.0, 44.0)  # seconds from one rally to the next: ~33 s, as the generator's durations
GAME_BREAK_S = 90.0  # interval between games (the laws allow 120 s; play resumes a little sooner)
SLIP_RATE = 0.03  # results published with a slip in one game's score, corrected later
CORRECT_AFTER_MIN = (10, 40)  # minutes from the slip to its correction


@attrs.define
class Play:
    """A match in play: games so far (the last is in play), who serves, the next rally's time."""

    match_id: str
    g1: list[int]
    g2: list[int]
    server: int
    rally_no: int  # rallies played over the whole match
    rally_in_game: int  # rallies played in the game in play
    next_at: dt.datetime
    winner: int | None = None
    ended_at: dt.datetime | None = None
    # new ones: game, rally, server, winner, a, b
    rallies: list[tuple[int, int, int, int, int, int]] = attrs.field(factory=list)

    @property
    def games_won(self) -> tuple[int, int]:
        done = list(zip(self.g1, self.g2))[:-1] if self.winner is None else list(zip(self.g1, self.g2))
        return sum(a > b for a, b in done), sum(b > a for a, b in done)


def play_until(st: Play, p1: float, rules: engine.Rules, t: dt.datetime, bias: engine.Bias = engine.EVEN) -> None:
    """Play every rally due by `t` (stops when the match is won); side 1's rally chance is p1
    moved by `bias` (who serves, how far behind a side is), as in the generator."""
    while st.winner is None and st.next_at <= t:
        if not st.g1:
            st.g1, st.g2 = [0], [0]
        rng = sub_rng(st.match_id, st.rally_no)
        won = 1 if rng.random() < bias.chance(p1, st.server, st.g1[-1], st.g2[-1]) else 2
        serving = st.server
        if rules.rally_point or won == serving:
            if won == 1:
                st.g1[-1] += 1
            else:
                st.g2[-1] += 1
        st.server = won
        st.rally_no += 1
        st.rally_in_game += 1
        a, b = st.g1[-1], st.g2[-1]
        st.rallies.append((len(st.g1), st.rally_in_game, serving, won, a, b))
        at = st.next_at
        st.next_at = at + dt.timedelta(seconds=rng.uniform(*RALLY_S))
        game = rules.game_over(a, b, rules.target)
        if game:
            w1, w2 = (sum(x > y for x, y in zip(st.g1, st.g2)), sum(y > x for x, y in zip(st.g1, st.g2)))
            if max(w1, w2) >= engine.GAMES_TO_WIN:
                st.winner, st.ended_at = (1 if w1 > w2 else 2), at
                return
            st.g1.append(0)
            st.g2.append(0)
            st.rally_in_game = 0
            st.server = game  # the winner of a game serves first in the next
            st.next_at += dt.timedelta(seconds=GAME_BREAK_S)


# -- prices ------------------------------------------------------------------------


@lru_cache(maxsize=200_000)
def _game_from(bucket: int, a: int, b: int) -> float:
    """Chance side 1 wins a rally-point game from a-b, with point chance bucket/400."""
    p = bucket / 400
    over = engine.RALLY.game_over(a, b, engine.RALLY.target)
    if over:
        return 1.0 if over == 1 else 0.0
    if a == b and a >= 20:  # deuce: two points in a row decide (the cap at 30 is left out)
        return p * p / (p * p + (1 - p) * (1 - p))
    return p * _game_from(bucket, a + 1, b) + (1 - p) * _game_from(bucket, a, b + 1)


def match_chance(st: Play, p1: float) -> float:
    """Side 1's chance to win the match from the state of play (rally-point scoring)."""
    bucket = min(399, max(1, round(p1 * 400)))
    g = _game_from(bucket, 0, 0)
    now = _game_from(bucket, st.g1[-1], st.g2[-1]) if st.g1 else g
    w1, w2 = st.games_won
    if (w1, w2) == (1, 1):
        return now
    if (w1, w2) == (1, 0):
        return now + (1 - now) * g
    if (w1, w2) == (0, 1):
        return now * g
    return now * (g + (1 - g) * g) + (1 - now) * g * g


# The bookmakers' belief about the form on the day (engine.FORM_SD), on a grid of this many
# points over four spreads either side: fine enough that the price moves rally by rally.
FORM_GRID = 41


def in_play_chance(st: Play, gap: float, discipline: str) -> float:
    """Side 1's chance to win from the state of play as the bookmakers see it. Before the match
    nobody knows the form on the day (the pre-match price averages over it, engine.match_chance);
    every rally played tells a little more of it. Averaged over the form, weighed by how likely
    it makes the rallies won so far, the price starts where the pre-match price stood and follows
    the score: no jump to certainty at the first lead, and no price that stops moving."""
    sd = engine.FORM_SD.get(discipline, 0.0)
    won1, won2 = sum(st.g1), sum(st.g2)  # rally point: every rally is a point to one side
    grid = [(-4.0 + 8.0 * k / (FORM_GRID - 1)) for k in range(FORM_GRID)] if sd else [0.0]
    logs, chances = [], []
    for x in grid:
        p = engine.rally_chance(gap + x * sd, 0.0)
        logs.append(-x * x / 2 + won1 * math.log(p) + won2 * math.log(1 - p))
        chances.append(match_chance(st, p))
    top = max(logs)
    weights = [math.exp(v - top) for v in logs]
    return sum(w * c for w, c in zip(weights, chances)) / sum(weights)


@lru_cache(maxsize=4096)
def market_gap(chance: float, discipline: str) -> float:
    """The strength gap a pre-match chance stands for (engine.match_chance inverted): in play the
    bookmakers go on from their own closing price, not from the strengths they never knew."""
    lo, hi = -2000.0, 2000.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if engine.match_chance(mid, engine.RALLY, discipline)[0] < chance:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def slip(match_id: str, g1: list[int], g2: list[int]) -> tuple[list[int], list[int]] | None:
    """Now and then the published score has a one-point slip in a game won 21-x (it stays a
    legal score); None when this result is published right."""
    rng = sub_rng(match_id, "slip")
    if rng.random() >= SLIP_RATE:
        return None
    for k in range(len(g1)):
        w, l = max(g1[k], g2[k]), min(g1[k], g2[k])
        if w == 21 and l <= 18:
            s1, s2 = list(g1), list(g2)
            if g1[k] < g2[k]:
                s1[k] += 1
            else:
                s2[k] += 1
            return s1, s2
    return None
