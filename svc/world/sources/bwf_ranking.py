"""Reading the BWF world ranking files (bwf-world-ranking/<YYYY-MM-DD>/{MS,WS,MD,WD,XD}.csv):
one `RankingRow` per ranked player or pair, with its file and line for reports, every row
checked once here as the match files' rows are (svc.world.sources.rows): as many values as the
header has columns, every player named, a rank of 1 or more and points that are a number, and
a country the mapping knows (svc.world.sources.countries). The full import keeps a row whose
country is unknown without a country (and counts it); an increment refuses it. A list naming
one player twice at one rank is left to the builder, which sees the whole list
(svc.world.sources.bwf, `Builder.rankings`)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path

import attrs

from svc.world.sources.bwf_tour import DISCIPLINES
from svc.world.sources.countries import code_of
from svc.world.sources.rows import Fault, Problem, find, records, take

WEEK = re.compile(r"\d{4}-\d\d-\d\d")  # a week's folder: the day its list was published


@attrs.define
class RankedPlayer:
    bwf_id: str  # BWF's own player id: the same person in every week's list
    name: str  # as published: FAMILY name in capitals ("LEE Zii Jia", "Viktor AXELSEN")
    country: str  # a country NAME as published ("Chinese Taipei")


@attrs.define
class RankingRow:
    where: str
    week: dt.date
    discipline: str
    rank: int
    points: int
    players: list[RankedPlayer]


def weeks(folder: Path, problems: list[Problem] | None = None) -> list[tuple[dt.date, Path]]:
    """The weekly lists under `folder`: sub-folders named YYYY-MM-DD, oldest first. A folder
    named like a week that is not a day ("2025-02-30") is reported and left out; other folders
    (bwf-world-tour/ beside the weeks of an increment) are not lists."""
    out = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        try:
            out.append((dt.date.fromisoformat(sub.name), sub))
        except ValueError:
            if problems is not None and WEEK.fullmatch(sub.name):
                problems.append(Problem(f"{sub.name}/", "not a day (YYYY-MM-DD): the week's lists are left out"))
    return out


def read(folder: Path, problems: list[Problem], *, strict: bool = False) -> Iterator[RankingRow]:
    """The ranking rows of every week under `folder` that the import takes (rows.take; `strict`
    for an increment); every fault becomes a problem with its file and line."""
    for week, sub in weeks(folder, problems):
        for discipline in DISCIPLINES:
            path = find(sub, discipline)
            if path is None:
                problems.append(
                    Problem(f"{sub.name}/{discipline}.csv", "missing: no list of this discipline that week")
                )
                continue
            for where, record, faults in records(path, f"{sub.name}/{path.name}"):
                row = _row(record, where, week, discipline, faults) if record is not None else None
                if take(where, faults, strict, problems):
                    yield row


def _row(r: dict[str, str], where: str, week: dt.date, discipline: str, faults: list[Fault]) -> RankingRow | None:
    """The ranking row of one record, what is wrong with it added to `faults`; None when a fault
    leaves nothing certain to keep."""
    columns = (
        [("player_id", "name", "country")]
        if discipline in ("MS", "WS")
        else [(f"player_id_{n}", f"name_{n}", f"country_{n}") for n in ("one", "two")]
    )
    try:
        players = [
            RankedPlayer(r[pid].strip(), " ".join(r[name].split()), r[country].strip())
            for pid, name, country in columns
        ]
        rank_text, points_text = r["rank"], r["points"]
    except KeyError as exc:  # a column the row needs is not in its file's header
        faults.append(Fault(f"no column {exc}"))
        return None
    for (_pid, name, country), player in zip(columns, players):
        if not any(c.isalpha() for c in player.name):
            faults.append(
                Fault(f"no name in {name}" if not player.name else f"name {player.name!r} in {name} has no letters")
            )
        if code_of(player.country) is None:
            faults.append(Fault(f"unknown country {player.country!r} in {country}", "kept without a country"))
    rank = int(rank_text) if rank_text.strip().isascii() and rank_text.strip().isdigit() else 0
    if rank < 1:
        faults.append(Fault(f"rank {rank_text!r} is not a rank (1, 2, ...)"))
    try:
        points = int(float(points_text))
    except (ValueError, OverflowError):  # not a number, or infinite
        faults.append(Fault(f"points {points_text!r} is not a number"))
        points = 0
    if any(f.kept is None for f in faults):
        return None
    return RankingRow(where, week, discipline, rank, points, players)
