"""The match engine: scoring rules by era, rally-by-rally play and a fast whole-game sampler.

Pure functions over a `random.Random` handed in by the caller, so the generator (which needs
determinism) and the live feed share it (svc/world/feed/play.py plays a match in real time, one rally
at a time, each rally's randomness named by the match and the rally, with these rules and chances).

Scoring eras (world-facts "Scoring by era"; best of three games throughout):

* side-out, until 31 Dec 2001 — MS and doubles to 15; at 13-all the side that reached 13 first
  may set to 5 more (game ends 18-x), at 14-all to 3 more (17-x), or play through to 15.
  WS to 11; setting at 9-all or 10-all to 12, or play through.
* side-out, 1 Jan 2002 – 31 Jul 2006 — to 15 with setting only at 14-all (17-x);
  WS to 11 with setting only at 10-all (13-x).
* rally point, from 1 Aug 2006 — to 21, two clear, capped at 30 (30-29).

Scores accepted by `legal_game` (winner's points w, loser's points l):

========================  ==========================================================
side-out to 15 (1899-)    w=15, 0<=l<=14 · w=18, 13<=l<=17 · w=17, 14<=l<=16
side-out WS (1899-)       w=11, 0<=l<=10 · w=12, 9<=l<=11
side-out to 15 (2002-)    w=15, 0<=l<=14 · w=17, 14<=l<=16
side-out WS (2002-)       w=11, 0<=l<=10 · w=13, 10<=l<=12
rally (Aug 2006-)         w=21, 0<=l<=19 · 22<=w<=30 with l=w-2 · w=30, l=29
========================  ==========================================================
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
import random
from collections.abc import Iterator
from functools import cache, lru_cache
from typing import NamedTuple

import attrs

NEW_SIDEOUT_FROM = dt.date(2002, 1, 1)  # setting only at 14-all / 10-all
# Rally point to 21 from the 2006 Thomas & Uber Cups (28 April - 7 May 2006, Sendai and Tokyo), the
# first event played under it (Wikipedia, "2006 Thomas & Uber Cup": "the first time ... played with a
# three-game 21-point scoring system"); world-facts' "from Aug 2006" was the rule's general adoption.
RALLY_POINT_FROM = dt.date(2006, 4, 28)
GAMES_TO_WIN = 2  # best of three throughout
SET_CHANCE = 0.7  # how often the side entitled to set chooses to (it was the usual choice)
# The match model is calibrated on the real World Tour of 2018-2020 (ops/realism): the share of
# three-game matches, of matches won by the first game's winner, games by margin and deuces,
# per discipline, from three parts:
# - RALLY_SCALE, the logistic scale of rally chances over strength gaps (a gap of 50 gives 55 %
#   of rallies, 150 gives 65 %);
# - FORM_SD, form on the day: each match shifts one side's strength by a draw with this spread,
#   so that some matches are lopsided and others tight beyond what the strengths say (prices
#   and the hidden truth integrate over it: nobody knows the form before the match);
# - SERVE_EDGE, the receiver's edge under rally point: in doubles the server wins only 43-47 %
#   of rallies (MD 43.5, WD 47.2, XD 45.8; singles 49.7), which shortens runs and tightens games.
# - LET_GO, a game given up: a side between `behind` and `lost` (exclusive) points down wins
#   rallies this much less often (players well behind save themselves for the next game; a game
#   lost by more is played out as it comes). With independent rallies alone, real games won by
#   6-10 were too rare and games won by 2 too common in singles and mixed at the right
#   three-game share; in men's and women's doubles they were not.
RALLY_SCALE = 250.0
FORM_SD = {"MS": 42.0, "WS": 68.0, "MD": 40.0, "WD": 78.0, "XD": 58.0}
SERVE_EDGE = {"MS": 0.015, "WS": 0.019, "MD": 0.071, "WD": 0.049, "XD": 0.059}
LET_GO = {"MS": (3, 8, 0.015), "WS": (3, 8, 0.015), "WD": (3, 10, 0.01), "XD": (4, 99, 0.01)}


@attrs.frozen(cache_hash=True)  # a key of the outcome caches, looked up for every game sampled
class Rules:
    """How one game is scored."""

    name: str
    rally_point: bool  # rally point (winner scores) or side-out (only the server scores)
    target: int  # points that win an unset game
    settings: tuple[tuple[int, int], ...] = ()  # (all-score where setting is possible, game end when set)
    cap: int = 0  # rally point: the score that ends a game at all costs

    def game_over(self, a: int, b: int, end: int) -> int:
        """1 or 2 when the game is won at a-b (current end `end`), else 0."""
        if self.rally_point:
            if (a >= self.target or b >= self.target) and abs(a - b) >= 2 or a == self.cap or b == self.cap:
                return 1 if a > b else 2
            return 0
        if a >= end:
            return 1
        if b >= end:
            return 2
        return 0


RALLY = Rules("rally-21", True, 21, cap=30)
SIDEOUT_15 = Rules("sideout-15", False, 15, ((13, 18), (14, 17)))
SIDEOUT_11 = Rules("sideout-11", False, 11, ((9, 12), (10, 12)))
SIDEOUT_15_2002 = Rules("sideout-15-2002", False, 15, ((14, 17),))
SIDEOUT_11_2002 = Rules("sideout-11-2002", False, 11, ((10, 13),))


def era_rules(discipline: str, day: dt.date) -> Rules:
    """The scoring rules for a game of `discipline` played on `day`."""
    if day >= RALLY_POINT_FROM:
        return RALLY
    womens_singles = discipline == "WS"
    if day >= NEW_SIDEOUT_FROM:
        return SIDEOUT_11_2002 if womens_singles else SIDEOUT_15_2002
    return SIDEOUT_11 if womens_singles else SIDEOUT_15


def legal_game(score_w: int, score_l: int, discipline: str, day: dt.date) -> bool:
    """True when a finished game won score_w to score_l is possible under the era's rules."""
    rules = era_rules(discipline, day)
    w, l = score_w, score_l
    if l < 0 or w <= l:
        return False
    if rules.rally_point:
        if w == rules.target:
            return l <= rules.target - 2
        if rules.target < w < rules.cap:
            return l == w - 2
        return w == rules.cap and l in (rules.cap - 2, rules.cap - 1)
    if w == rules.target:
        return l <= rules.target - 1  # target-1 only after playing through a possible setting
    return any(w == end and at <= l <= end - 1 for at, end in rules.settings)


def rally_chance(strength1: float, strength2: float) -> float:
    """Chance that side 1 wins a rally, from the two sides' strengths (on average over who serves)."""
    return 1.0 / (1.0 + math.exp(-(strength1 - strength2) / RALLY_SCALE))


@attrs.frozen(cache_hash=True)  # a key of the outcome caches, as Rules
class Bias:
    """How a rally's chance moves away from the sides' average chance: the server's is `serve`
    lower, and a side from `behind` to `lost` (exclusive) points down in the game wins `let_go`
    less often."""

    serve: float = 0.0
    behind: int = 99
    lost: int = 99
    let_go: float = 0.0

    def chance(self, p1: float, server: int, a: int, b: int) -> float:
        """Side 1's chance to win the next rally at a-b with `server` serving."""
        q = p1 - self.serve if server == 1 else p1 + self.serve
        if self.lost > a - b >= self.behind:
            q += self.let_go
        elif self.lost > b - a >= self.behind:
            q -= self.let_go
        return min(0.999, max(0.001, q))


EVEN = Bias()


@cache  # one per discipline and rules: a match's bias is looked up, not made
def bias(discipline: str, rules: Rules) -> Bias:
    """The discipline's bias under `rules` (rally point only: the side-out eras are left as
    they were generated)."""
    if not rules.rally_point:
        return EVEN
    behind, lost, let_go = LET_GO.get(discipline, (99, 99, 0.0))
    return Bias(SERVE_EDGE.get(discipline, 0.0), behind, lost, let_go)


def form(rng: random.Random, discipline: str) -> float:
    """Side 1's form on the day, as a strength shift (side 2's is the opposite)."""
    return rng.gauss(0.0, FORM_SD.get(discipline, 0.0))


# Gauss-Hermite nodes and weights for an average over a standard normal draw (the probabilists'
# rule, weights summing to 1; 7 points: exact enough for smooth chances, cheap enough to price
# every match).
_GH = (
    (-3.750439717725742, 0.000548268855972),
    (-2.366759410734541, 0.030757123967586),
    (-1.154405394739968, 0.240123178605013),
    (0.0, 0.457142857142857),
    (1.154405394739968, 0.240123178605013),
    (2.366759410734541, 0.030757123967586),
    (3.750439717725742, 0.000548268855972),
)


# --------------------------------------------------------------------------- rally by rally


class Rally(NamedTuple):
    """One rally (a tuple: millions are made for a full world's last twelve months)."""

    game: int  # 1-based
    rally: int  # 1-based within the game
    server: int  # side serving this rally
    winner: int  # side winning it
    score1: int  # score after the rally
    score2: int


def play_rallies(
    rng: random.Random,
    p1: float,
    rules: Rules,
    *,
    first_server: int = 1,
    set_chance: float = SET_CHANCE,
    bias: Bias = EVEN,
) -> Iterator[Rally]:
    """Play a best-of-three match one rally at a time; side 1 wins a rally with chance p1, moved
    by `bias` (who serves, how far behind a side is).

    Side-out: the server scores when winning the rally, otherwise service passes (doubles'
    second server is not modelled). Rally point: the rally's winner scores and serves next.
    The winner of a game serves first in the next.

    Bias.chance and Rules.game_over are written out in the loop (the same arithmetic): this
    runs for every rally of every match that keeps its rallies.
    """
    serve, behind, lost, let_go = bias.serve, bias.behind, bias.lost, bias.let_go
    rally_point, target, cap = rules.rally_point, rules.target, rules.cap
    random_ = rng.random
    won1 = won2 = 0
    server = first_server
    game = 0
    while won1 < GAMES_TO_WIN and won2 < GAMES_TO_WIN:
        game += 1
        a = b = 0
        end = target
        set_done = False
        n = 0
        while True:
            n += 1
            q = p1 - serve if server == 1 else p1 + serve
            if lost > a - b >= behind:
                q += let_go
            elif lost > b - a >= behind:
                q -= let_go
            q = min(0.999, max(0.001, q))
            winner = 1 if random_() < q else 2
            serving = server
            scored = rally_point or winner == server
            if scored:
                if winner == 1:
                    a += 1
                else:
                    b += 1
            server = winner
            if scored and not rally_point and not set_done and a == b:
                for at, set_end in rules.settings:
                    # the side that reached `at` first (not the one that just levelled) may set
                    if a == at and random_() < set_chance:
                        end, set_done = set_end, True
                        break
            yield Rally(game, n, serving, winner, a, b)
            if rally_point:
                done = (
                    (1 if a > b else 2)
                    if (a >= target or b >= target) and abs(a - b) >= 2 or a == cap or b == cap
                    else 0
                )
            else:
                done = 1 if a >= end else 2 if b >= end else 0
            if done:
                if done == 1:
                    won1 += 1
                else:
                    won2 += 1
                server = done
                break


def games_of(rallies: list[Rally]) -> tuple[list[int], list[int]]:
    """g1, g2 from a rally sequence (the last game may be unfinished)."""
    last: dict[int, Rally] = {}
    for r in rallies:
        last[r.game] = r
    g1 = [last[g].score1 for g in sorted(last)]
    g2 = [last[g].score2 for g in sorted(last)]
    return g1, g2


# --------------------------------------------------------------------------- fast path


def point_share(p1: float, rules: Rules) -> float:
    """Chance that the next *point* goes to side 1, treating points as independent.

    Rally point: a point is a rally. Side-out: with a rally chance q, side 1 takes the next
    point while serving with a = q / (1 - q + q^2) and while receiving with q * a (the server
    must first win service back); the fast path uses their mean, close enough for sampling.
    """
    if rules.rally_point:
        return p1
    q = p1
    # a = q / (1 - q + q^2) while serving, q * a while receiving; the two shares sum to 1.
    return q * (1.0 + q) / (2.0 * (1.0 - q + q * q))


_BUCKETS = 400  # point chances are quantised to 1/400 so that outcome tables can be cached


def _bucket(x: float) -> int:
    return min(_BUCKETS - 1, max(1, round(x * _BUCKETS)))


@lru_cache(maxsize=8192)
def _outcomes(
    rules: Rules, bucket: int, set_chance: float, bias: Bias = EVEN, server: int = 1
) -> tuple[list[float], list[tuple[int, int]]]:
    """Exact distribution of final game scores for a point chance bucket / _BUCKETS, moved by
    `bias` (`server` serves first; under rally point the rally's winner serves next). Without a
    serving edge who serves does not matter and is not tracked."""
    p = bucket / _BUCKETS
    finals = _rally_finals(rules, p, bias, server) if rules.rally_point else _sideout_finals(rules, p, set_chance)
    scores = sorted(finals)
    total = sum(finals.values())
    cum, run = [], 0.0
    for s in scores:
        run += finals[s] / total
        cum.append(run)
    cum[-1] = 1.0
    return cum, scores


@cache
def _ends_game(rules: Rules) -> list[list[int]]:
    """Rules.game_over for every rally-point score a-b (indexed [a][b]) up to the cap."""
    return [[rules.game_over(a, b, rules.target) for b in range(rules.cap + 1)] for a in range(rules.cap + 1)]


def _rally_finals(rules: Rules, p: float, bias: Bias, server: int) -> dict[tuple[int, int], float]:
    """Final scores' probabilities of a rally-point game, points played one level at a time
    (flat lists by score, one per server: this runs for every chance bucket and bias, thousands
    of times per world and again in every process that generates). The loop is written out by
    hand, without tuples or calls, but does the same products and sums in the same order as
    stepping each (score, server) in turn, so its floats are the same to the last bit."""
    cap = rules.cap
    track = bool(bias.serve)  # without a serving edge who serves is not tracked (all on side 1's list)
    finals: dict[tuple[int, int], float] = {}
    # side 1's rally chance by lead (index lead + cap) with side 1 / side 2 serving (Bias.chance)
    chance1 = [bias.chance(p, 1, max(lead, 0), max(-lead, 0)) for lead in range(-cap, cap + 1)]
    chance2 = [bias.chance(p, 2, max(lead, 0), max(-lead, 0)) for lead in range(-cap, cap + 1)]
    over = _ends_game(rules)  # whether a score ends the game (Rules.game_over)
    cur1 = [0.0] * (cap + 1)  # mass at a-b (a + b = n), side 1 serving (or untracked)
    cur2 = [0.0] * (cap + 1)  # the same, side 2 serving
    (cur2 if track and server == 2 else cur1)[0] = 1.0
    tiny = 1e-12  # paths less likely than this are dropped
    get = finals.get
    for n in range(2 * cap):
        nxt1 = [0.0] * (cap + 1)
        nxt2 = [0.0] * (cap + 1) if track else nxt1
        for a in range(max(0, n - cap), min(n, cap) + 1):
            b = n - a
            mass = cur1[a]
            if mass != 0.0:
                q = chance1[a - b + cap]
                m = mass * q
                if m >= tiny:
                    if over[a + 1][b]:
                        finals[(a + 1, b)] = get((a + 1, b), 0.0) + m
                    else:
                        nxt1[a + 1] += m
                m = mass * (1.0 - q)
                if m >= tiny:
                    if over[a][b + 1]:
                        finals[(a, b + 1)] = get((a, b + 1), 0.0) + m
                    else:
                        nxt2[a] += m
            if track:
                mass = cur2[a]
                if mass != 0.0:
                    q = chance2[a - b + cap]
                    m = mass * q
                    if m >= tiny:
                        if over[a + 1][b]:
                            finals[(a + 1, b)] = get((a + 1, b), 0.0) + m
                        else:
                            nxt1[a + 1] += m
                    m = mass * (1.0 - q)
                    if m >= tiny:
                        if over[a][b + 1]:
                            finals[(a, b + 1)] = get((a, b + 1), 0.0) + m
                        else:
                            nxt2[a] += m
        cur1, cur2 = nxt1, nxt2
    return finals


def _sideout_finals(rules: Rules, p: float, set_chance: float) -> dict[tuple[int, int], float]:
    """Final scores' probabilities of a side-out game (points as independent, with setting)."""
    # state: (a, b, end, set_done) -> probability; processed in order of points played
    frontier: dict[tuple[int, int, int, bool], float] = {(0, 0, rules.target, False): 1.0}
    finals: dict[tuple[int, int], float] = {}
    while frontier:
        nxt: dict[tuple[int, int, int, bool], float] = {}
        for (a, b, end, set_done), mass in frontier.items():
            for who, share in ((1, p), (2, 1.0 - p)):
                na, nb = (a + 1, b) if who == 1 else (a, b + 1)
                m = mass * share
                if m < 1e-12:
                    continue
                branches = [((end, set_done), m)]
                if not set_done and na == nb:
                    for at, set_end in rules.settings:
                        if na == at:
                            branches = [((set_end, True), m * set_chance), ((end, False), m * (1 - set_chance))]
                            break
                for (e2, sd), bm in branches:
                    if rules.game_over(na, nb, e2):
                        finals[(na, nb)] = finals.get((na, nb), 0.0) + bm
                    else:
                        key = (na, nb, e2, sd)
                        nxt[key] = nxt.get(key, 0.0) + bm
        frontier = nxt
    return finals


def sample_game(
    rng: random.Random,
    point_p1: float,
    rules: Rules,
    set_chance: float = SET_CHANCE,
    bias: Bias = EVEN,
    server: int = 1,
) -> tuple[int, int]:
    """One finished game's score (side 1, side 2) without simulating every rally."""
    cum, scores = _outcomes(rules, _bucket(point_p1), set_chance, bias, server if bias.serve else 1)
    return scores[bisect.bisect_left(cum, rng.random())]


def sample_match(rng: random.Random, p1: float, rules: Rules, bias: Bias = EVEN) -> tuple[list[int], list[int], int]:
    """A whole best-of-three match (g1, g2, winner) from side 1's rally chance p1, moved by
    `bias`; a toss decides who serves first, a game's winner serves the next."""
    pp = point_share(p1, rules)
    server = rng.choice((1, 2)) if bias.serve else 1
    g1: list[int] = []
    g2: list[int] = []
    won = [0, 0]
    while max(won) < GAMES_TO_WIN:
        a, b = sample_game(rng, pp, rules, bias=bias, server=server)
        g1.append(a)
        g2.append(b)
        won[0 if a > b else 1] += 1
        server = 1 if a > b else 2
    return g1, g2, 1 if won[0] > won[1] else 2


@lru_cache(maxsize=16384)
def _game_chance(rules: Rules, bucket: int, bias: Bias) -> float:
    """Side 1's chance to win a game, from the exact score distribution, over who serves first."""
    servers = (1, 2) if bias.serve else (1,)
    total = 0.0
    for server in servers:
        cum, scores = _outcomes(rules, bucket, SET_CHANCE, bias, server)
        prev = 0.0
        for c, (a, b) in zip(cum, scores):
            if a > b:
                total += c - prev
            prev = c
    return total / len(servers)


def game_chance(point_p1: float, rules: Rules, bias: Bias = EVEN) -> float:
    return _game_chance(rules, _bucket(point_p1), bias)


def match_chance(gap: float, rules: Rules, discipline: str) -> tuple[float, float]:
    """Side 1's chance to win the match and a game, before it, from the strength gap (side 1's
    less side 2's): averaged over the form on the day, with the discipline's bias."""
    b = bias(discipline, rules)
    sd = FORM_SD.get(discipline, 0.0)
    nodes = _GH if sd else ((0.0, 1.0),)
    match = game = 0.0
    for x, w in nodes:  # one game chance per node serves both averages
        pg = game_chance(point_share(rally_chance(gap + x * sd, 0.0), rules), rules, b)
        game += w * pg
        match += w * pg * pg * (3 - 2 * pg)
    return match, game


def partial_game(rng: random.Random, point_p1: float, rules: Rules) -> tuple[int, int]:
    """An unfinished game's score (for a retirement): a finished game cut short."""
    a, b = sample_game(rng, point_p1, rules)
    f = rng.uniform(0.1, 0.6)
    return int(a * f), int(b * f)


def match_minutes(g1: list[int], g2: list[int], rules: Rules, rng: random.Random) -> int:
    """Duration of a match in minutes (25-90): longer with more points; side-out has more rallies."""
    points = sum(g1) + sum(g2)
    rallies = points if rules.rally_point else points * 1.8
    return int(max(25, min(90, 10 + rallies * 0.45 + rng.uniform(-5, 8))))
