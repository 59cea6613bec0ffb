"""Reading the public record of the great events (data/record/, copied from the project's shared
record with its README, which carries the licence note: CC BY-SA 4.0, "Wikipedia contributors,
via V0latix/DataSport"): one `Medal` per row of the World Championships medallists 1977-2025, one
`TeamPlace` per row of the Thomas and Uber Cup podiums 2002-2024, each checked once here as the
BWF files' rows are (svc.world.sources.rows). svc.world.sources.record_finals places them in the
real world.

The files write names as Wikipedia does (given name first, family name first for Chinese, Korean
... names; pairs as "A / B", the man first in mixed doubles) and countries with names of the time
("South Korea", "England", "Malaya"), read by the importer's own country mapping
(svc.world.sources.countries). The Cups file's `country_code` is ISO 3166 (DNK, DEU, MYS), not
IOC: the name is read. A row nothing can be kept of (too few or too many values, a year, place,
discipline or country that does not read, a pair of one name) is refused and reported with its
file and line, as are the rows that are kept but written otherwise than the service writes them
(`names_of_the_time`).
"""

from __future__ import annotations

import csv
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import attrs

from svc.world.generate.ids import fold
from svc.world.sources.countries import IOC, code_of
from svc.world.sources.rows import Fault, Problem, records, take

WORLDS = "world-championships-podiums.csv"
CUPS = "thomas-uber-cup-podiums-2002-2024.csv"
# Our own data beside the copy: the players of a pair of two nations (the podium file gives one
# country per row), with its sources.
TWO_NATION_PAIRS = "two-nation-pairs.csv"
CUP_SERIES = {"bwf_thomas_cup": "thomas-cup", "bwf_uber_cup": "uber-cup"}
DISCIPLINES = {
    "mens_singles": "MS",
    "womens_singles": "WS",
    "mens_doubles": "MD",
    "womens_doubles": "WD",
    "mixed_doubles": "XD",
}
MEDALS = {"1": "gold", "2": "silver", "3": "bronze"}  # rank -> the medal the row must name
GENDERS = {"MS": "M", "WS": "W", "MD": "MM", "WD": "WW", "XD": "MW"}  # each player's gender, in the row's order


@attrs.frozen
class Medal:
    """One row of the World Championships file: a player or a pair on the podium."""

    where: str  # file:line
    year: int
    discipline: str  # MS ... XD
    place: int  # 1 gold, 2 silver, 3 bronze
    names: tuple[str, ...]  # as written
    country_written: str
    country: str  # IOC code

    @property
    def medal(self) -> str:
        return MEDALS[str(self.place)]


@attrs.frozen
class TeamPlace:
    """One row of the Cups file: a nation on the podium of a Thomas or Uber Cup."""

    where: str
    series: str  # thomas-cup, uber-cup
    year: int
    place: int
    country_written: str
    country: str


@attrs.frozen
class PairNation:
    """A player of a two-nation pair and their own nation (two-nation-pairs.csv)."""

    where: str
    country: str


def line_of(where: str) -> int:
    return int(where.rsplit(":", 1)[1])


def read_medals(path: Path, problems: list[Problem]) -> Iterator[Medal]:
    for where, r, faults in records(path, f"record/{path.name}"):
        medal = _medal(r, where, faults) if r is not None else None
        if take(where, faults, False, problems):
            yield medal


def _medal(r: dict[str, str], where: str, faults: list[Fault]) -> Medal | None:
    try:
        year, key, rank, medal = r["year"].strip(), r["discipline_key"].strip(), r["rank"].strip(), r["medal"].strip()
        kind, name, country_written = r["participant_type"].strip(), r["participant_name"], r["country_name"].strip()
    except KeyError as exc:  # a column the row needs is not in its file's header
        faults.append(Fault(f"no column {exc}"))
        return None
    discipline = DISCIPLINES.get(key)
    if not year.isdigit():
        faults.append(Fault(f"year {year!r} is not a year"))
    if discipline is None:
        faults.append(Fault(f"unknown discipline {key!r}"))
    if MEDALS.get(rank) != medal:
        faults.append(Fault(f"rank {rank!r} and medal {medal!r} do not make a podium place"))
    names = tuple(n.strip() for n in name.split(" / "))
    if not all(names) or discipline is not None and len(names) != len(GENDERS[discipline]):
        faults.append(Fault(f"{name!r} ({kind}) is not {'a pair' if discipline in ('MD', 'WD', 'XD') else 'a player'}"))
    country = code_of(country_written)
    if country is None:
        faults.append(Fault(f"unknown country {country_written!r}"))
    if faults:  # every fault above leaves nothing certain: the row is refused
        return None
    return Medal(where, int(year), discipline, int(rank), names, country_written, country)


def read_team_places(path: Path, problems: list[Problem]) -> Iterator[TeamPlace]:
    for where, r, faults in records(path, f"record/{path.name}"):
        team_place = _team_place(r, faults) if r is not None else None
        if take(where, faults, False, problems):
            yield TeamPlace(where, *team_place)


def _team_place(r: dict[str, str], faults: list[Fault]) -> tuple | None:
    try:
        competition, year, rank = r["competition_id"].strip(), r["year"].strip(), r["rank"].strip()
        country_written = r["country_name"].strip()
    except KeyError as exc:
        faults.append(Fault(f"no column {exc}"))
        return None
    series = CUP_SERIES.get(competition)
    if series is None:
        faults.append(Fault(f"unknown competition {competition!r}"))
    if not year.isdigit():
        faults.append(Fault(f"year {year!r} is not a year"))
    if rank not in MEDALS:
        faults.append(Fault(f"rank {rank!r} is not a podium place"))
    country = code_of(country_written)
    if country is None:
        faults.append(Fault(f"unknown country {country_written!r}"))
    if faults:
        return None
    return series, int(year), int(rank), country_written, country


def read_two_nation_pairs(path: Path, problems: list[Problem]) -> dict[tuple[int, str, str], PairNation]:
    """(year, discipline, folded name) -> the player's own nation, for the players whose pair's row
    gives them their partner's. Lines starting with # carry the file's sources; a row that does
    not read is reported and the pair's row is then taken as written."""
    out: dict[tuple[int, str, str], PairNation] = {}
    if not path.is_file():
        return out
    lines = path.read_text(encoding="utf-8").splitlines()
    numbered = [(n, line) for n, line in enumerate(lines, 1) if line.strip() and not line.startswith("#")]
    rows = list(csv.reader(line for _n, line in numbered))
    header = rows[0] if rows else []
    for (n, _line), values in zip(numbered[1:], rows[1:]):
        where, r = f"record/{path.name}:{n}", dict(zip(header, values))
        country = code_of(r.get("country", ""))
        if len(values) != len(header) or country is None or not r.get("year", "").isdigit():
            problems.append(Problem(where, f"not read ({values}): the pair's row is taken as written"))
            continue
        out[(int(r["year"]), r["discipline"], fold(r["player"]))] = PairNation(where, country)
    return out


def names_of_the_time(rows: list[Medal | TeamPlace], problems: list[Problem]) -> None:
    """One line per country the files write otherwise than the service names it ("South Korea" for
    KOR Korea; "Malaya", before the Federation of Malaysia, for MAS): counted under today's code."""
    seen: dict[tuple[str, str], list[str]] = defaultdict(list)
    for r in rows:
        if fold(r.country_written) != fold(IOC.get(r.country, r.country)):
            seen[(r.where.split(":")[0], r.country_written)].append(r.where)
    for (_file, written), wheres in sorted(seen.items()):
        code = code_of(written)
        more = f" (and {len(wheres) - 1} more rows)" if len(wheres) > 1 else ""
        problems.append(Problem(wheres[0], f"country {written!r}{more} read as {code} ({IOC.get(code, code)})"))
