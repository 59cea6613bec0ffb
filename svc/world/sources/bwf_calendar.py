"""Reading the BWF calendar (bwf-world-ranking/tournaments.csv): one `CalendarRow` per event
with its grade, level and dates, and whether it was cancelled; problems with file and line."""

from __future__ import annotations

import csv
import datetime as dt
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from svc.world.sources.bwf_tour import Problem, find, open_text

CANCELLED = re.compile(r"\s*[-(]*\s*cancell?ed\s*\)?\s*", re.I)


@dataclass
class CalendarRow:
    where: str
    name: str  # as published, less the "(Cancelled)" mark
    grade: str | None  # as published: "HSBC BWF World Tour Super 500", "Future Series", ...; None when blank
    city: str | None  # None for "TBC"
    country: str
    start: dt.date
    end: dt.date
    junior: bool
    cancelled: bool


def read(folder: Path, problems: list[Problem]) -> Iterator[CalendarRow]:
    path = find(folder, "tournaments")
    if path is None:
        return
    with open_text(path) as f:
        reader = csv.DictReader(f)
        for r in reader:
            where = f"{path.name}:{reader.line_num}"
            try:
                start = dt.datetime.strptime(r["start_date"].strip(), "%m/%d/%Y").date()
                end = dt.datetime.strptime(r["end_date"].strip(), "%m/%d/%Y").date()
            except (KeyError, ValueError) as exc:
                problems.append(Problem(where, f"dates not read ({exc}): the event is left out of the calendar"))
                continue
            name = " ".join(r["name"].split())
            cancelled = bool(CANCELLED.search(name))
            grade = r["type"].strip() or None
            city = r["city"].strip()
            yield CalendarRow(where=where, name=" ".join(CANCELLED.sub(" ", name).split()), grade=grade,
                              city=None if city.upper() in ("TBC", "TBA", "") else city, country=r["country"].strip(),
                              start=start, end=max(start, end),
                              junior=bool(re.search(r"junior|\bu1[3579]\b|\bu2[13]\b", f"{name} {grade or ''}", re.I)),
                              cancelled=cancelled)
