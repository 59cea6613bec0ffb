"""The world's fact files (svc/world/data/) read into typed records.

The tables the generated world keeps to, and the country names the BWF importer maps, are data,
not code: flat tables in CSV (a header row; a line starting with `#` is a comment, so each file
opens with its sources), nested ones in TOML (a `sources` key). This module only reads them; the
modules that own the facts (`facts`, `naming`, `sources.countries`) ask for what they need once,
at import, and keep the lookups over them. The readers live together, beside the modules that use
them rather than in the data folder, because the files refer to each other (hosts and venues name
cities, nations name countries, pools name pools) and one table serves two owners: the country
table is the generated world's and the importer's.

Row order is kept everywhere: the generator iterates these tables and what it writes follows
their order, so a file's row order is part of the world. A city's id is written in its
row, never taken from its position, so a row added anywhere leaves every other id as it was.
A file that does not read (a column or key missing or unknown, a value of the wrong kind, a
row twice, a code or city the other files do not hold) fails the import, naming the file and,
for a CSV row, its line.
"""

from __future__ import annotations

import csv
import datetime as dt
import tomllib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from importlib.resources import files
from typing import Any

import attrs

DATA = files("svc.world") / "data"  # package data: an installed wheel or the zipapp carries it


class FactFileError(ValueError):
    """A fact file that does not read: its name, line and what is wrong."""


# --------------------------------------------------------------------------- records


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
class HallName:
    """A hall's name for the years an edition held there carries it (data/venues.csv); a hall
    exists from the first year of its first name to the last of its last."""

    city: str
    hall: str  # the hall: its first name in the file
    name: str
    from_year: int | None  # None: since before any edition the world places there
    to_year: int | None  # None: the name it has today


@attrs.frozen
class SeriesHall:
    """The hall a series used in a run of years, on record (data/series_halls.csv)."""

    series: str
    from_year: int
    to_year: int | None  # None: still
    city: str
    hall: str


@attrs.frozen
class NationEra:
    first_year: int
    last_year: int
    strengths: dict[str, float]  # nation -> strength 0..1; a nation not listed has the default


@attrs.frozen
class Nations:
    commonwealth: frozenset[str]
    no_players: frozenset[str]
    other_strength: float
    plays_from: dict[str, int]
    eras: tuple[NationEra, ...]


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


@attrs.frozen
class NamePool:
    men: tuple[str, ...]
    women: tuple[str, ...]
    families: tuple[str, ...]
    women_families: tuple[str, ...] | None = None  # explicit feminine family names (cs, gr)
    feminine: str | None = None  # "ova": IVANOV -> IVANOVA, "ska": KOWALSKI -> KOWALSKA
    family_first: bool = False  # written "WANG Zhi Yi"
    syllables: bool = False  # given names are one or two of these syllables ("Zhi Yi")
    always_two_syllables: bool = False  # Korean given names: never one syllable
    two_given: float = 0.0  # share with two given names ("Muhammad Haikal")
    double_family: float = 0.0  # share with two family names ("QUINTANA MAITIN")
    middle: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # Vietnamese middle names (men, women)


# --------------------------------------------------------------------------- the files


@cache
def countries() -> tuple[Country, ...]:
    rows = _csv("countries.csv", "code", "name", "continent", "generated_world", "bwf_files")
    out = []
    for r in _unique(rows, "code"):
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
    rows = _csv("country_spellings.csv", "spelling", "code")
    return {r.text("spelling"): r.member("code", known) for r in _unique(rows, "spelling")}


@cache
def nations() -> Nations:
    known = {c.code for c in countries() if c.generated_world}
    rows = list(_csv("nation_strengths.csv", "nation", more=True))
    eras = []
    for column in rows[0].columns[1:] if rows else ():  # "1899-1939": an era's first and last year
        first, _, last = column.partition("-")
        strengths = {r.member("nation", known): r.number(column) for r in rows if r.text(column, None)}
        eras.append(NationEra(int(first), int(last), strengths))
    with _reading("nations.toml") as data:
        plays_from = {code: int(year) for code, year in data["plays_from"].items()}
        return Nations(
            frozenset(_nations_of(data["commonwealth"], known)),
            frozenset(_nations_of(data["no_players"], known)),
            float(data["other_strength"]),
            {code: plays_from[code] for code in _nations_of(plays_from, known)},
            tuple(eras),
        )


@cache
def nation_disciplines() -> dict[tuple[str, str], tuple[tuple[int, int, float], ...]]:
    """(nation, discipline) -> (from year, to year, strength) of each era it is listed for."""
    known = {c.code for c in countries() if c.generated_world}
    out: dict[tuple[str, str], list[tuple[int, int, float]]] = {}
    rows = _csv("nation_disciplines.csv", "nation", "discipline", "from_year", "to_year", "strength")
    for r in _unique(rows, "nation", "discipline", "from_year"):
        key = (r.member("nation", known), r.member("discipline", {"MS", "WS", "MD", "WD", "XD"}))
        out.setdefault(key, []).append((r.integer("from_year"), r.integer("to_year"), r.number("strength")))
    return {k: tuple(v) for k, v in out.items()}


@attrs.frozen
class Star:
    """A great player of the record or the real World Tour, without their name (data/stars.csv)."""

    star: str  # the person (a hash of their identity)
    discipline: str
    nation: str
    gender: str
    first_year: int  # of their honours
    last_year: int
    honours: int  # points: World Championships medals, World Tour titles


@cache
def stars() -> tuple[Star, ...]:
    known = {c.code for c in countries() if c.generated_world}
    rows = _csv("stars.csv", "star", "discipline", "nation", "gender", "first_year", "last_year", "honours")
    return tuple(
        Star(
            r.text("star"),
            r.member("discipline", {"MS", "WS", "MD", "WD", "XD"}),
            r.member("nation", known),
            r.member("gender", {"M", "W"}),
            r.integer("first_year"),
            r.integer("last_year"),
            r.integer("honours"),
        )
        for r in _unique(rows, "star", "discipline")
    )


@cache
def cities() -> tuple[City, ...]:
    venues: dict[str, list[tuple[str, int | None]]] = {}
    for r in _venue_rows():  # a name a hall had in several periods is one venue
        names = venues.setdefault(r.text("city"), [])
        if r.text("name") not in [n for n, _e in names]:
            names.append((r.text("name"), r.integer("elevation_m", None)))
    rows = _csv("cities.csv", "id", "name", "country", "elevation_m", "utc_offset_h")
    out = tuple(
        City(
            r.integer("id"),
            r.text("name"),
            r.text("country"),
            r.integer("elevation_m", None),
            r.number("utc_offset_h"),
            tuple(venues.pop(r.text("name"), ())),
        )
        for r in _unique(_unique(rows, "id"), "name")
    )
    if venues:
        raise FactFileError(f"venues.csv: venues of cities that cities.csv does not hold: {sorted(venues)}")
    return out


@cache
def series() -> SeriesTable:
    out, held_with = [], {}
    with _reading("series.toml") as data:
        pools = {name: tuple(cities) for name, cities in data["host_pools"].items()}
        for s in data["series"]:
            _known_keys(f"series {s.get('slug')}", s, _SERIES_KEYS)
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
    for r in _unique(_csv("hosts.csv", "series", "year", "city"), "series", "year"):
        out.setdefault(r.text("series"), {})[r.integer("year")] = r.member("city", known)
    return out


@cache
def edition_changes() -> tuple[EditionChange, ...]:
    rows = _csv("edition_changes.csv", "series", "year", "cancelled", "played_year", "played_month")
    return tuple(
        EditionChange(
            r.text("series"),
            r.integer("year"),
            r.yes("cancelled"),
            r.integer("played_year", None),
            r.integer("played_month", None),
        )
        for r in _unique(rows, "series", "year")
    )


def _venue_rows() -> Iterator[Row]:
    return _csv("venues.csv", "city", "hall", "name", "from_year", "to_year", "elevation_m", "source")


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


@cache
def series_halls() -> tuple[SeriesHall, ...]:
    known_series = {s.slug for s in series().series}
    halls = {(h.city, h.hall) for h in hall_names()}
    out = []
    for r in _csv("series_halls.csv", "series", "from_year", "to_year", "city", "hall", "source"):
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
    rows = _csv("calendar.csv", "series", "year", "start", "end", "city", "source")
    out = []
    for r in _unique(rows, "series", "year"):
        start, end = _day(r, "start"), _day(r, "end")
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
    for r in _unique(_csv("lower_tier_calendar.csv", "slug", "name", "grade", "start", "end", "city"), "slug"):
        if r.text("slug") in taken:
            raise r.fail(f"slug {r.text('slug')!r} is a series of series.toml")
        start, end = _day(r, "start"), _day(r, "end")
        if end < start:
            raise r.fail(f"ends ({end}) before it starts ({start})")
        out.append(
            LowerTierEvent(r.text("slug"), r.text("name"), r.text("grade"), start, end, r.member("city", known_cities))
        )
    return tuple(out)


def _day(r: Row, column: str) -> dt.date:
    try:
        return dt.date.fromisoformat(r.text(column))
    except ValueError:
        raise r.fail(f"{column} is not a day YYYY-MM-DD: {r.values[column]!r}") from None


@cache
def tiers() -> Tiers:
    with _reading("tiers.toml") as data:
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
    with _reading("para.toml") as data:
        return Para(tuple(data["sport_classes"]), tuple((d, c) for d, c in data["events"]))


@cache
def name_pools() -> dict[str, NamePool]:
    """Pools by key, in the file's order. `given_names_of` takes another pool's given names (East
    Africa's); `families_are_fathers_names`: family names are men's given names in capitals (an
    Ethiopian's second name is their father's given name)."""
    out: dict[str, NamePool] = {}
    with _reading("name_pools.toml") as data:
        for key, p in data["pools"].items():
            _known_keys(f"pools.{key}", p, _POOL_KEYS)
            given = out[p["given_names_of"]] if "given_names_of" in p else None
            men = given.men if given else tuple(p["men"])
            women = given.women if given else tuple(p["women"])
            families = tuple(n.upper() for n in men) if p.get("families_are_fathers_names") else tuple(p["families"])
            middle = (tuple(p["middle_men"]), tuple(p["middle_women"])) if "middle_men" in p else None
            women_families = tuple(p["women_families"]) if "women_families" in p else None
            out[key] = NamePool(
                men,
                women,
                families,
                women_families,
                p.get("feminine"),
                p.get("family_first", False),
                p.get("syllables", False),
                p.get("always_two_syllables", False),
                p.get("two_given", 0.0),
                p.get("double_family", 0.0),
                middle,
            )
    return out


_POOL_KEYS = {
    "men",
    "women",
    "families",
    "given_names_of",
    "families_are_fathers_names",
    "women_families",
    "feminine",
    "family_first",
    "syllables",
    "always_two_syllables",
    "two_given",
    "double_family",
    "middle_men",
    "middle_women",
}


@cache
def nation_name_pools() -> dict[str, tuple[tuple[str, float, int], ...]]:
    """Each nation's pools: (pool, weight, born from), in the file's order."""
    known = set(name_pools())
    out: dict[str, list[tuple[str, float, int]]] = {}
    rows = _csv("nation_name_pools.csv", "nation", "pool", "weight", "born_from")
    for r in _unique(rows, "nation", "pool"):
        out.setdefault(r.text("nation"), []).append(
            (r.member("pool", known), r.number("weight"), r.integer("born_from"))
        )
    return {n: tuple(p) for n, p in out.items()}


@cache
def champions() -> tuple[str, ...]:
    return tuple(r.text("name") for r in _csv("champions.csv", "name"))


# --------------------------------------------------------------------------- reading


@attrs.frozen
class Row:
    """One CSV row, its values read by column with the file and line in every error."""

    file: str
    line: int
    columns: tuple[str, ...]
    values: dict[str, str]

    def fail(self, message: str) -> FactFileError:
        return FactFileError(f"{self.file}:{self.line}: {message}")

    def text(self, column: str, *default: None) -> Any:
        value = self.values[column].strip()
        if value:
            return value
        if default:
            return default[0]
        raise self.fail(f"no {column}")

    def integer(self, column: str, *default: None) -> Any:
        value = self.text(column, *default)
        try:
            return value if value is None else int(value)
        except ValueError:
            raise self.fail(f"{column} is not a whole number: {value!r}") from None

    def number(self, column: str) -> float:
        try:
            return float(self.text(column))
        except ValueError:
            raise self.fail(f"{column} is not a number: {self.values[column]!r}") from None

    def yes(self, column: str) -> bool:
        value = self.text(column)
        if value not in ("yes", "no"):
            raise self.fail(f"{column} is neither yes nor no: {value!r}")
        return value == "yes"

    def member(self, column: str, known: set[str]) -> str:
        value = self.text(column)
        if value not in known:
            raise self.fail(f"{column} {value!r} is not one the other files hold")
        return value


def _csv(name: str, *columns: str, more: bool = False) -> Iterator[Row]:
    """The rows of a CSV fact file whose header is `columns` (followed by others when `more`: a
    matrix's); comment lines (# ...) and blank lines are skipped, line numbers kept."""
    numbered = [
        (i, line)
        for i, line in enumerate((DATA / name).read_text(encoding="utf-8").splitlines(), 1)
        if line.strip() and not line.startswith("#")
    ]
    parsed = list(csv.reader(line for _i, line in numbered))
    if not parsed:
        return
    header = tuple(parsed[0])
    if header[: len(columns)] != columns or (header != columns and not more):
        raise FactFileError(f"{name}: columns {header}, expected {columns}")
    for (line, _text), values in zip(numbered[1:], parsed[1:]):
        if len(values) != len(header):
            raise FactFileError(f"{name}:{line}: {len(values)} values for {len(header)} columns")
        yield Row(name, line, header, dict(zip(header, values)))


def _unique(rows: Iterator[Row], *key: str) -> Iterator[Row]:
    """The rows, failing on a second row with the same key."""
    seen: set[tuple[str, ...]] = set()
    for r in rows:
        k = tuple(r.text(c) for c in key)
        if k in seen:
            raise r.fail(f"{'/'.join(key)} {'/'.join(k)} twice")
        seen.add(k)
        yield r


@contextmanager
def _reading(name: str) -> Iterator[dict[str, Any]]:
    """The content of a TOML fact file; a syntax error, a key missing or unknown, or a value of the
    wrong kind fails naming the file (and, for syntax, the line)."""
    try:
        with (DATA / name).open("rb") as fh:
            data = tomllib.load(fh)
        yield data
    except (KeyError, TypeError, ValueError) as e:  # tomllib.TOMLDecodeError is a ValueError
        raise FactFileError(f"{name}: {e}") from e


def _known_keys(where: str, table: dict[str, Any], known: set[str]) -> None:
    """A key the reader does not know is a typo that would silently fall back to a default: refused."""
    unknown = sorted(set(table) - known)
    if unknown:
        raise ValueError(f"{where}: unknown keys {unknown}")


def _nations_of(codes: Iterable[str], known: set[str]) -> list[str]:
    """The codes, each one of the generated world's nations (countries.csv)."""
    out = list(codes)
    unknown = [c for c in out if c not in known]
    if unknown:
        raise ValueError(f"codes that are not the generated world's nations: {unknown}")
    return out
