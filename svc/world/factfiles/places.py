"""Countries (one table for names and codes: the generated world's nations and the BWF files'),
the importer's spellings of them, cities with explicit ids and their halls' names by period."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import attrs

from svc.world.factfiles import reading
from svc.world.factfiles.reading import FactFileError, Row


@attrs.frozen
class Country:
    code: str  # IOC code
    name: str  # English name, as the service shows it
    continent: str | None  # EU, AS, OC, AM, AF for the generated world's nations
    generated_world: bool  # one of the generated world's nations
    bwf_files: bool  # a nation of the public BWF files (the importer's mapping)


@attrs.frozen
class City:
    id: int
    name: str
    country: str
    elevation_m: int | None
    utc_offset: float  # standard time; daylight saving is ignored on purpose (one offset per city)
    venues: tuple[tuple[str, int | None], ...]  # (venue name, the venue's own elevation or None)


@attrs.frozen
class HallName:
    """A hall's name for the years an edition held there carries it (data/venues.csv); a hall
    exists from the first year of its first name to the last of its last."""

    city: str
    hall: str  # the hall: its first name in the file
    name: str
    from_year: int | None  # None: since before any edition the world places there
    to_year: int | None  # None: the name it has today


@cache
def countries() -> tuple[Country, ...]:
    rows = reading.table("countries.csv", "code", "name", "continent", "generated_world", "bwf_files")
    out = []
    for r in reading.unique(rows, "code"):
        country = Country(
            r.text("code"), r.text("name"), r.text("continent", None), r.yes("generated_world"), r.yes("bwf_files")
        )
        if country.generated_world and country.continent is None:
            raise r.fail("a nation of the generated world needs its continent")
        out.append(country)
    return tuple(out)


@cache
def country_spellings() -> dict[str, str]:
    """Folded spelling -> IOC code (one of the BWF files' nations)."""
    known = {c.code for c in countries() if c.bwf_files}
    rows = reading.table("country_spellings.csv", "spelling", "code")
    return {r.text("spelling"): r.member("code", known) for r in reading.unique(rows, "spelling")}


@cache
def cities() -> tuple[City, ...]:
    venues: dict[str, list[tuple[str, int | None]]] = {}
    for r in _venue_rows():  # a name a hall had in several periods is one venue
        names = venues.setdefault(r.text("city"), [])
        if r.text("name") not in [n for n, _e in names]:
            names.append((r.text("name"), r.integer("elevation_m", None)))
    rows = reading.table("cities.csv", "id", "name", "country", "elevation_m", "utc_offset_h")
    out = tuple(
        City(
            r.integer("id"),
            r.text("name"),
            r.text("country"),
            r.integer("elevation_m", None),
            r.number("utc_offset_h"),
            tuple(venues.pop(r.text("name"), ())),
        )
        for r in reading.unique(reading.unique(rows, "id"), "name")
    )
    if venues:
        raise FactFileError(f"venues.csv: venues of cities that cities.csv does not hold: {sorted(venues)}")
    return out


def _venue_rows() -> Iterator[Row]:
    return reading.table("venues.csv", "city", "hall", "name", "from_year", "to_year", "elevation_m", "source")


@cache
def hall_names() -> tuple[HallName, ...]:
    """Every hall's names by period, in the file's order (a hall's periods in order of years)."""
    out: list[HallName] = []
    for r in _venue_rows():
        hall = r.text("hall", None) or r.text("name")
        first, last = r.integer("from_year", None), r.integer("to_year", None)
        if first is not None and last is not None and last < first:
            raise r.fail(f"to_year {last} before from_year {first}")
        before = [h for h in out if (h.city, h.hall) == (r.text("city"), hall)]
        if r.text("hall", None) and not before:
            raise r.fail(f"hall {hall!r} has no row of its own before this one")
        if before and (before[-1].to_year is None or first is None or first <= before[-1].to_year):
            raise r.fail(f"{r.text('name')!r} does not follow the hall's previous name in time")
        out.append(HallName(r.text("city"), hall, r.text("name"), first, last))
    return tuple(out)
