"""Reading the BWF world ranking files (bwf-world-ranking/<YYYY-MM-DD>/{MS,WS,MD,WD,XD}.csv):
one `RankingRow` per ranked player or pair, with its file and line for reports."""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from svc.world.sources.bwf_tour import DISCIPLINES, Problem, find, open_text


@dataclass
class RankedPlayer:
    bwf_id: str  # BWF's own player id: the same person in every week's list
    name: str  # as published: FAMILY name in capitals ("LEE Zii Jia", "Viktor AXELSEN")
    country: str  # a country NAME as published ("Chinese Taipei")


@dataclass
class RankingRow:
    where: str
    week: dt.date
    discipline: str
    rank: int
    points: int
    players: list[RankedPlayer]


def weeks(folder: Path) -> list[tuple[dt.date, Path]]:
    """The weekly lists under `folder`: sub-folders named YYYY-MM-DD, oldest first."""
    out = []
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        try:
            out.append((dt.date.fromisoformat(sub.name), sub))
        except ValueError:
            continue
    return out


def read(folder: Path, problems: list[Problem]) -> Iterator[RankingRow]:
    for week, sub in weeks(folder):
        for discipline in DISCIPLINES:
            path = find(sub, discipline)
            if path is None:
                problems.append(Problem(f"{sub.name}/{discipline}.csv", "missing: no list of this discipline that week"))
                continue
            with open_text(path) as f:
                reader = csv.DictReader(f)
                for r in reader:
                    where = f"{sub.name}/{path.name}:{reader.line_num}"
                    try:
                        if discipline in ("MS", "WS"):
                            players = [RankedPlayer(r["player_id"].strip(), " ".join(r["name"].split()), r["country"].strip())]
                        else:
                            players = [RankedPlayer(r[f"player_id_{n}"].strip(), " ".join(r[f"name_{n}"].split()),
                                                    r[f"country_{n}"].strip()) for n in ("one", "two")]
                        yield RankingRow(where, week, discipline, int(r["rank"]), int(float(r["points"])), players)
                    except (KeyError, ValueError) as exc:
                        problems.append(Problem(where, f"row not read: {exc}"))
