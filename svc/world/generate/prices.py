"""Bookmaker prices: which editions are priced, opening and closing prices of several
bookmakers for the match-winner, handicap and total markets, and the one function that turns
a chance into a pair of decimal prices -- before a match and in play alike."""

from __future__ import annotations

import math
import random
from typing import Protocol

from svc.world import engine
from svc.world.generate.calendar import BIG_TIERS, Edition
from svc.world.generate.scales import Scale

BOOKMAKERS = ("Northbet", "Shuttlebook", "Feather & Co", "Smashline", "Netcord Bet", "Drop Shot")
ODDS_FROM = 2005


def priced(ed: Edition, scale: Scale) -> bool:
    """Whether the bookmakers price this edition's matches."""
    return (
        ed.play_year >= ODDS_FROM
        and not ed.series.para
        and not ed.series.team
        and ed.series.level == "senior"
        and (
            not scale.odds_tiers_only
            or ed.tier in BIG_TIERS
            or ed.series.kind in ("worlds", "olympics")
            or ed.state != "past"
        )
    )


# The chances a bookmaker quotes within: before a match no price is shorter than about 1.02
# (1 / (0.91 * 1.08) at an 8 % margin); in play a decided match still quotes 1.01 and the long
# side's price grows with the lead.
PRE_MATCH = (0.09, 0.91)
IN_PLAY = (0.015, 0.985)
SHORTEST = 1.01  # no bookmaker pays less than one cent on the unit


def prices(chance: float, margin: float, bounds: tuple[float, float] = PRE_MATCH) -> tuple[float, float]:
    """Decimal prices of side 1 and side 2 for side 1's `chance` (held within `bounds`), with
    1/price1 + 1/price2 = 1 + margin before the cents: each price is cut down to the cent, as a
    bookmaker rounds (rounding up could leave less than the margin it takes)."""
    c = min(bounds[1], max(bounds[0], chance))
    return (
        max(SHORTEST, _cents_down(1 / (c * (1 + margin)))),
        max(SHORTEST, _cents_down(1 / ((1 - c) * (1 + margin)))),
    )


def _cents_down(price: float) -> float:
    return math.floor(price * 100 + 1e-9) / 100


class Priceable(Protocol):
    """What the odds of a match are made from: a generated Match, or its summary from another process."""

    @property
    def id(self) -> str: ...
    @property
    def s1(self) -> float: ...
    @property
    def s2(self) -> float: ...
    @property
    def rules(self) -> engine.Rules: ...
    @property
    def disc(self) -> str: ...
    @property
    def status(self) -> str: ...


def odds_rows(rng: random.Random, m: Priceable) -> list[tuple]:
    """Opening and closing prices of every bookmaker for the winner market, and line markets for two.

    One stream of draws runs through every priced match of a world, so this runs in one process
    for all of them: `prices` is written out in `_pair` and the draws' methods are bound once."""
    truth, pg = engine.match_chance(m.s1 - m.s2, m.rules, m.disc)
    logit = math.log(truth / (1 - truth)) if 0 < truth < 1 else (8 if truth >= 1 else -8)
    settled = m.status == "finished"
    gauss, uniform, exp = rng.gauss, rng.uniform, math.exp
    open_view = logit + gauss(0, 0.35)
    close_view = logit + gauss(0, 0.12) if settled else open_view

    rows = []
    mid = m.id
    points_per_game = 36.0 if m.rules.rally_point else 24.0
    exp_games = 2 + 2 * pg * (1 - pg)
    # the line markets' chances, the same for both bookmakers that quote them (no draws in them)
    fav1 = truth >= 0.5
    line_games = -1.5 if fav1 else 1.5
    cover_games = pg * pg if fav1 else 1 - (1 - pg) ** 2
    over_games = 2 * pg * (1 - pg)
    diff = (2 * engine.point_share(engine.rally_chance(m.s1, m.s2), m.rules) - 1) * points_per_game * exp_games
    line_points = math.floor(-diff) + 0.5
    cover_points = 1 / (1 + exp(-((diff + line_points) / 6.0)))
    total = points_per_game * exp_games
    line_total = math.floor(total) + 0.5
    for b_i, book in enumerate(BOOKMAKERS[:5]):
        margin = uniform(0.03, 0.08)
        o1, o2 = _pair(1 / (1 + exp(-(open_view + gauss(0, 0.05)))), 1 + margin)
        c1, c2 = _pair(1 / (1 + exp(-(close_view + gauss(0, 0.03)))), 1 + margin) if settled else (o1, o2)
        rows.append((mid, book, "winner", None, o1, o2, c1, c2))
        if b_i >= 2:
            continue
        over_points = 1 / (1 + exp(-((total - line_total) / 8.0 + gauss(0, 0.05))))
        for market, line, chance in (
            ("handicap_games", line_games, cover_games),
            ("handicap_points", line_points, cover_points),
            ("total_games", 2.5, over_games),
            ("total_points", line_total, over_points),
        ):
            o1, o2 = _pair(chance + gauss(0, 0.03), 1 + margin)
            c1, c2 = _pair(chance + gauss(0, 0.01), 1 + margin) if settled else (o1, o2)
            rows.append((mid, book, market, line, o1, o2, c1, c2))
    return rows


def _pair(chance: float, with_margin: float) -> tuple[float, float]:
    """prices(chance, with_margin - 1) before a match, the same arithmetic without the calls."""
    c = 0.09 if chance < 0.09 else 0.91 if chance > 0.91 else chance
    p1 = math.floor(1 / (c * with_margin) * 100 + 1e-9) / 100
    p2 = math.floor(1 / ((1 - c) * with_margin) * 100 + 1e-9) / 100
    return (p1 if p1 > SHORTEST else SHORTEST), (p2 if p2 > SHORTEST else SHORTEST)
