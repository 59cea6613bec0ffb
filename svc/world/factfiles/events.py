"""The events: series with their host pools, hosts and halls on record, editions held otherwise,
the real calendar's dates (and its lower tiers), the World Tour's tiers and para's events."""

from __future__ import annotations

import datetime as dt
from functools import cache

import attrs

from svc.world.factfiles import reading
from svc.world.factfiles.places import cities, hall_names


@attrs.frozen
class Series:
    slug: str
    name: str
    first_year: int
    kind: str  # open | worlds | olympics | team | finals | continental | multi | junior | para | minor
    month: int  # usual month of the edition
    hosts: tuple[tuple[int, tuple[str, ...]], ...]  # (from year, host cities rotating in that era)
    level: str = "senior"
    para: bool = False
    team: bool = False
    medals: bool = False
    bronze_match: bool = False  # a 3P play-off (only the Olympics have one)
    region: str | None = None  # continent code or "CW" (Commonwealth) restricting entries
    days: int = 6
    last_year: int | None = None  # the last edition of a series that ended


@attrs.frozen
class SeriesTable:
    series: tuple[Series, ...]
    held_with: dict[str, tuple[str, int]]  # slug -> (the series it is held with, from year)


@attrs.frozen
class EditionChange:
    """An edition not held as its series usually is: cancelled, played a year late, or in another month."""

    series: str
    year: int  # the edition's label year (Tokyo 2020)
    cancelled: bool
    played_year: int | None
    played_month: int | None


@attrs.frozen
class CalendarEdition:
    """An edition on its real dates and with its real host (data/calendar.csv)."""

    series: str
    year: int  # the edition's label year
    start: dt.date
    end: dt.date
    city: str
    source: str


@attrs.frozen
class LowerTierEvent:
    """An International Challenge, Series or Future Series of the real calendar's latest year
    (data/lower_tier_calendar.csv): a series of its own in the live tail."""

    slug: str
    name: str
    grade: str
    start: dt.date
    end: dt.date
    city: str


@attrs.frozen
class SeriesHall:
    """The hall a series used in a run of years, on record (data/series_halls.csv)."""

    series: str
    from_year: int
    to_year: int | None  # None: still
    city: str
    hall: str


@attrs.frozen
class Tiers:
    world_tour: dict[str, tuple[tuple[int, str], ...]]  # slug -> (from year, tier), by year
    superseries: frozenset[str]
    superseries_premier: frozenset[str]
    prize_usd: dict[str, int]


@attrs.frozen
class Para:
    sport_classes: tuple[str, ...]
    events: tuple[tuple[str, str], ...]  # (discipline, sport class or class pair)


@cache
def series() -> SeriesTable:
    out, held_with = [], {}
    with reading.toml("series.toml") as data:
        pools = {name: tuple(cities) for name, cities in data["host_pools"].items()}
        for s in data["series"]:
            reading.known_keys(f"series {s.get('slug')}", s, _SERIES_KEYS)
            hosts = tuple((int(h["from"]), pools[h["pool"]] if "pool" in h else tuple(h["cities"])) for h in s["hosts"])
            out.append(
                Series(
                    s["slug"],
                    s["name"],
                    s["first_year"],
                    s["kind"],
                    s["month"],
                    hosts,
                    **{k: s[k] for k in _SERIES_OPTIONS if k in s},
                )
            )
            if "held_with" in s:
                held_with[s["slug"]] = (s["held_with"]["series"], int(s["held_with"]["from"]))
        slugs = [s.slug for s in out]
        if len(set(slugs)) != len(slugs):
            raise ValueError("a slug twice")
        if any(with_slug not in slugs for with_slug, _since in held_with.values()):
            raise ValueError("held with a series the file does not hold")
    return SeriesTable(tuple(out), held_with)


_SERIES_OPTIONS = ("level", "para", "team", "medals", "bronze_match", "region", "days", "last_year")


_SERIES_KEYS = {"slug", "name", "first_year", "kind", "month", "hosts", "held_with", *_SERIES_OPTIONS}


@cache
def hosts() -> dict[str, dict[int, str]]:
    """Hosts on record: series -> edition year -> city."""
    known = {c.name for c in cities()}
    out: dict[str, dict[int, str]] = {}
    for r in reading.unique(reading.table("hosts.csv", "series", "year", "city"), "series", "year"):
        out.setdefault(r.text("series"), {})[r.integer("year")] = r.member("city", known)
    return out


@cache
def edition_changes() -> tuple[EditionChange, ...]:
    rows = reading.table("edition_changes.csv", "series", "year", "cancelled", "played_year", "played_month")
    return tuple(
        EditionChange(
            r.text("series"),
            r.integer("year"),
            r.yes("cancelled"),
            r.integer("played_year", None),
            r.integer("played_month", None),
        )
        for r in reading.unique(rows, "series", "year")
    )


@cache
def series_halls() -> tuple[SeriesHall, ...]:
    known_series = {s.slug for s in series().series}
    halls = {(h.city, h.hall) for h in hall_names()}
    out = []
    for r in reading.table("series_halls.csv", "series", "from_year", "to_year", "city", "hall", "source"):
        if (r.text("city"), r.text("hall")) not in halls:
            raise r.fail(f"no hall {r.text('hall')!r} in {r.text('city')} in venues.csv")
        out.append(
            SeriesHall(
                r.member("series", known_series),
                r.integer("from_year"),
                r.integer("to_year", None),
                r.text("city"),
                r.text("hall"),
            )
        )
    return tuple(out)


@cache
def calendar() -> tuple[CalendarEdition, ...]:
    known_series = {s.slug for s in series().series}
    known_cities = {c.name for c in cities()}
    rows = reading.table("calendar.csv", "series", "year", "start", "end", "city", "source")
    out = []
    for r in reading.unique(rows, "series", "year"):
        start, end = reading.day_of(r, "start"), reading.day_of(r, "end")
        if end < start:
            raise r.fail(f"ends ({end}) before it starts ({start})")
        out.append(
            CalendarEdition(
                r.member("series", known_series),
                r.integer("year"),
                start,
                end,
                r.member("city", known_cities),
                r.text("source"),
            )
        )
    return tuple(out)


@cache
def lower_tier_calendar() -> tuple[LowerTierEvent, ...]:
    taken = {s.slug for s in series().series}
    known_cities = {c.name for c in cities()}
    out = []
    for r in reading.unique(
        reading.table("lower_tier_calendar.csv", "slug", "name", "grade", "start", "end", "city"), "slug"
    ):
        if r.text("slug") in taken:
            raise r.fail(f"slug {r.text('slug')!r} is a series of series.toml")
        start, end = reading.day_of(r, "start"), reading.day_of(r, "end")
        if end < start:
            raise r.fail(f"ends ({end}) before it starts ({start})")
        out.append(
            LowerTierEvent(r.text("slug"), r.text("name"), r.text("grade"), start, end, r.member("city", known_cities))
        )
    return tuple(out)


@cache
def tiers() -> Tiers:
    with reading.toml("tiers.toml") as data:
        world_tour = {
            slug: tuple(sorted((int(year), tier) for year, tier in steps.items()))
            for slug, steps in data["world_tour"].items()
        }
        return Tiers(
            world_tour,
            frozenset(data["superseries"]),
            frozenset(data["superseries_premier"]),
            {tier: int(usd) for tier, usd in data["prize_usd"].items()},
        )


@cache
def para() -> Para:
    with reading.toml("para.toml") as data:
        return Para(tuple(data["sport_classes"]), tuple((d, c) for d, c in data["events"]))
