"""A betting strategy run over every settled match with closing prices: /v1/backtest (Odds plan).

Each strategy backs at most one side of a match, one unit at that side's average closing
price (as the results feed shows it, to the cent): favourite (the shorter price), outsider
(the longer), seeded and unseeded (only where exactly one side is seeded), steam (the side
whose price shortened more from opening to closing: the side the market moved to) and drift
(the other). Ties back nothing. Walkovers are not settled bets. The side each strategy backs is
decided at import (svc/sql/derived/66_backtest_matches.sql); a request sums in one statement."""

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
    strategy: str = param(
        "favourite, outsider, seeded, unseeded, steam (the side the market moved to) or drift.",
        required=True,
        enum=STRATEGIES,
    )
    discipline: str | None = discipline_param()
    round: str | None = param("Only matches of this round (round codes).", enum=ROUND_CODES, upper=True)
    from_: int | None = year_param("First year (tournament year), inclusive.", wire="from")
    to: int | None = year_param("Last year, inclusive.")
    min_price: float | None = param(
        "Lowest average closing price backed (decimal, e.g. 1.5).", minimum=1.01, maximum=1000
    )
    max_price: float | None = param("Highest average closing price backed.", minimum=1.01, maximum=1000)


@attrs.frozen
class Backtest:
    strategy: str
    bets: int = attrs.field(metadata=doc("matches backed"))
    wins: int
    strike_rate: float | None = attrs.field(metadata=doc("wins / bets"))
    expected_strike_rate: float | None = attrs.field(
        metadata=doc("mean margin-free closing chance of the sides backed: the strike rate the market expected")
    )
    expected_interval: list[float] | None = attrs.field(
        metadata=doc("95 % interval of the strike rate if the market's chances were right")
    )
    distance_from_chance: float | None = attrs.field(metadata=doc("strike_rate - expected_strike_rate"))
    profit: float = attrs.field(metadata=doc("units won or lost, one unit a bet at the average closing price"))
    return_per_unit: float | None = attrs.field(metadata=doc("profit / bets (-0.05 = lost 5 % of the stakes)"))
    average_price: float | None = attrs.field(metadata=doc("mean closing price backed"))
    worst_run: int = attrs.field(metadata=doc("longest run of lost bets in date order"))


def shape(strategy: str, r: Any) -> Backtest:
    """The answer from the sums of Q.backtest.run."""
    bets = r["bets"]
    if not bets:
        return Backtest(
            strategy=strategy,
            bets=0,
            wins=0,
            strike_rate=None,
            expected_strike_rate=None,
            expected_interval=None,
            distance_from_chance=None,
            profit=0.0,
            return_per_unit=None,
            average_price=None,
            worst_run=0,
        )
    expected = r["chance_sum"] / bets
    half = Z95 * math.sqrt(r["variance"]) / bets
    strike, expected_shown = round(r["wins"] / bets, 4), round(expected, 4)
    return Backtest(
        strategy=strategy,
        bets=bets,
        wins=r["wins"],
        strike_rate=strike,
        expected_strike_rate=expected_shown,
        expected_interval=[round(max(0.0, expected - half), 4), round(min(1.0, expected + half), 4)],
        # from the two rates as shown, so that a reader's subtraction gives the same figure
        distance_from_chance=round(strike - expected_shown, 4),
        profit=round(r["profit"], 2),
        return_per_unit=round(r["profit"] / bets, 4),
        average_price=round(r["price_sum"] / bets, 2),
        worst_run=r["worst_run"],
    )


@endpoint(
    "/v1/backtest",
    plan="odds",
    summary="A betting strategy run over every settled match with closing prices",
    params=BacktestParams,
    returns=Backtest,
    description="Backs one side of every settled match with match-winner closing prices, one unit at that "
    "side's average closing price (to the cent, as the results feed shows it): favourite, outsider, "
    "seeded or unseeded (where exactly one side is seeded), steam (the side whose price shortened "
    "more from opening to closing) or drift (the other). Filters narrow the matches (discipline, "
    "round, years) and the prices backed (min_price, max_price). Answers the strike rate against "
    "the rate the market's margin-free chances expected, with its 95 % interval, the profit and "
    "return per unit, and the longest run of lost bets. No priced matches: zero bets.",
)
async def backtest(call: Call) -> Answer:
    p = call.p
    check_range(p)
    check_range(p, "min_price", "max_price")
    sums = await call.db.fetchrow(
        Q.backtest.run,
        strategy=p.strategy,
        min_price=p.min_price,
        max_price=p.max_price,
        discipline=p.discipline,
        round=p.round,
        from_year=p.from_,
        to_year=p.to,
    )
    filters: dict[str, Any] = {
        "discipline": p.discipline,
        "round": p.round,
        "from": p.from_,
        "to": p.to,
        "min_price": p.min_price,
        "max_price": p.max_price,
    }
    return Answer(shape(p.strategy, sums), {"filters": filters, "matches": sums["matches"]})
