"""Bookmakers' prices of one match: /v1/odds/{id} (Odds plan).

Opening and closing prices bookmaker by bookmaker for every market held -- the match winner,
handicaps and totals in games and in points -- with each bookmaker's margin, the averages and
the best prices; for a match under way, the in-play match-winner prices (Live plan).

The names are the event's odds summary's (svc.web.records.OddsSummary, whose `opening` and
`closing` interface.md names): a market's `opening`, `closing`, `best` and `market_chance` are
what the summary calls so, and the winner market's are the same numbers as the summary's."""

from __future__ import annotations

import datetime as dt
from itertools import groupby
from typing import Any, Literal

import attrs

from svc.access.plans import PLANS
from svc.api.events import MATCH_OR_EVENT_ID
from svc.core.errors import not_found
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import param

Market = Literal["winner", "handicap_games", "handicap_points", "total_games", "total_points"]


@attrs.frozen
class BookmakerPrices:
    bookmaker: str
    opening: list[float] = attrs.field(
        metadata=doc("this bookmaker's opening prices: side 1 and side 2 (totals: over and under)")
    )
    closing: list[float] = attrs.field(
        metadata=doc("its closing prices, the same way; equal to opening before the match")
    )
    margin_opening: float = attrs.field(metadata=doc("1/price1 + 1/price2 - 1 of its opening prices"))
    margin_closing: float = attrs.field(metadata=doc("the same of its closing prices"))


@attrs.frozen
class MarketPrices:
    market: Market = attrs.field(
        metadata=doc(
            "winner; handicap_games and handicap_points (the line applies to side 1); total_games and "
            "total_points (price 1 is over the line, price 2 under)"
        )
    )
    line: float | None = attrs.field(metadata=doc("null for winner; the handicap of side 1, or the total"))
    bookmakers: list[BookmakerPrices]
    opening: list[float] = attrs.field(
        metadata=doc("average opening prices over the bookmakers (for the winner market: the event's odds.opening)")
    )
    closing: list[float] = attrs.field(
        metadata=doc("average closing prices over the bookmakers (for the winner market: the event's odds.closing)")
    )
    best: list[float] = attrs.field(metadata=doc("the longest closing price of each side (the event's odds.best)"))
    market_chance: list[float] = attrs.field(
        metadata=doc(
            "the market's chance of each side from the average closing prices, margin removed "
            "(the event's odds.market_chance)"
        )
    )


@attrs.frozen
class InPlayQuote:
    bookmaker: str
    prices: list[float] = attrs.field(metadata=doc("match-winner prices of side 1 and side 2 now"))
    updated_at: dt.datetime = attrs.field(metadata=doc("when this bookmaker last moved its prices"))


@attrs.frozen
class MatchOdds:
    match: str = attrs.field(metadata=doc("mt_ id of the match"))
    event: str = attrs.field(metadata=doc("ev_ id of the same match in the results feed"))
    status: Literal["scheduled", "live", "finished"]
    markets: list[MarketPrices]
    in_play: list[InPlayQuote] | None = attrs.field(
        metadata=doc(
            "for a match under way: in-play match-winner prices, bookmaker by bookmaker (Live plan; null for "
            "other plans, and when the match is not under way)"
        )
    )


@attrs.frozen
class OddsParams:
    id: str = param(
        "Event id (ev_...) or the id of its draw match (mt_...).", location="path", pattern=MATCH_OR_EVENT_ID
    )


def _margin(p1: float, p2: float) -> float:
    return round(1 / p1 + 1 / p2 - 1, 4)


def _market(market: str, line: float | None, rows: list[Any]) -> MarketPrices:
    books = [
        BookmakerPrices(
            bookmaker=r["bookmaker"],
            opening=[r["open1"], r["open2"]],
            closing=[r["close1"], r["close2"]],
            margin_opening=_margin(r["open1"], r["open2"]),
            margin_closing=_margin(r["close1"], r["close2"]),
        )
        for r in rows
    ]
    n = len(books)
    avg_open = [round(sum(b.opening[i] for b in books) / n, 2) for i in (0, 1)]
    exact_close = [sum(b.closing[i] for b in books) / n for i in (0, 1)]
    avg_close = [round(x, 2) for x in exact_close]
    # the chance from the exact averages, as the results feed's odds summary and the market analysis take it
    implied = [1 / exact_close[0], 1 / exact_close[1]]
    chance = [round(x / sum(implied), 4) for x in implied]
    return MarketPrices(
        market=market,
        line=line,
        bookmakers=books,
        opening=avg_open,
        closing=avg_close,
        best=[max(b.closing[i] for b in books) for i in (0, 1)],
        market_chance=chance,
    )


@endpoint(
    "/v1/odds/{id}",
    plan="odds",
    summary="Opening and closing prices, bookmaker by bookmaker",
    params=OddsParams,
    returns=MatchOdds,
    cache_seconds=2,  # in-play prices move with the score
    description="Every bookmaker's opening and closing prices of one match for each market held: the match "
    "winner, handicaps in games and in points (the line applies to side 1) and totals of games and "
    "points (price 1 over, price 2 under), with each bookmaker's margin, the averages, the best "
    "closing prices and the market's chance with the margin removed. `opening` is the opening price "
    "and `closing` the closing price, as in the event's `odds` summary (/v1/events/{id}): the winner "
    "market's `opening`, `closing`, `best` and `market_chance` are the summary's numbers. A match not "
    "yet played has opening prices only (closing = opening). For a match under way a Live key also gets the in-play "
    "match-winner prices. A match without prices (before 2005, team events, juniors, para, the "
    "real world of public BWF data) answers 404 saying so.",
)
async def odds(call: Call) -> Answer:
    match = await call.db.fetchrow(Q.odds.match, id=call.p.id)
    if match is None:
        raise not_found(f"no match or event with id {call.p.id}")
    rows = await call.db.fetch(Q.odds.prices, match_id=match["match_id"])
    if not rows:
        raise not_found(
            f"match {match['match_id']} has no prices: bookmakers price senior individual matches "
            "from 2005, and the real world (public BWF data) holds none"
        )
    markets = [
        _market(market, line, list(quotes))  # rows come ordered by market and line
        for (market, line), quotes in groupby(rows, key=lambda r: (r["market"], r["line"]))
    ]
    in_play = None
    if match["status"] == "live" and call.plan.rank >= PLANS["live"].rank:
        in_play = [
            InPlayQuote(bookmaker=q["bookmaker"], prices=[q["price1"], q["price2"]], updated_at=q["updated_at"])
            for q in await call.db.fetch(Q.odds.in_play, match_id=match["match_id"])
        ]
    return Answer(
        MatchOdds(
            match=match["match_id"], event=match["event_id"], status=match["status"], markets=markets, in_play=in_play
        ),
        {"bookmakers": len({r["bookmaker"] for r in rows})},
    )
