"""A betting strategy run over every settled match with closing prices: /v1/backtest (Odds plan).

Each strategy backs at most one side of a match, one unit at that side's average closing
price (as the results feed shows it, to the cent): favourite (the shorter price), outsider
(the longer), seeded and unseeded (only where exactly one side is seeded), steam (the side
whose price shortened more from opening to closing: the side the market moved to) and drift
(the other). Ties back nothing. Walkovers are not settled bets."""

from __future__ import annotations

import math
from typing import Any

import attrs

from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import ROUND_CODES, check_range, discipline_param, param, year_param

STRATEGIES = ("favourite", "outsider", "seeded", "unseeded", "steam", "drift")
Z95 = 1.96  # a 95 % interval of a sum of independent bets (normal approximation)


@attrs.frozen
class BacktestParams:
    strategy: str = param("favourite, outsider, seeded, unseeded, steam (the side the market moved to) or drift.",
                          required=True, enum=STRATEGIES)
    discipline: str | None = discipline_param()
    round: str | None = param("Only matches of this round (round codes).", enum=ROUND_CODES, upper=True)
    from_: int | None = year_param("First year (tournament year), inclusive.", wire="from")
    to: int | None = year_param("Last year, inclusive.")
    min_price: float | None = param("Lowest average closing price backed (decimal, e.g. 1.5).", minimum=1.01, maximum=1000)
    max_price: float | None = param("Highest average closing price backed.", minimum=1.01, maximum=1000)


@attrs.frozen
class Backtest:
    strategy: str
    bets: int = attrs.field(metadata=doc("matches backed"))
    wins: int
    strike_rate: float | None = attrs.field(metadata=doc("wins / bets"))
    expected_strike_rate: float | None = attrs.field(metadata=doc(
        "mean margin-free closing chance of the sides backed: the strike rate the market expected"))
    expected_interval: list[float] | None = attrs.field(metadata=doc(
        "95 % interval of the strike rate if the market's chances were right"))
    distance_from_chance: float | None = attrs.field(metadata=doc("strike_rate - expected_strike_rate"))
    profit: float = attrs.field(metadata=doc("units won or lost, one unit a bet at the average closing price"))
    return_per_unit: float | None = attrs.field(metadata=doc("profit / bets (-0.05 = lost 5 % of the stakes)"))
    average_price: float | None = attrs.field(metadata=doc("mean closing price backed"))
    worst_run: int = attrs.field(metadata=doc("longest run of lost bets in date order"))


def pick(strategy: str, r: Any) -> int | None:
    """The side (1 or 2) the strategy backs in a match, or None."""
    c1, c2 = r["close1"], r["close2"]
    if strategy in ("favourite", "outsider"):
        if c1 == c2:
            return None
        favourite = 1 if c1 < c2 else 2
        return favourite if strategy == "favourite" else 3 - favourite
    if strategy in ("seeded", "unseeded"):
        if r["seeded1"] == r["seeded2"]:
            return None
        seeded = 1 if r["seeded1"] else 2
        return seeded if strategy == "seeded" else 3 - seeded
    move1, move2 = c1 / r["open1"], c2 / r["open2"]  # below 1: the price shortened
    if move1 == move2:
        return None
    steam = 1 if move1 < move2 else 2
    return steam if strategy == "steam" else 3 - steam


def run(strategy: str, rows: list[Any], min_price: float | None, max_price: float | None) -> Backtest:
    bets = wins = run_now = worst = 0
    profit = chance_sum = variance = price_sum = 0.0
    for r in rows:
        side = pick(strategy, r)
        if side is None:
            continue
        price = r["close1"] if side == 1 else r["close2"]
        if (min_price is not None and price < min_price) or (max_price is not None and price > max_price):
            continue
        chance = r["chance1"] if side == 1 else 1 - r["chance1"]
        bets += 1
        price_sum += price
        chance_sum += chance
        variance += chance * (1 - chance)
        if r["winner"] == side:
            wins += 1
            profit += price - 1
            run_now = 0
        else:
            profit -= 1
            run_now += 1
            worst = max(worst, run_now)
    if not bets:
        return Backtest(strategy=strategy, bets=0, wins=0, strike_rate=None, expected_strike_rate=None,
                        expected_interval=None, distance_from_chance=None, profit=0.0, return_per_unit=None,
                        average_price=None, worst_run=0)
    expected = chance_sum / bets
    half = Z95 * math.sqrt(variance) / bets
    return Backtest(strategy=strategy, bets=bets, wins=wins, strike_rate=round(wins / bets, 4),
                    expected_strike_rate=round(expected, 4),
                    expected_interval=[round(max(0.0, expected - half), 4), round(min(1.0, expected + half), 4)],
                    distance_from_chance=round(wins / bets - expected, 4), profit=round(profit, 2),
                    return_per_unit=round(profit / bets, 4), average_price=round(price_sum / bets, 2), worst_run=worst)


@endpoint("/v1/backtest", plan="odds", summary="A betting strategy run over every settled match with closing prices",
          params=BacktestParams, returns=Backtest,
          description="Backs one side of every settled match with match-winner closing prices, one unit at that "
                      "side's average closing price (to the cent, as the results feed shows it): favourite, outsider, "
                      "seeded or unseeded (where exactly one side is seeded), steam (the side whose price shortened "
                      "more from opening to closing) or drift (the other). Filters narrow the matches (discipline, "
                      "round, years) and the prices backed (min_price, max_price). Answers the strike rate against "
                      "the rate the market's margin-free chances expected, with its 95 % interval, the profit and "
                      "return per unit, and the longest run of lost bets. No priced matches: zero bets.")
async def backtest(call: Call) -> Answer:
    p = call.p
    check_range(p)
    check_range(p, "min_price", "max_price")
    rows = await call.db.fetch(Q.backtest.matches, discipline=p.discipline, round=p.round, from_year=p.from_,
                               to_year=p.to)
    filters: dict[str, Any] = {"discipline": p.discipline, "round": p.round, "from": p.from_, "to": p.to,
                               "min_price": p.min_price, "max_price": p.max_price}
    return Answer(run(p.strategy, rows, p.min_price, p.max_price), {"filters": filters, "matches": len(rows)})
