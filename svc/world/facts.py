"""Static facts the generated world must respect (see ../shared/data/world-facts.md).

The tables are data files in svc/world/data/ (each names its sources), read once here through
`factfiles`' modules; this module gives them their names and keeps the tiny pure lookups over them. The
generator decides what to do with them. Every table the generator iterates is a tuple in its
file's row order (never a set or a dict that is iterated for output), so the order of generated
rows depends on nothing but those files.
"""

from __future__ import annotations

import datetime as dt
from functools import cache

from svc.world.factfiles import events, people, places
from svc.world.factfiles.events import Series  # the record's type, also the generator's (facts.Series)
from svc.world.factfiles.places import City

# --------------------------------------------------------------------------- nations

# (IOC code, name, continent) of the generated world's nations (data/countries.csv); how each
# nation's people are named is in svc/world/naming.py.
COUNTRIES: tuple[tuple[str, str, str | None], ...] = tuple(
    (c.code, c.name, c.continent) for c in places.countries() if c.generated_world
)
COUNTRY_CONTINENT = {c[0]: c[2] for c in COUNTRIES}

_NATIONS = people.nations()
# Nations that compete at the Commonwealth Games (England, Scotland, Wales separately).
COMMONWEALTH = _NATIONS.commonwealth
# Strength of nations by era, 0..1 (data/nation_strengths.csv). A nation missing from an era's
# table gets OTHER_NATION_STRENGTH; absent nations (CHN before 1981) get no players.
OTHER_NATION_STRENGTH = _NATIONS.other_strength
NATION_ERAS = _NATIONS.eras
# The first year a nation's players may appear (data/nations.toml, with its sources); a nation
# not listed plays from the start.
NATION_FROM = _NATIONS.plays_from
# Nations without players of their own (the Olympic team GBR, hosts of Games only).
NO_PLAYERS = _NATIONS.no_players


def nation_strengths(year: int) -> tuple[tuple[str, float], ...]:
    """Every nation with players in `year` and its strength, in COUNTRIES order."""
    year = max(NATION_ERAS[0].first_year, year)
    table = next(e.strengths for e in NATION_ERAS if e.first_year <= year <= e.last_year)
    out = []
    for code, _name, _cont in COUNTRIES:
        if code in NO_PLAYERS or NATION_FROM.get(code, 0) > year:
            continue
        out.append((code, table.get(code, OTHER_NATION_STRENGTH)))
    return tuple(out)


# A nation's strength in one discipline by era (data/nation_disciplines.csv: its share of the
# era's honours there, from the public record and the real World Tour). Before the record begins
# a nation is as strong in every discipline as overall.
NATION_DISCIPLINES = people.nation_disciplines()
RECORD_FROM = min(first for eras in NATION_DISCIPLINES.values() for first, _last, _s in eras)


@cache
def _weakest_listed(discipline: str, first_year: int) -> float:
    return min(
        s
        for (_n, d), eras in NATION_DISCIPLINES.items()
        if d == discipline
        for first, _last, s in eras
        if first == first_year
    )


def discipline_strength(nation: str, discipline: str, year: int, overall: float) -> float:
    """`nation`'s strength in `discipline` in `year`, given its overall strength then. A nation
    without honours in the discipline in that era is weaker than overall: half of it, and no
    stronger than the weakest nation with honours there (England's men's singles of 2018-2020
    won no title; its doubles did)."""
    if year < RECORD_FROM:
        return overall
    # eras change by degrees: between the middles of two eras the strength moves from one to the other
    here, there = _era(year), _era(year + (1 if year >= _middle(_era(year)) else -1) * ERA_BLEND_YEARS)
    if here == there:
        return _in_era(nation, discipline, here, overall)
    span = abs(_middle(there) - _middle(here))
    share = min(1.0, abs(year - _middle(here)) / span) if span else 0.0
    return (1 - share) * _in_era(nation, discipline, here, overall) + share * _in_era(
        nation, discipline, there, overall
    )


ERA_BLEND_YEARS = 4  # a year within this many of the next era's side blends towards it
RECORD_LAST = 2025  # the last year of the record's honours (its World Championships)


def _era(year: int) -> tuple[int, int]:
    return next((f, l) for f, l in _ERAS if f <= year <= l) if year >= RECORD_FROM else _ERAS[0]


def _middle(era: tuple[int, int]) -> float:
    return (era[0] + min(era[1], RECORD_LAST)) / 2  # the open last era: as far as the record goes


def _in_era(nation: str, discipline: str, era: tuple[int, int], overall: float) -> float:
    for first, last, strength in NATION_DISCIPLINES.get((nation, discipline), ()):
        if (first, last) == era:
            return strength
    return min(overall * 0.5, _weakest_listed(discipline, era[0]))


_ERAS = tuple(sorted({(f, l) for eras in NATION_DISCIPLINES.values() for f, l, _s in eras}))


# --------------------------------------------------------------------------- places

# Host cities with their elevations and venues (data/cities.csv, data/venues.csv). A city's id
# is written in its row, so adding a city never moves another's.
CITIES: tuple[City, ...] = places.cities()
CITY_ID = {c.name: c.id for c in CITIES}
CITY_BY_NAME = {c.name: c for c in CITIES}
# Each hall's names by period (data/venues.csv, with their sources): a hall exists from its first
# name's first year to its last name's last year, and an edition shows the name of its year.
HALL_NAMES = places.hall_names()


# --------------------------------------------------------------------------- series

_SERIES = events.series()
SERIES: tuple[Series, ...] = _SERIES.series
SERIES_BY_SLUG = {s.slug: s for s in SERIES}
# Series held together with another from a year on: the same host and the same days.
HELD_WITH = _SERIES.held_with
# Hosts as they were, by edition year (data/hosts.csv, with its sources). Years not listed
# (editions still to be awarded) rotate through the series' host pool.
HOSTS: dict[str, dict[int, str]] = events.hosts()
# Editions on their real dates and with their real hosts, by (series, label year) (data/calendar.csv:
# the World Tour of 2018-2020 and 2022-11 to 2024 from the shipped public files, the great events of
# other years from public sources).
CALENDAR = {(e.series, e.year): e for e in events.calendar()}
# The first year after the real calendar's latest World Tour season: from it on, each series repeats
# the week and host of its latest edition on record (the live tail).
CALENDAR_TAIL_FROM = 1 + max(e.year for e in CALENDAR.values() if SERIES_BY_SLUG[e.series].kind == "open")
# The lower tier of that latest season (data/lower_tier_calendar.csv): series of their own in the tail.
LOWER_TIER_CALENDAR = events.lower_tier_calendar()
# The halls series used in runs of years, on record (data/series_halls.csv, with its sources).
SERIES_HALLS = events.series_halls()


def host_of(series: Series, year: int) -> str | None:
    """The host on record for this edition, if any (HOSTS, or the series it is held with)."""
    with_slug, since = HELD_WITH.get(series.slug, (None, 0))
    if with_slug is not None and year >= since:
        return HOSTS.get(with_slug, {}).get(year)
    return HOSTS.get(series.slug, {}).get(year)


def dates_key(series: Series, year: int) -> str:
    """The series whose random stream sets this edition's dates (the partner it is held with)."""
    with_slug, since = HELD_WITH.get(series.slug, (None, 0))
    return with_slug if with_slug is not None and year >= since else series.slug


def host_pool(series: Series, year: int) -> tuple[str, ...]:
    pool = series.hosts[0][1]
    for start, cities in series.hosts:
        if year >= start:
            pool = cities
    return tuple(c for c in pool if c in CITY_ID)


def _every(first: int, step: int, last: int) -> list[int]:
    return list(range(first, last + 1, step))


def edition_years(series: Series, last_year: int) -> list[int]:
    """The years with an edition, from world-facts' rhythm and gaps."""
    s = series.slug
    wars = set(range(1915, 1920)) | set(range(1940, 1947))
    if s == "all-england":
        return [y for y in range(1899, last_year + 1) if y not in wars]
    if s == "malaysia-open":
        gaps = set(range(1942, 1947)) | set(range(1969, 1983))
        return [y for y in range(1937, last_year + 1) if y not in gaps and (s, y) not in CANCELLED]
    if s == "world-championships":
        years = [1977, 1980, 1983] + _every(1985, 2, 2005) + _every(2006, 1, last_year)
        return [y for y in years if y <= last_year and y not in (2008, 2012, 2016, 2020, 2024, 2028)]
    if s == "olympic-games":
        return _every(1992, 4, last_year)
    if s == "paralympic-games":
        return _every(2020, 4, last_year)
    if s == "thomas-cup":
        return [y for y in _every(1949, 3, 1982) + _every(1984, 2, last_year) if y <= last_year]
    if s == "uber-cup":
        return [y for y in _every(1957, 3, 1981) + _every(1984, 2, last_year) if y <= last_year]
    if s == "sudirman-cup":
        return _every(1989, 2, last_year)
    if s == "european-championships":
        return _every(1968, 2, last_year)
    if s == "asian-championships":
        irregular = [1962, 1965, 1969, 1971, 1976, 1983, 1985, 1987, 1988, 1989, 1991, 1992]
        return [y for y in irregular + _every(1994, 1, last_year) if y <= last_year and (s, y) not in CANCELLED]
    if s in ("commonwealth-games", "asian-games"):
        return [y for y in _every(series.first_year, 4, last_year) if (s, y) not in CANCELLED]
    if s == "world-junior-championships":
        return [y for y in _every(1992, 1, last_year) if (s, y) not in CANCELLED]
    if s == "para-world-championships":
        return [y for y in [1998] + _every(2001, 2, 2019) + _every(2022, 2, last_year) if y <= last_year]
    if s == "world-tour-finals":
        return _every(2008, 1, last_year)
    # national opens: yearly, paused in the world wars and by the pandemic (CANCELLED), until the last
    last_year = min(last_year, series.last_year or last_year)
    return [y for y in range(series.first_year, last_year + 1) if y not in wars and (s, y) not in CANCELLED]


# Editions not held as their series usually is (data/edition_changes.csv, with its sources): the
# pandemic's cancellations and moves of 2020-22, and Glasgow's Commonwealth Games of 2026
# without badminton.
_CHANGES = events.edition_changes()
CANCELLED = frozenset((e.series, e.year) for e in _CHANGES if e.cancelled)
# Editions played a year after their label (Tokyo 2020 in 2021).
PLAYED_LATE = {(e.series, e.year): e.played_year for e in _CHANGES if e.played_year is not None}
# Editions played in another month than their series' usual one (the 2020-21 moves).
PLAYED_IN_MONTH = {(e.series, e.year): e.played_month for e in _CHANGES if e.played_month is not None}

# --------------------------------------------------------------------------- tiers and money

# BWF World Tour levels from 2018 by series, as (from year, tier); the Superseries of 2007-2017
# (data/tiers.toml).
_TIERS = events.tiers()
WORLD_TOUR_TIER = _TIERS.world_tour
SUPERSERIES = _TIERS.superseries
SUPERSERIES_PREMIER = _TIERS.superseries_premier


def tier(series: Series, year: int) -> str | None:
    if series.kind == "finals":
        return "Superseries Finals" if year < 2018 else "World Tour Finals"
    if series.kind != "open":
        return None
    if year >= 2018:
        t = None
        for start, name in WORLD_TOUR_TIER.get(series.slug, ()):
            if year >= start:
                t = name
        return t
    if year >= 2007:
        if series.slug == "swiss-open" and year <= 2010:
            return "Superseries"
        if series.slug == "india-open" and year >= 2011:
            return "Superseries"
        if series.slug in SUPERSERIES:
            return "Superseries Premier" if year >= 2011 and series.slug in SUPERSERIES_PREMIER else "Superseries"
        return "Grand Prix Gold"
    if year >= 1983:
        return "Grand Prix"
    return None


# Prize money in USD by tier (data/tiers.toml); the rises by era below are rules, not a table.
PRIZE_BY_TIER = _TIERS.prize_usd
OPEN_ERA_FROM = 1979  # no prize money before the open era of the late 1970s


def prize_money(series: Series, year: int, tier_name: str | None) -> int | None:
    if series.team or series.kind in ("olympics", "multi", "junior", "para", "continental"):
        return None
    if year < OPEN_ERA_FROM:
        return None
    if series.kind == "worlds":
        return None if year < 2014 else 1_500_000
    if tier_name is None:
        base = 25_000 if year < 1990 else 80_000
        return base
    base = PRIZE_BY_TIER[tier_name]
    if year >= 2023:  # the 2023 rise (Super 1000 to 1.25 M, Super 750 to 850 k)
        base = int(base * (1.25 if tier_name == "Super 1000" else 1.2))
    return base


# --------------------------------------------------------------------------- para

# The sport classes and the para events (discipline, sport class or class pair; doubles may pair
# classes) of data/para.toml.
_PARA = events.para()
SPORT_CLASSES = _PARA.sport_classes
PARA_EVENTS = _PARA.events


def week_tuesday(day: dt.date) -> dt.date:
    """The Tuesday of the week (Monday..Sunday) containing `day`."""
    return day - dt.timedelta(days=day.weekday()) + dt.timedelta(days=1)
