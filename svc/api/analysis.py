"""Archive plan, analyses over the whole archive: /v1/analysis/seeds, /v1/analysis/deciders,
/v1/analysis/records.

Each reads small tables pre-counted per year and discipline at import (svc/sql/derived/63-65),
so a request sums a few hundred rows whatever the range asked.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import attrs

from svc.api.players import rate
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import check_range, discipline_param, param, year_param
from svc.web.records import DrawMatch, PlayerRef, draw_match_from_row

RECORD_TYPES = ("most_titles", "most_finals", "longest_win_streak", "widest_margin", "most_points")
RECORD_LIMIT_MAX = 100  # a record list is a leaderboard, not an export
RECORD_LIMIT_DEFAULT = 10


def _years(p: Any) -> dict[str, Any]:
    return {"from_year": p.from_, "to_year": p.to}


def _filters(p: Any) -> dict[str, Any]:
    return {"discipline": p.discipline, "from": p.from_, "to": p.to}


# -- seeds ---------------------------------------------------------------------------------
@attrs.frozen
class SeedRow:
    seed: int
    entries: int = attrs.field(metadata=doc("seeded entries: a side seeded in one draw"))
    reached_semi_final: int
    reached_final: int
    won: int
    semi_final_rate: float | None
    final_rate: float | None
    win_rate: float | None


@attrs.frozen
class SeedRoundRow:
    round_code: Literal["R128", "R64", "R32", "R16", "QF", "SF", "3P", "F"]
    matches: int = attrs.field(
        metadata=doc("finished matches of a seeded against an unseeded side (walkovers left out)")
    )
    seeded_wins: int
    seeded_win_rate: float | None


@attrs.frozen
class SeedAnalysis:
    seeds: list[SeedRow] = attrs.field(metadata=doc("per seed, first seed first"))
    rounds: list[SeedRoundRow] = attrs.field(metadata=doc("seeded against unseeded, first round to final"))


@attrs.frozen
class RangeParams:
    discipline: str | None = discipline_param()
    from_: int | None = year_param("First year (tournament year), inclusive.", wire="from")
    to: int | None = year_param("Last year, inclusive.")


@endpoint(
    "/v1/analysis/seeds",
    plan="archive",
    summary="How seeds perform",
    params=RangeParams,
    returns=SeedAnalysis,
    description="Individual draws (team events have no seeds). `seeds`: for each seed, its entries (a seeded "
    "side in one draw) and the share that reached the semi-final, the final, and won the draw. "
    "`rounds`: finished matches of a seeded against an unseeded side, round by round, and how "
    "often the seeded side won (walkovers left out). Years are tournament years.",
)
async def seeds(call: Call) -> Answer:
    p = call.p
    check_range(p)
    seed_rows = await call.db.fetch(Q.analysis.seed_stats, discipline=p.discipline, **_years(p))
    round_rows = await call.db.fetch(Q.analysis.seed_rounds, discipline=p.discipline, **_years(p))
    data = SeedAnalysis(
        seeds=[
            SeedRow(
                seed=r["seed"],
                entries=r["entries"],
                reached_semi_final=r["reached_sf"],
                reached_final=r["reached_f"],
                won=r["won"],
                semi_final_rate=rate(r["reached_sf"], r["entries"]),
                final_rate=rate(r["reached_f"], r["entries"]),
                win_rate=rate(r["won"], r["entries"]),
            )
            for r in seed_rows
        ],
        rounds=[
            SeedRoundRow(
                round_code=r["round_code"],
                matches=r["matches"],
                seeded_wins=r["seeded_wins"],
                seeded_win_rate=rate(r["seeded_wins"], r["matches"]),
            )
            for r in round_rows
        ],
    )
    return Answer(data, {"filters": _filters(p)})


# -- deciders ------------------------------------------------------------------------------
@attrs.frozen
class DeciderRow:
    period: str = attrs.field(metadata=doc('a year ("2019") or a decade ("1990s")'))
    first_year: int = attrs.field(metadata=doc("first year of the period with matches"))
    last_year: int
    matches: int = attrs.field(metadata=doc("completed matches (outcome played)"))
    three_game_matches: int
    three_game_rate: float | None
    first_game_loser_wins: int = attrs.field(metadata=doc("matches won by the side that lost the first game"))
    first_game_loser_win_rate: float | None
    games: int
    points_per_game: float | None = attrs.field(metadata=doc("points of both sides per game"))
    rally_games: int = attrs.field(metadata=doc("games under 21-point rally scoring (from 1 August 2006)"))
    extended_games: int = attrs.field(metadata=doc("rally-scoring games in which the loser reached 20"))
    extended_rate: float | None = attrs.field(metadata=doc("extended_games / rally_games; null before rally scoring"))


@attrs.frozen
class DecidersParams(RangeParams):
    by: str = param("Group by decade or year.", default="decade", enum=("decade", "year"))


@endpoint(
    "/v1/analysis/deciders",
    plan="archive",
    summary="Deciding games, game lengths and extended games over time",
    params=DecidersParams,
    returns=DeciderRow,
    many=True,
    description="Per decade or year, over completed matches (outcome played; walkovers and retirements left "
    "out): how often a match went to a third game, how often the first-game loser won, points "
    "per game (both sides), and extended games: games in which the loser reached 20, counted "
    "only under 21-point rally scoring (from 1 August 2006).",
)
async def deciders(call: Call) -> Answer:
    p = call.p
    check_range(p)
    rows = await call.db.fetch(Q.analysis.deciders, by=p.by, discipline=p.discipline, **_years(p))
    data = [
        DeciderRow(
            period=str(r["period"]) if p.by == "year" else f"{r['period']}s",
            first_year=r["first_year"],
            last_year=r["last_year"],
            matches=r["matches"],
            three_game_matches=r["three_game"],
            three_game_rate=rate(r["three_game"], r["matches"]),
            first_game_loser_wins=r["first_loser_wins"],
            first_game_loser_win_rate=rate(r["first_loser_wins"], r["matches"]),
            games=r["games"],
            points_per_game=round(r["points"] / r["games"], 2) if r["games"] else None,
            rally_games=r["rally_games"],
            extended_games=r["extended_games"],
            extended_rate=rate(r["extended_games"], r["rally_games"]),
        )
        for r in rows
    ]
    return Answer(data, {"by": p.by, "filters": _filters(p)})


# -- records -------------------------------------------------------------------------------
@attrs.frozen
class RecordRow:
    place: int = attrs.field(metadata=doc("standard competition rank: equal values share a place"))
    value: int = attrs.field(metadata=doc("titles, finals, wins in a row, or points, by `type`"))
    player: PlayerRef | None = attrs.field(metadata=doc("most_titles, most_finals, longest_win_streak; else null"))
    match: DrawMatch | None = attrs.field(metadata=doc("widest_margin, most_points; else null"))
    first_year: int | None = attrs.field(metadata=doc("most_titles, most_finals: first year counted"))
    last_year: int | None = attrs.field(metadata=doc("most_titles, most_finals: last year counted"))
    first_day: dt.date | None = attrs.field(metadata=doc("longest_win_streak: day of the first win"))
    last_day: dt.date | None = attrs.field(metadata=doc("longest_win_streak: day of the last win"))


@attrs.frozen
class RecordsParams(RangeParams):
    type: str = param(
        "Which record: most_titles, most_finals, longest_win_streak, widest_margin, most_points.",
        required=True,
        enum=RECORD_TYPES,
    )
    limit: int = param(
        "Places to list (ties share a place, so more rows may come back).",
        default=RECORD_LIMIT_DEFAULT,
        minimum=1,
        maximum=RECORD_LIMIT_MAX,
    )


RECORDS_DOC = (
    "Record lists over the archive, best first; `discipline`, `from` and `to` (tournament years) narrow what is "
    "counted. What each `type` counts:\n"
    "- most_titles: finals won (round F) in individual draws of every level, team events left out; a doubles "
    "title counts for both players.\n"
    "- most_finals: finals reached, counted the same way.\n"
    "- longest_win_streak: matches won in a row by one player in playing order (day, then round); walkovers "
    "are skipped, a win by retirement counts. Over every discipline unless `discipline` is given; with `from`/`to` "
    "only the wins inside those years count.\n"
    "- widest_margin: completed matches (outcome played) by the winner's margin in points over the whole match "
    "(all games summed).\n"
    "- most_points: completed matches by points played over the whole match (both sides, all games).\n"
    "`place` is the competition rank; every entry tied with the last place asked for is listed."
)


def _player_row(r: Any) -> RecordRow:
    return RecordRow(
        place=r["place"],
        value=r["value"],
        player=PlayerRef(id=r["id"], name=r["name"], country=r["country"]),
        match=None,
        first_year=r.get("first_year"),
        last_year=r.get("last_year"),
        first_day=r.get("first_day"),
        last_day=r.get("last_day"),
    )


@endpoint(
    "/v1/analysis/records",
    plan="archive",
    summary="Record lists: titles, finals, win streaks, margins, points",
    params=RecordsParams,
    returns=RecordRow,
    many=True,
    description=RECORDS_DOC,
)
async def records(call: Call) -> Answer:
    p = call.p
    check_range(p)
    years = _years(p)
    if p.type in ("most_titles", "most_finals"):
        what = "titles" if p.type == "most_titles" else "finals"
        if p.from_ is None and p.to is None:
            rows = await call.db.fetch(
                Q.analysis.record_finals_all, what=what, scope=p.discipline or "ALL", limit=p.limit
            )
        else:
            rows = await call.db.fetch(
                Q.analysis.record_finals_range, what=what, discipline=p.discipline, limit=p.limit, **years
            )
        data = [_player_row(dict(r)) for r in rows]
    elif p.type == "longest_win_streak":
        scope = p.discipline or "ALL"
        if p.from_ is None and p.to is None:
            rows = await call.db.fetch(Q.analysis.record_streaks_all, scope=scope, limit=p.limit)
        else:
            rows = await call.db.fetch(Q.analysis.record_streaks_range, scope=scope, limit=p.limit, **years)
        data = [_player_row(dict(r)) for r in rows]
    else:
        stmt = Q.analysis.record_margins if p.type == "widest_margin" else Q.analysis.record_points
        rows = await call.db.fetch(stmt, discipline=p.discipline, limit=p.limit, **years)
        data = [
            RecordRow(
                place=r["place"],
                value=r["value"],
                player=None,
                match=draw_match_from_row(r, with_odds=call.sees_odds),
                first_year=None,
                last_year=None,
                first_day=None,
                last_day=None,
            )
            for r in rows
        ]
    return Answer(data, {"type": p.type, "count": len(data), "filters": _filters(p)})


# -- the closing market ----------------------------------------------------------------------
ROUND_ORDER = ("R128", "R64", "R32", "R16", "QF", "SF", "3P", "F", "group")


@attrs.frozen
class MarketBucket:
    bucket: str = attrs.field(
        metadata=doc(
            "price band of the favourite's average closing price (1.01-1.09 ... 1.75-2.00), round code (group for "
            "group stages), or seeding (both seeded, favourite seeded, outsider seeded, neither seeded)"
        )
    )
    matches: int = attrs.field(metadata=doc("settled matches whose favourite is in this bucket"))
    expected_rate: float | None = attrs.field(metadata=doc("the favourites' mean margin-free closing chance"))
    actual_rate: float | None = attrs.field(metadata=doc("the share the favourites won"))
    return_per_unit: float | None = attrs.field(
        metadata=doc("profit per unit staked backing every favourite at its average closing price (-0.05 = lost 5 %)")
    )


@attrs.frozen
class BookmakerMargin:
    bookmaker: str
    quotes: int = attrs.field(metadata=doc("settled matches it priced"))
    average_margin: float = attrs.field(metadata=doc("mean of 1/price1 + 1/price2 - 1 at closing"))


@attrs.frozen
class MarketAnalysis:
    overall: MarketBucket = attrs.field(metadata=doc("every settled priced match; bucket is `all`"))
    by_price: list[MarketBucket]
    by_round: list[MarketBucket]
    by_seeding: list[MarketBucket]
    bookmakers: list[BookmakerMargin]


def _bucket(name: str, matches: int, expected: float, wins: int, returned: float) -> MarketBucket:
    return MarketBucket(
        bucket=name,
        matches=matches,
        expected_rate=round(expected / matches, 4) if matches else None,
        actual_rate=rate(wins, matches),
        return_per_unit=round(returned / matches - 1, 4) if matches else None,
    )


@endpoint(
    "/v1/analysis/market",
    plan="odds",
    summary="How accurate the closing market is",
    params=RangeParams,
    returns=MarketAnalysis,
    description="Every settled match with match-winner closing prices (walkovers excepted). Its favourite is "
    "the side with the shorter average closing price (to the cent, as the results feed shows it "
    "and /v1/backtest backs it; a tie has none); its expected chance is the margin-free "
    "chance of those prices. For all of them and by price band, round and seeding: the favourites' "
    "expected against actual win rate and the return per unit backing each at its average closing "
    "price; and each bookmaker's average margin at closing.",
)
async def market(call: Call) -> Answer:
    p = call.p
    check_range(p)
    rows = await call.db.fetch(Q.analysis.market, discipline=p.discipline, **_years(p))
    by: dict[str, list[MarketBucket]] = {"price": [], "round": [], "seeding": []}
    for r in rows:
        by[r["dimension"]].append(_bucket(r["bucket"], r["matches"], r["expected"], r["wins"], r["returned"]))
    by["round"].sort(key=lambda b: ROUND_ORDER.index(b.bucket) if b.bucket in ROUND_ORDER else len(ROUND_ORDER))
    price = [r for r in rows if r["dimension"] == "price"]  # each match is in exactly one price band
    overall = _bucket(
        "all",
        sum(r["matches"] for r in price),
        sum(r["expected"] for r in price),
        sum(r["wins"] for r in price),
        sum(r["returned"] for r in price),
    )
    margins = [
        BookmakerMargin(
            bookmaker=r["bookmaker"], quotes=r["quotes"], average_margin=round(r["margin_sum"] / r["quotes"], 4)
        )
        for r in await call.db.fetch(Q.analysis.margins, discipline=p.discipline, **_years(p))
    ]
    return Answer(
        MarketAnalysis(
            overall=overall, by_price=by["price"], by_round=by["round"], by_seeding=by["seeding"], bookmakers=margins
        ),
        {"filters": _filters(p)},
    )


# -- upsets ----------------------------------------------------------------------------------
UPSET_LIMIT_MAX = 100


@attrs.frozen
class Upset:
    place: int = attrs.field(metadata=doc("standard competition rank: equal prices or chances share a place"))
    winner: int = attrs.field(metadata=doc("the side of `match` that won against the odds (1 or 2)"))
    winner_price: float | None = attrs.field(
        metadata=doc(
            "the winner's average closing price over the bookmakers, to the cent, as /v1/odds/{id} lists them; null "
            "when the match had no prices"
        )
    )
    market_chance: float | None = attrs.field(metadata=doc("the winner's margin-free closing chance; null unpriced"))
    rating_chance: float | None = attrs.field(
        metadata=doc("the winner's chance by the own rating before the match (as on its day); null when not rated")
    )
    match: DrawMatch


@attrs.frozen
class UpsetsParams(RangeParams):
    by: str = param(
        "price: winners at the longest average closing prices; rating: winners the own rating gave the lowest chance.",
        default="price",
        enum=("price", "rating"),
    )
    limit: int = param(
        "Places to list (ties share a place, so more rows may come back).",
        default=RECORD_LIMIT_DEFAULT,
        minimum=1,
        maximum=UPSET_LIMIT_MAX,
    )


@endpoint(
    "/v1/analysis/upsets",
    plan="odds",
    summary="The biggest upsets, by closing price or by the own rating",
    params=UpsetsParams,
    returns=Upset,
    many=True,
    description="Settled matches whose winner was the least expected, biggest upset first. `by=price`: every "
    "match with match-winner closing prices, by the winner's average closing price (longest "
    "first). `by=rating`: every rated match (walkovers are not rated), by the winner's chance from "
    "the own rating as on the match day (lowest first), for the whole archive. Only completed "
    "matches count: walkovers and wins by retirement (an injury, not an upset) are left out. "
    "`discipline`, `from` and `to` (tournament years) "
    "narrow the matches.",
)
async def upsets(call: Call) -> Answer:
    p = call.p
    check_range(p)
    stmt = Q.analysis.upsets_by_price if p.by == "price" else Q.analysis.upsets_by_rating
    rows = await call.db.fetch(stmt, discipline=p.discipline, limit=p.limit, **_years(p))

    def chance(x: float | None) -> float | None:
        return None if x is None else round(x, 4)

    data = [
        Upset(
            place=r["place"],
            winner=r["upset_winner"],
            winner_price=r["winner_price"],
            market_chance=chance(r["market_chance"]),
            rating_chance=chance(r["rating_chance"]),
            match=draw_match_from_row(r, with_odds=call.sees_odds),
        )
        for r in rows
    ]
    meta: dict[str, Any] = {"by": p.by, "count": len(data), "filters": _filters(p)}
    if not data and p.by == "rating":
        meta["note"] = "no rated match in this range"
    return Answer(data, meta)
