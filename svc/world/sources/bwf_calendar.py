"""Reading the BWF calendar (bwf-world-ranking/tournaments.csv): one `CalendarRow` per event
with its grade, level and dates, and whether it was cancelled; every row checked once here as
the match files' rows are (svc.world.sources.rows): as many values as the header has columns and
dates that read; a row that fails is reported with its file and line and left out."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import attrs

from svc.world.sources.rows import Fault, Problem, find, records, take

CANCELLED = re.compile(r"\s*[-(]*\s*cancell?ed\s*\)?\s*", re.I)


@attrs.define
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


def read(folder: Path, problems: list[Problem], *, strict: bool = False) -> Iterator[CalendarRow]:
    path = find(folder, "tournaments")
    if path is None:
        return
    for where, r, faults in records(path, path.name):
        row = _row(r, where, faults) if r is not None else None
        if take(where, faults, strict, problems):
            yield row


def _row(r: dict[str, str], where: str, faults: list[Fault]) -> CalendarRow | None:
    try:
        name, grade = " ".join(r["name"].split()), r["type"].strip() or None
        city, country = r["city"].strip(), r["country"]
        start_text, end_text = r["start_date"], r["end_date"]
    except KeyError as exc:  # a column the row needs is not in its file's header
        faults.append(Fault(f"no column {exc}"))
        return None
    try:
        start = dt.datetime.strptime(start_text.strip(), "%m/%d/%Y").date()
        end = dt.datetime.strptime(end_text.strip(), "%m/%d/%Y").date()
    except ValueError as exc:
        faults.append(Fault(f"dates not read ({exc})"))
        return None
    cancelled = bool(CANCELLED.search(name))
    return CalendarRow(
        where=where,
        name=" ".join(CANCELLED.sub(" ", name).split()),
        grade=grade,
        city=None if city.upper() in ("TBC", "TBA", "") else city,
        country=country.strip(),
        start=start,
        end=max(start, end),
        junior=bool(re.search(r"junior|\bu1[3579]\b|\bu2[13]\b", f"{name} {grade or ''}", re.I)),
        cancelled=cancelled,
    )
