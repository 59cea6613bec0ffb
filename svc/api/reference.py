"""Reference lists of the Free plan: /v1/countries, /v1/series, /v1/calendar."""

from __future__ import annotations

import datetime as dt
from typing import Literal

import attrs

from svc.core.errors import invalid
from svc.core.sqlfiles import Q
from svc.web.convert import doc, rows_as
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import LEVELS, param, year_param
from svc.web.records import VenueRef

SLUG = r"^[a-z0-9-]{1,60}$"  # series slugs as /v1/series lists them


async def check_series(call: Call, slug: str | None) -> None:
    """A `series` filter naming no series answers 422 (asked only when a list is empty)."""
    if slug and not await call.db.fetchval(Q.reference.series_exists, slug=slug):
        raise invalid(f"parameter `series`: no series {slug!r}; see /v1/series", "series")


@attrs.frozen
class CountryItem:
    code: str = attrs.field(metadata=doc("IOC code"))
    name: str
    players: int
    active_players: int = attrs.field(metadata=doc("players with a match in the last two years"))
    first_year: int | None = attrs.field(metadata=doc("first year a player of this country played a draw match"))
    titles: int = attrs.field(metadata=doc("finals won in individual events; a pair of two nations counts for each"))
    titles_by_discipline: dict[str, int] = attrs.field(metadata=doc("MS, WS, MD, WD, XD"))


@endpoint(
    "/v1/countries",
    plan="free",
    summary="Every country with players, active players, first year and titles",
    returns=CountryItem,
    many=True,
)
async def countries(call: Call) -> Answer:
    rows = await call.db.fetch(Q.reference.countries)
    return Answer(rows_as(CountryItem, rows), {"count": len(rows)})


@attrs.frozen
class SeriesItem:
    series: str = attrs.field(metadata=doc("slug"))
    name: str
    level: Literal["senior", "junior"]
    para: bool = attrs.field(metadata=doc("a para-badminton series"))
    team: bool = attrs.field(metadata=doc("a team event played in ties"))
    first_year: int
    last_year: int | None
    editions: int = attrs.field(metadata=doc("editions held (not counting those still to come)"))


@endpoint(
    "/v1/series",
    plan="free",
    summary="Every series with its first and last year and editions",
    returns=SeriesItem,
    many=True,
)
async def series(call: Call) -> Answer:
    rows = await call.db.fetch(Q.reference.series_list)
    return Answer(
        [
            SeriesItem(
                series=r["slug"],
                **{k: r[k] for k in ("name", "level", "para", "team", "first_year", "last_year", "editions")},
            )
            for r in rows
        ],
        {"count": len(rows)},
    )


@attrs.frozen
class CalendarParams:
    year: int | None = year_param("Year; the current year (UTC) when omitted.")
    series: str | None = param("Series slug, as listed by /v1/series.", pattern=SLUG)
    level: str | None = param("senior, junior or para (para-badminton series).", enum=LEVELS)


@attrs.frozen
class CalendarEntry:
    id: str = attrs.field(metadata=doc("tr_ id"))
    name: str
    series: str
    level: Literal["senior", "junior"]
    start: dt.date | None = attrs.field(metadata=doc("first day"))
    end: dt.date | None = attrs.field(metadata=doc("last day, where known"))
    city: str | None
    country: str | None
    venue: VenueRef | None
    prize_money: int | None = attrs.field(metadata=doc("USD, whole number as recorded"))
    elevation_m: int | None = attrs.field(metadata=doc("metres above sea level: the venue's, else the host city's"))
    status: Literal["finished", "in_progress", "upcoming", "unknown"]
    grade: str | None = attrs.field(
        default=None,
        metadata=doc(
            "the edition's tier or grade as its calendar gives it "
            "(Super 500, International Challenge, Future Series ...); "
            "null when none is held"
        ),
    )
    cancelled: bool = attrs.field(
        default=False,
        metadata=doc("true for an edition that was listed but not played; `status` still follows its dates"),
    )


def calendar_status(start: dt.date | None, end: dt.date | None, today: dt.date) -> str:
    if start is None:
        return "unknown"
    if start > today:
        return "upcoming"
    if (end or start) < today:
        return "finished"
    return "in_progress"


@endpoint(
    "/v1/calendar",
    plan="free",
    summary="Editions of a year in date order, with status",
    params=CalendarParams,
    returns=CalendarEntry,
    many=True,
    description="Editions of one year in date order (editions without dates last). `status` is finished, "
    "in_progress, upcoming, or unknown when no dates are held, as of today (UTC); an edition "
    "that was cancelled keeps the status of its dates and says `cancelled: true`. An unknown "
    "series slug answers 422.",
)
async def calendar(call: Call) -> Answer:
    p, today = call.p, call.clock.today()
    year = p.year or today.year
    rows = await call.db.fetch(Q.reference.calendar, year=year, series=p.series, level=p.level)
    if not rows:
        await check_series(call, p.series)
    entries = [
        CalendarEntry(
            id=r["id"],
            name=r["name"],
            series=r["series"],
            level=r["level"],
            start=r["start_date"],
            end=r["end_date"],
            city=r["city"],
            country=r["country"],
            venue=VenueRef(id=r["venue_id"], name=r["venue_name"]) if r["venue_id"] else None,
            prize_money=r["prize_money"],
            elevation_m=r["elevation_m"],
            status=calendar_status(r["start_date"], r["end_date"], today),
            grade=r["tier"],
            cancelled=r["cancelled"],
        )
        for r in rows
    ]
    return Answer(entries, {"year": year, "count": len(entries)})
