"""The rating's daily history in PostgreSQL: rebuilt from every result at import (a full load
and an increment alike), advanced a match at a time by the live feed.

Database-side code written against a plain asyncpg connection (the importer's and the CLI's),
which the live feed hands its transaction's connection (`Tx.connection`); the named statements
run through a Tx around it.

A rebuild rates the archive twice when the data shows a home edge: once without one, to fit
the edge on the training seasons and test it on the held-out ones, and again with it. The
model's description (settings, home edge and its test, the decider fit, the held-out
figures) is kept in world_meta `rating_model`; /v1/predict and /v1/ratings report it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import asyncpg
import attrs
import cattrs

from svc.core.sqlfiles import Q
from svc.core.sqlrun import Connection, Tx
from svc.rating.fit import fit_decider, fit_home_edge, scores
from svc.rating.fitted import settings_for
from svc.rating.model import Forecast, Ratings, Result, Settings, rated

_converter = cattrs.Converter()
_converter.register_unstructure_hook(dt.date, lambda d: d.isoformat())


@attrs.frozen
class Model:
    """What a rebuild made of the results: the settings used and how they fared."""

    version: str
    world: str
    settings: Settings
    home_edge_test: str
    held_out: dict[str, Any]

    def to_json(self) -> str:
        return json.dumps(_converter.unstructure(self))

    @classmethod
    def from_json(cls, text: str) -> Model:
        raw = json.loads(text)
        raw["settings"]["decider"] = tuple(raw["settings"]["decider"])
        return _converter.structure(raw, cls)


def rated_key(discipline: str, sport_class: str | None) -> str:
    """What a match is rated as (rated_results.rated_as): its discipline, or for para play its
    discipline and sport class ("MS WH1", "MD WH1-WH2")."""
    return discipline if sport_class is None else f"{discipline} {sport_class}"


def result_of(row: Any) -> Result:
    # rated as its discipline, or a para discipline and class: para players stand apart (rated_results)
    return Result(
        day=row["day"],
        draw=row["draw"],
        discipline=row["rated_as"],
        side1=tuple(row["side1"]),
        side2=tuple(row["side2"]),
        winner=row["winner"],
        points1=row["points1"],
        points2=row["points2"],
        retired=row["outcome"] == "retired",
        home=int(row["home1"]) - int(row["home2"]),
    )


@attrs.define
class Run:
    """One pass of the model over the archive."""

    ratings: Ratings  # with every day kept
    forecasts: dict[str, Forecast]


def rate_archive(settings: Settings, rows: list[Any]) -> Run:
    """Rates every match of `rows` (in playing order) day by day."""
    # a draw's field: the players of its first day's matches, known that day (never a later round's)
    fields: dict[str, set[str]] = defaultdict(set)
    first_day: dict[str, dt.date] = {}
    for row in rows:
        if first_day.setdefault(row["draw"], row["day"]) == row["day"]:
            fields[row["draw"]].update(row["side1"], row["side2"])
    ratings = Ratings(settings, keep_days=True)
    forecasts: dict[str, Forecast] = {}
    for day, played in itertools.groupby(rows, key=lambda r: r["day"]):
        todays = [r for r in played if rated(r["outcome"])]
        for row in todays:
            ratings.set_entry(row["draw"], fields[row["draw"]], row["rated_as"], day)
        for row, f in zip(todays, ratings.rate_day(day, [result_of(r) for r in todays])):
            forecasts[row["id"]] = f
    return Run(ratings, forecasts)


def day_rows(ratings: Ratings) -> list[tuple]:
    """rating_days rows of a pass that kept its days, in (discipline, player, day) order, with
    `until`: the same player's next day rated in the discipline (None for the last)."""
    assert ratings.days is not None
    out = []
    for player, discipline in sorted(ratings.days, key=lambda k: (k[1], k[0])):
        kept = ratings.days[(player, discipline)]
        for (day, rating, variance, matches), until in zip(kept, [*(e[0] for e in kept[1:]), None]):
            out.append((discipline, player, day, rating, variance, matches, until))
    return out


def firsts(days: list[tuple]) -> list[tuple]:
    """(discipline, player_id, first day rated) of rows as day_rows orders them."""
    return [r[:3] for r, before in zip(days, [None, *days]) if before is None or before[:2] != r[:2]]


def held_out_figures(settings: Settings, rows: list[Any], forecasts: dict[str, Forecast]) -> dict[str, Any]:
    """Accuracy and log-loss of the rolling forecasts on the seasons after the training ones."""
    first = (settings.trained_to or 0) + 1
    picked = [
        (forecasts[r["id"]].chance, r["winner"] == 1)
        for r in rows
        if rated(r["outcome"]) and r["day"].year >= first and r["id"] in forecasts
    ]
    if not picked:
        return {"matches": 0, "from_season": first, "accuracy": None, "log_loss": None, "brier": None}
    s = scores(picked)
    return {
        "matches": len(picked),
        "from_season": first,
        "to_season": max(r["day"].year for r in rows),
        "accuracy": round(s.accuracy, 4),
        "log_loss": round(s.log_loss, 4),
        "brier": round(s.brier, 4),
    }


async def rebuild(conn: asyncpg.Connection) -> Model:
    """Rates the whole archive and replaces the rating tables (inside the caller's transaction)."""
    return await finish_rebuild(conn, await begin_rebuild(conn))


async def begin_rebuild(conn: asyncpg.Connection) -> asyncio.Future:
    """Reads the archive and starts rating it in a thread; the connection is free for other work
    (the other derived tables) until finish_rebuild writes the ratings."""
    tx = Tx(conn)
    world = await tx.fetchval(Q.world.source) or "empty"
    rows = await tx.fetch(Q.ratings.results)
    return asyncio.ensure_future(asyncio.to_thread(_rate, world, rows))


async def finish_rebuild(conn: asyncpg.Connection, rating: asyncio.Future) -> Model:
    """Waits for the rating begun by begin_rebuild and replaces the rating tables with it."""
    model, days, matches, draws = await rating
    tx = Tx(conn)
    await tx.execute(Q.ratings.clear)
    async with tx.indexes_built_after(["rating_days", "rating_matches"]):
        await conn.copy_records_to_table(
            "rating_days",
            records=days,
            columns=["discipline", "player_id", "day", "rating", "variance", "matches", "until"],
        )
        await conn.copy_records_to_table("rating_matches", columns=list(_MATCH_COLUMNS), records=matches)
    await conn.copy_records_to_table("rating_firsts", records=firsts(days), columns=["discipline", "player_id", "day"])
    await conn.copy_records_to_table("rating_draws", columns=["draw", "level"], records=draws)
    await tx.execute(Q.ratings.model_save, model=model.to_json())
    return model


def _rate(world: str, rows: list[Any]) -> tuple[Model, list[tuple], list[tuple], list[tuple]]:
    """The model and the rows of rating_days, rating_matches and rating_draws."""
    settings = settings_for(world)
    first = rate_archive(attrs.evolve(settings, home_edge=None), rows)
    edge, test = fit_home_edge(settings, rows, first.forecasts)
    settings = attrs.evolve(settings, home_edge=edge, decider=fit_decider(settings, rows, first.forecasts))
    final = rate_archive(settings, rows) if edge is not None else first
    model = Model(
        version=f"{settings.version}/{world}",
        world=world,
        settings=settings,
        home_edge_test=test,
        held_out=held_out_figures(settings, rows, final.forecasts),
    )
    matches = [_match_row(r, final.forecasts[r["id"]]) for r in rows if r["id"] in final.forecasts]
    return model, day_rows(final.ratings), matches, list(final.ratings.entry.items())


_MATCH_COLUMNS = ("match_id", "discipline", "year", "chance1", "rating1", "rating2", "winner_chance", "played")


def _match_row(row: Any, f: Forecast) -> tuple:
    return (
        row["id"],
        row["discipline"],
        row["year"],
        f.chance,
        f.rating1,
        f.rating2,
        f.chance if row["winner"] == 1 else 1 - f.chance,
        row["outcome"] == "played",
    )


async def load_model(tx: Tx) -> Model | None:
    text = await tx.fetchval(Q.ratings.model)
    return Model.from_json(text) if text else None


async def _seed(tx: Tx, ratings: Ratings, players: Iterable[str], day: dt.date) -> None:
    """Loads the players' standings at the start of `day` into `ratings`."""
    ratings.load(await tx.fetch(Q.ratings.standings, players=sorted(set(players)), day=day))


async def advance(conn: Connection, match_id: str) -> None:
    """Rates a match the live feed has just settled: its players' day is rated again with it,
    from the same start-of-day standings a rebuild would use, so both land on the same rows."""
    tx = Tx(conn)
    row = await tx.fetchrow(Q.ratings.match, match_id=match_id)
    if row is None or not rated(row["outcome"]):
        return
    model = await load_model(tx)
    if model is None:
        return
    day, discipline = row["day"], row["rated_as"]
    players = list(row["side1"]) + list(row["side2"])
    todays = [
        r
        for r in await tx.fetch(Q.ratings.day_matches, rated_as=discipline, day=day, players=players)
        if rated(r["outcome"])
    ]
    ratings = Ratings(model.settings)
    for draw in {r["draw"] for r in todays}:
        level = await tx.fetchval(Q.ratings.draw_level, draw=draw)
        if level is None:
            level = await _enter(tx, model.settings, draw)
        ratings.entry[draw] = level
    await _seed(tx, ratings, {p for r in todays for p in list(r["side1"]) + list(r["side2"])}, day)
    forecasts = ratings.rate_day(day, [result_of(r) for r in todays])
    for r, f in zip(todays, forecasts):
        if r["id"] == match_id:
            await tx.execute(Q.ratings.match_save, **dict(zip(_MATCH_COLUMNS, _match_row(r, f))))
    standings = [(p, ratings.players[(p, discipline)]) for p in sorted(set(players))]
    await tx.execute(
        Q.ratings.day_save,
        discipline=discipline,
        day=day,
        players=[p for p, _ in standings],
        ratings=[s.rating for _, s in standings],
        variances=[s.variance for _, s in standings],
        matches=[s.matches for _, s in standings],
    )


async def _enter(tx: Tx, settings: Settings, draw: str) -> float:
    """The level a newcomer enters a draw at, set once from its field at its first day."""
    tournament_id, discipline, *rest = draw.split(":")
    sport_class = rest[0] if rest else None
    field = await tx.fetchrow(
        Q.ratings.draw_field, tournament_id=tournament_id, discipline=discipline, sport_class=sport_class
    )
    rated_as = rated_key(discipline, sport_class)
    ratings = Ratings(settings)
    if field and field["players"]:
        await _seed(tx, ratings, field["players"], field["first_day"])
        ratings.set_entry(draw, field["players"], rated_as, field["first_day"])
    else:
        ratings.set_entry(draw, (), rated_as, None)
    level = ratings.entry[draw]
    await tx.execute(Q.ratings.draw_level_save, draw=draw, level=level)
    return level
