"""The public record of the great events, as the generated world must keep it: the nation that
won each Thomas, Uber and Sudirman Cup, each Olympic gold (champion-nations.csv) and each World
Championships gold (world-championships-podiums.csv, read by the importer's own reader), from the
record shipped beside the BWF files (svc/world/sources/data/record/, with its README and licence
note). The world's people are invented; these nations' victories are not.
"""

from __future__ import annotations

import csv
from functools import cache
from importlib.resources import files

from svc.world.sources.record import WORLDS, read_medals
from svc.world.sources.rows import Problem

RECORD = files("svc.world") / "sources" / "data" / "record"  # as svc.world.sources.bwf ships it (package data)
CHAMPION_NATIONS = "champion-nations.csv"
TEAM = "team"  # the discipline of a team event's title


class RecordError(ValueError):
    """A row of the record that cannot be read: the generated world would not keep it."""


@cache
def champion_nations() -> dict[tuple[str, int, str], str]:
    """(series slug, edition year as labelled, discipline or TEAM) -> IOC code of the champion
    nation. Editions played a year late keep their label (the Olympics "2020", played in 2021)."""
    out: dict[tuple[str, int, str], str] = {}
    with open(RECORD / CHAMPION_NATIONS, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            out[(row["event"], int(row["edition"]), row["discipline"])] = row["nation"]
    problems: list[Problem] = []
    for medal in read_medals(RECORD / WORLDS, problems):
        if medal.place == 1:
            out[("world-championships", medal.year, medal.discipline)] = medal.country
    if problems:
        raise RecordError("; ".join(str(p) for p in problems))
    return out


def champion_nation(series: str, year: int, discipline: str) -> str | None:
    """The nation the record says won this edition's title (None where the record has none: a
    series it does not cover, a year still to come)."""
    return champion_nations().get((series, year, discipline))
