"""The own rating: an Elo-style rating per player and discipline with a Glicko-style
deviation, computed from results only.

How a day is rated (a "rating period" of one day):
- Before the day each player's variance grows with the days since they last played
  (`drift` squared per day, capped at the newcomer's), so a long absence makes the next
  results count more.
- Every match of the day is predicted from the ratings as they stood at the start of the
  day; its update is computed from those start-of-day values and the day's updates are
  summed. The day's result therefore does not depend on the order its matches finished in,
  which lets the live feed add a match at a time and land where a full rebuild lands.
- A side's rating is its players' mean plus, in doubles, the pair's own term (an offset
  learnt for the pair as such, `pair_k`; 0 switches it off). Each player moves by their own
  Glicko gain times (result - expected), the expected chance damped by the opponents'
  deviation (Glicko's g).
- The result is 1/0 mixed with the match's point share turned into a chance (`margin_weight`,
  `margin_slope`): winning 21-5, 21-4 says more than winning 22-20 in the third. Retirements
  count as 1/0 only; walkovers are not rated.
- A newcomer starts at the level they enter at: the mean rating of the established players
  (`established` matches or more) in the same draw as rated at its first day, less
  `entry_offset`; a player new to this discipline but rated in another starts between that
  and their other rating, scaled by `carry`.
- Home edge: `home_edge` points for a side whose players all come from the host country
  (None when the held-out test found none; then 0).

Everything is pure and deterministic: `svc.rating.history` runs it over the archive and
stores the days; `svc.api.predict` and `ops/eval` use the same functions.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import attrs

Q = math.log(10) / 400  # Elo's scale: 400 points = odds of 10 to 1
INITIAL = 1500.0  # the first rating of a draw with no established player


@attrs.frozen
class Settings:
    """The model's settings, fitted on training seasons (ops/eval); `version` names them."""

    version: str = "elo-glicko-1"
    trained_to: int | None = None  # the last season the settings were fitted on; later ones are held out
    initial_deviation: float = 220.0
    min_deviation: float = 45.0
    drift: float = 2.2  # rating points of deviation gained per day, squared per day
    margin_weight: float = 0.3
    margin_slope: float = 12.0  # point share 0.5 + x -> chance sigmoid(slope * x)
    pair_k: float = 0.0
    points: float = 0.0  # weight of each rally won or lost, as evidence beside the result
    point_scale: float = 3.0  # rating points per rating point of rally chance (a rally is closer than a match)
    entry_offset: float = 100.0
    carry: float = 0.5
    established: int = 10
    home_edge: float | None = None
    decider: tuple[float, float, float] = (0.0, 1.0, 0.0)  # intercept, rating logit, point difference


@attrs.define
class Standing:
    rating: float
    variance: float
    matches: int
    last: object  # date of the last day rated


@attrs.frozen
class Result:
    """One finished match as the model sees it."""

    day: object
    draw: str  # tournament id and discipline: the field a newcomer enters
    discipline: str
    side1: tuple[str, ...]
    side2: tuple[str, ...]
    winner: int
    points1: int = 0
    points2: int = 0
    retired: bool = False
    home: int = 0  # +1 side 1 at home, -1 side 2 at home, 0 neither or both


@attrs.frozen
class Forecast:
    """Side 1's chance before a match, and the two sides' ratings it came from."""

    chance: float
    rating1: float
    rating2: float


def variance_on(s: Settings, variance: float, last, day) -> float:
    """A standing's variance on `day` when it was last rated on `last`: it grows by drift squared
    a day while the player rests, up to a newcomer's."""
    gap = (day - last).days if last is not None else 0
    return min(s.initial_deviation**2, variance + s.drift**2 * max(0, gap))


def rated(outcome: str | None) -> bool:
    """Walkovers say nothing about the players' level; every other finished match is rated."""
    return outcome != "walkover"


def expected(diff: float, variance: float = 0.0) -> float:
    """Chance of the side `diff` points better, damped by the opponents' variance (Glicko g)."""
    g = 1 / math.sqrt(1 + 3 * Q * Q * variance / (math.pi**2))
    return 1 / (1 + math.exp(-Q * g * diff))


def margin_score(s: Settings, winner: int, points1: int, points2: int, retired: bool) -> float:
    """Side 1's result between 0 and 1: the win mixed with its point share."""
    won = 1.0 if winner == 1 else 0.0
    total = points1 + points2
    if retired or total == 0 or s.margin_weight == 0:
        return won
    share = points1 / total - 0.5
    return (1 - s.margin_weight) * won + s.margin_weight / (1 + math.exp(-s.margin_slope * share))


def decider_chance(s: Settings, match_chance: float, points1: int, points2: int) -> float:
    """Side 1's chance of winning the third game at one game all, from the pre-match chance
    and the points of the first two games (a logistic fitted on training seasons)."""
    p = min(1 - 1e-9, max(1e-9, match_chance))
    a, b, c = s.decider
    return 1 / (1 + math.exp(-(a + b * math.log(p / (1 - p)) + c * (points1 - points2))))


class Ratings:
    """The ratings of every player in every discipline, advanced a day at a time."""

    def __init__(self, s: Settings, keep_days: bool = False):
        self.s = s
        # with keep_days: (player, discipline) -> every day rated, as (day, rating, variance, matches) after it
        self.days: dict[tuple[str, str], list[tuple]] | None = defaultdict(list) if keep_days else None
        self.players: dict[tuple[str, str], Standing] = {}
        self.pairs: dict[tuple[str, str, str], float] = {}
        self.entry: dict[str, float] = {}  # draw -> entry level
        self.disciplines: dict[str, set[str]] = defaultdict(set)  # player -> disciplines rated

    def load(self, rows: Iterable[Any]) -> None:
        """Takes standings stored as rating_days rows (player_id, discipline, day, rating, variance, matches)."""
        for r in rows:
            self.players[(r["player_id"], r["discipline"])] = Standing(
                r["rating"], r["variance"], r["matches"], r["day"]
            )
            self.disciplines[r["player_id"]].add(r["discipline"])

    # -- reading -------------------------------------------------------------------------
    def variance_on(self, st: Standing, day) -> float:
        return variance_on(self.s, st.variance, st.last, day)

    def standing(self, player: str, discipline: str, day, draw: str | None = None) -> Standing:
        """The player's standing at the start of `day` (a newcomer's first, entering `draw`)."""
        got = self.players.get((player, discipline))
        if got is not None:
            return Standing(got.rating, self.variance_on(got, day), got.matches, got.last)
        return Standing(self.first_rating(player, discipline, draw), self.s.initial_deviation**2, 0, None)

    def first_rating(self, player: str, discipline: str, draw: str | None) -> float:
        base = self.entry.get(draw, INITIAL) if draw is not None else INITIAL
        others = (
            [
                st
                for d in sorted(self.disciplines.get(player, ()))  # sorted: ties go the same way in every process
                if d != discipline and (st := self.players[(player, d)]).matches >= self.s.established
            ]
            if self.s.carry
            else []
        )
        if not others:
            return base
        best = max(others, key=lambda st: st.matches)
        return base + self.s.carry * (best.rating - base)

    def side(self, players: Iterable[str], discipline: str, day, draw: str | None = None) -> tuple[float, float]:
        """A side's rating and variance at the start of `day` (doubles: the mean, plus the pair term)."""
        sts = [self.standing(p, discipline, day, draw) for p in players]
        rating, variance = _side([[st.rating, st.variance] for st in sts])
        if len(sts) == 2 and self.s.pair_k:
            rating += self.pairs.get(_pair(players, discipline), 0.0)
        return rating, variance

    def chance(self, side1, side2, discipline: str, day, home: int = 0) -> float:
        r1, v1 = self.side(side1, discipline, day)
        r2, v2 = self.side(side2, discipline, day)
        edge = (self.s.home_edge or 0.0) * home
        return expected(r1 - r2 + edge, v1 + v2)

    # -- advancing -------------------------------------------------------------------------
    def set_entry(self, draw: str, players: Iterable[str], discipline: str, day) -> None:
        """The level a newcomer enters `draw` at, from its established players at its first day."""
        if draw in self.entry:
            return
        known = [
            self.players[(p, discipline)].rating
            for p in sorted(set(players))  # sorted: a set's order, and so the sum's last bit, changes between processes
            if (p, discipline) in self.players and self.players[(p, discipline)].matches >= self.s.established
        ]
        self.entry[draw] = (sum(known) / len(known) - self.s.entry_offset) if known else INITIAL

    def rate_day(self, day, results: list[Result]) -> list[Forecast]:
        """Rate one day's matches; returns what was expected of each before the day.

        The archive's rebuild runs this for every match ever played (twice when a home edge is
        fitted), so it is written for speed: a player's start-of-day standing and what the day adds
        to it are one list, the constants of Glicko's g and gain are taken out of the loop, and
        Python's left-to-right arithmetic is kept term by term so the numbers are those of the
        formulas in the module's description, bit for bit."""
        s = self.s
        pair_k, edge_points, rallies = s.pair_k, s.home_edge or 0.0, s.points
        qq, g_scale = Q * Q, 3 * Q * Q  # as `Q * Q * ...` and `3 * Q * Q * ...` evaluate them
        pi2 = math.pi**2
        # (player, discipline) -> [start-of-day rating, variance, matches; the day's rating change, information, played]
        start: dict[tuple[str, str], list] = {}
        for r in results:
            for p in r.side1 + r.side2:
                key = (p, r.discipline)
                if key not in start:
                    begun = self.standing(p, r.discipline, day, r.draw)
                    start[key] = [begun.rating, begun.variance, begun.matches, 0.0, 0.0, 0]
        pair_delta: dict[tuple[str, str, str], float] = defaultdict(float)  # applied after the day, like the ratings
        chances = []
        for r in results:
            d = r.discipline
            side1 = [start[(p, d)] for p in r.side1]
            side2 = [start[(p, d)] for p in r.side2]
            r1, v1 = _side(side1)
            r2, v2 = _side(side2)
            if pair_k:
                if len(side1) == 2:
                    r1 += self.pairs.get(_pair(r.side1, d), 0.0)
                if len(side2) == 2:
                    r2 += self.pairs.get(_pair(r.side2, d), 0.0)
            edge = edge_points * r.home
            p1 = expected(r1 - r2 + edge, v1 + v2)
            chances.append(Forecast(p1, r1, r2))
            y1 = margin_score(s, r.winner, r.points1, r.points2, r.retired)
            for side, v_opp, surprise, p_side in ((side1, v2, y1 - p1, p1), (side2, v1, p1 - y1, 1 - p1)):
                g = 1 / math.sqrt(1 + g_scale * v_opp / pi2)
                gain = qq * g * g * p_side * (1 - p_side)
                for st in side:
                    st[3] += Q * g * surprise / (1 / st[1] + gain)
                    st[4] += gain
                    st[5] += 1
            if pair_k:
                for names, surprise in ((r.side1, y1 - p1), (r.side2, p1 - y1)):
                    if len(names) == 2:
                        pair_delta[_pair(names, d)] += pair_k * surprise
            total = r.points1 + r.points2
            if rallies and total and not r.retired:
                # each rally is (nearly) a coin weighted by the rating difference, on a flatter scale
                qr = Q / s.point_scale
                e1 = 1 / (1 + math.exp(-qr * (r1 - r2 + edge)))
                n = rallies * total
                gain = n * qr * qr * e1 * (1 - e1)
                for side, surprise in ((side1, r.points1 / total - e1), (side2, e1 - r.points1 / total)):
                    for st in side:
                        st[3] += qr * n * surprise / (1 / st[1] + gain)
                        st[4] += gain
        floor = s.min_deviation**2
        kept = self.days
        for key, (rating, variance, matches, delta, info, played) in start.items():
            self.disciplines[key[0]].add(key[1])
            after = Standing(rating + delta, max(floor, 1 / (1 / variance + info)), matches + played, day)
            self.players[key] = after
            if kept is not None:
                kept[key].append((day, after.rating, after.variance, after.matches))
        for pair, change in pair_delta.items():
            self.pairs[pair] = self.pairs.get(pair, 0.0) + change
        return chances


def _side(standings: list[list]) -> tuple[float, float]:
    """A side's rating (its players' mean) and variance (the mean's) from start-of-day standings."""
    if len(standings) == 1:
        return standings[0][0], standings[0][1]
    n = len(standings)
    return sum([st[0] for st in standings]) / n, sum([st[1] for st in standings]) / n**2


def _pair(players: Iterable[str], discipline: str) -> tuple[str, str, str]:
    a, b = sorted(players)
    return a, b, discipline
