"""The public record of the great events (as the package ships it, svc/world/sources/data/record/,
copied from ../shared/data/record/ with its README), as the champion
nation of each edition: every Thomas, Uber and Sudirman Cup, every Olympic gold and every World
Championships gold. Read with the csv module alone; the World Championships file writes countries
by name ("South Korea", "England", "Chinese Taipei"), turned into the IOC codes the worlds use by
the importer's own mapping (svc.world.sources.countries), so that both read a name the same way."""

from __future__ import annotations

import csv
from pathlib import Path

import attrs

from svc.world.sources.countries import code_of

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "svc" / "world" / "sources" / "data" / "record"

# The record's event names, and the series slug each world gives that event.
TEAM_EVENTS = ("thomas-cup", "uber-cup", "sudirman-cup")
OLYMPICS, WORLDS = "olympic-games", "world-championships"
FAMILIES = (*TEAM_EVENTS, OLYMPICS, WORLDS)
TEAM = "team"  # the discipline column of a team event's row

# world-championships-podiums.csv's discipline_key -> the worlds' discipline codes
DISCIPLINES = {
    "mens_singles": "MS",
    "womens_singles": "WS",
    "mens_doubles": "MD",
    "womens_doubles": "WD",
    "mixed_doubles": "XD",
}


@attrs.frozen
class Champion:
    event: str  # one of FAMILIES
    year: int  # the edition's label year (Tokyo 2020 was played in 2021: 2020)
    discipline: str  # MS ... XD, or TEAM
    nation: str  # IOC code
    note: str = ""


class RecordError(ValueError):
    pass


def champion_nations(folder: Path = FOLDER) -> list[Champion]:
    """champion-nations.csv: the team events' champions and the Olympic golds, already in codes."""
    with open(folder / "champion-nations.csv", newline="", encoding="utf-8") as f:
        return [
            Champion(r["event"], int(r["edition"]), r["discipline"], r["nation"], r["note"] or "")
            for r in csv.DictReader(f)
        ]


def world_championship_golds(folder: Path = FOLDER) -> list[Champion]:
    """world-championships-podiums.csv's gold medallists (rank 1), their country as a code."""
    out = []
    with open(folder / "world-championships-podiums.csv", newline="", encoding="utf-8") as f:
        for line, r in enumerate(csv.DictReader(f), start=2):
            if r["rank"] != "1":
                continue
            nation = code_of(r["country_name"])
            if nation is None or r["discipline_key"] not in DISCIPLINES:
                # a fault in the record is reported, never guessed past: a figure built on it would lie
                raise RecordError(
                    f"world-championships-podiums.csv:{line}: {r['country_name']!r} / {r['discipline_key']!r} not known"
                )
            out.append(
                Champion(WORLDS, int(r["year"]), DISCIPLINES[r["discipline_key"]], nation, r["participant_name"])
            )
    return out


def champions(folder: Path = FOLDER) -> list[Champion]:
    """Every champion nation on record, of the five event families."""
    return champion_nations(folder) + world_championship_golds(folder)
