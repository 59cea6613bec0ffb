"""Archive plan, the world ranking: /v1/rankings and /v1/rankings/number-ones.

The published lists are the `rankings` table; number-one reigns are rebuilt at import
(svc/sql/derived/62_number_ones.sql). A list is in force from its publication day until the
next list of its discipline is published.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from svc.core.errors import invalid, not_found
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import discipline_param, param
from svc.web.records import Discipline, PlayerRef

# interface.md: ranking lists are served back to 2013 (weekly top lists before September 2026).
# An earlier day answers 422 rather than an empty list, so a typo in the year is noticed.
SERVED_FROM = dt.date(2013, 1, 1)
# interface.md: number ones are counted since 1 October 2009.
NUMBER_ONES_FROM = dt.date(2009, 10, 1)


@attrs.frozen
class RankingRow:
    rank: int
    name: str = attrs.field(metadata=doc('as published: a player, or both players of a pair as "A / B"'))
    players: list[PlayerRef] = attrs.field(metadata=doc("one per player of the entry; id null when not yet matched"))
    points: int


@attrs.frozen
class Reign:
    """An unbroken run of weekly lists with the same entry at rank 1."""

    discipline: Discipline
    name: str = attrs.field(metadata=doc('as published: a player, or a pair as "A / B"'))
    players: list[PlayerRef]
    first: dt.date = attrs.field(metadata=doc("first day in force (from 1 October 2009)"))
    last: dt.date | None = attrs.field(
        metadata=doc("last day, the day before the next list showed someone else; null while it continues")
    )
    weeks: int = attrs.field(metadata=doc("weekly lists of the reign"))
    current: bool


def entry_players(r: Any) -> list[PlayerRef]:
    """The players of a published entry: matched ones from `players`, the others by the name
    printed on the list (country unknown)."""
    printed = r["name"].split(" / ")
    refs = []
    for i, part in enumerate(printed, 1):
        pid = r[f"player{i}"] if i <= 2 else None
        refs.append(PlayerRef(id=pid, name=r[f"name{i}"] if pid else part, country=r[f"country{i}"] if pid else None))
    return refs


def _check_day(name: str, day: dt.date | None, earliest: dt.date, today: dt.date) -> None:
    if day is None:
        return
    if day < earliest:
        raise invalid(f"parameter `{name}` ({day}) is before {earliest}, the first day served", name)
    if day > today:
        raise invalid(f"parameter `{name}` ({day}) is after today ({today}); no list is in force yet", name)


@attrs.frozen
class RankingsParams(Paging):
    discipline: str = discipline_param("Discipline.", required=True)
    date: dt.date | None = param(
        "The list in force that day (the latest published on or before it), from "
        "2013-01-01; the latest list when omitted."
    )


@endpoint(
    "/v1/rankings",
    plan="archive",
    summary="The world ranking list in force on a day",
    params=RankingsParams,
    returns=RankingRow,
    many=True,
    description="The published world ranking of `discipline` in force on `date` (latest when omitted), by "
    "rank. `meta.full` is true when the list holds every ranked player (from September 2026) and "
    "false for the week's top list (2013 to August 2026); `meta.date` is the list's publication "
    "day. Rows whose players are not yet matched have `id` null. A date before 2013-01-01 or "
    "after today answers 422.",
)
async def rankings(call: Call) -> Page:
    p = call.p
    today = call.clock.today()
    _check_day("date", p.date, SERVED_FROM, today)
    rows = await call.db.fetch(
        Q.rankings.list, discipline=p.discipline, day=p.date or today, offset=call.offset, limit=call.limit
    )
    meta: dict[str, Any] = (
        {"date": rows[0]["week"].isoformat(), "full": rows[0]["full_list"]}
        if rows
        else {"date": None, "full": None, "note": "no list of this discipline was published by that day"}
    )
    return call.page(
        rows, lambda r: RankingRow(rank=r["rank"], name=r["name"], players=entry_players(r), points=r["points"]), meta
    )


@attrs.frozen
class NumberOnesParams:
    discipline: str | None = discipline_param()
    date: dt.date | None = param("Only the reign in force that day (from 2009-10-01).")
    player: str | None = param("Only this player's reigns (pl_...).", prefix="pl_")


@endpoint(
    "/v1/rankings/number-ones",
    plan="archive",
    summary="Every world number one since 1 October 2009",
    params=NumberOnesParams,
    returns=Reign,
    many=True,
    description="Every reign at the top of the world ranking since 1 October 2009, by discipline then "
    "first day. A reign is an unbroken run of weekly lists with the same entry (a player, or a "
    "pair as published) at rank 1; `weeks` counts those lists, and a player's weeks summed here "
    "equal the weeks the lists put them first. `date` keeps the reign in force that day (one per "
    "discipline); `player` keeps that player's reigns (404 for an unknown player).",
)
async def number_ones(call: Call) -> Answer:
    p = call.p
    _check_day("date", p.date, NUMBER_ONES_FROM, call.clock.today())
    rows = await call.db.fetch(Q.rankings.number_ones, discipline=p.discipline, player=p.player, day=p.date)
    if not rows and p.player and not await call.db.fetchval(Q.players.exists, id=p.player):
        raise not_found(f"no player with id {p.player}")
    data = [
        Reign(
            discipline=r["discipline"],
            name=r["name"],
            players=entry_players(r),
            first=r["first_day"],
            last=r["last_day"],
            weeks=r["weeks"],
            current=r["last_day"] is None,
        )
        for r in rows
    ]
    return Answer(data, {"count": len(data), "weeks": sum(x.weeks for x in data)})
