"""Reading the BWF World Tour match files (bwf-world-tour/{ms,ws,md,wd,xd}.csv): one
`TourRow` per match with what is certain, and a `Problem` with file and line for whatever is
not (a malformed score, an unknown round, a date that does not parse). No row is dropped
silently: a row that cannot be read at all is a problem too.

The files' known defect: in doubles, side two's second player repeats the first (the
scraper kept one name). `TourRow.side2` then holds the one player known; the importer
rebuilds the pair (svc.world.sources.bwf).
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from svc.world.generate.calendar import DISCIPLINES

# round as written -> (round code, name as the draw names it, qualifying)
ROUNDS = {
    "Qualification round of 32": (None, "Qualification round of 32", True),
    "Qualification round of 16": (None, "Qualification round of 16", True),
    "Qualification quarter final": (None, "Qualification quarter-finals", True),
    "Round of 64": ("R64", "Round of 64", False),
    "Round of 32": ("R32", "Round of 32", False),
    "Round of 16": ("R16", "Round of 16", False),
    "Quarter final": ("QF", "Quarter-finals", False),
    "Semi final": ("SF", "Semi-finals", False),
    "Final": ("F", "Final", False),
}
GROUP_ROUNDS = {"Round 1", "Round 2", "Round 3"}  # the World Tour Finals' group stage


@dataclass
class Problem:
    where: str  # file:line
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass
class TourRow:
    where: str  # file:line, for reports
    tournament: str
    city: str
    country: str
    day: dt.date
    tournament_type: str
    discipline: str
    round: str  # as written
    winner: int  # 1, 2, or 0 when a side retired (the file does not say who won)
    retired: bool
    games: list[tuple[int, int]]
    side1: list[tuple[str, str]]  # (name as written, nationality code)
    side2: list[tuple[str, str]]  # doubles: only side two's first player is known
    rallies: list[list[tuple[int, int]]] | None = None  # score after each rally, game by game
    problems: list[str] = field(default_factory=list)


def open_text(path: Path) -> io.TextIOBase:
    """A CSV file as text, plain or gzip-compressed (NAME.csv or NAME.csv.gz)."""
    if path.suffix == ".gz":
        return io.TextIOWrapper(gzip.open(path), encoding="utf-8", newline="")
    return open(path, encoding="utf-8", newline="")


def find(folder: Path, stem: str) -> Path | None:
    for name in (f"{stem}.csv", f"{stem}.csv.gz"):
        if (folder / name).is_file():
            return folder / name
    return None


def legal_game(a: int, b: int, finished: bool) -> bool:
    """A rally-point game score (21, two clear, 30 at most); an unfinished one is any score
    the game could stand at."""
    hi, lo = max(a, b), min(a, b)
    if lo < 0 or hi > 30:
        return False
    won = (hi >= 21 and hi - lo >= 2) or hi == 30
    if not finished:
        return not won and not (hi == 30 and lo == 29)
    return won and (hi == 21 and lo <= 19 or hi > 21 and hi - lo == 2 or hi == 30 and lo == 29)


def _score(text: str) -> tuple[int, int] | None:
    a, sep, b = text.strip().partition("-")
    if not sep or not a.strip().isdigit() or not b.strip().isdigit():
        return None
    return int(a), int(b)


_RALLY_LIST = re.compile(r"^\[\s*'\d+-\d+'(\s*,\s*'\d+-\d+')*\s*\]$")
_RALLY = re.compile(r"'(\d+)-(\d+)'")


def _rallies(text: str) -> list[tuple[int, int]] | None:
    """The score after each rally from a list written like ['0-0', '1-0', ...]; None when the
    text is not such a list (a regular expression: some 40,000 lists, ast would take seconds)."""
    text = text.strip()
    if not _RALLY_LIST.match(text):
        return None
    scores = [(int(a), int(b)) for a, b in _RALLY.findall(text)]
    return [s for s in scores if s != (0, 0)]  # the list starts at 0-0, before any rally


def read(path: Path, problems: list[Problem]) -> Iterator[TourRow]:
    """Every match of one discipline's file; unreadable rows become problems."""
    with open_text(path) as f:
        reader = csv.DictReader(f)
        for record in reader:
            where = f"{path.name}:{reader.line_num}"
            try:
                row = _row(record, where)
            except (KeyError, ValueError) as exc:
                problems.append(Problem(where, f"row not read: {exc}"))
                continue
            for what in row.problems:
                problems.append(Problem(where, what))
            yield row


def _row(r: dict[str, str], where: str) -> TourRow:
    notes: list[str] = []
    discipline = r["discipline"].strip().upper()
    if discipline not in DISCIPLINES:
        raise ValueError(f"unknown discipline {r['discipline']!r}")
    day = dt.datetime.strptime(r["date"].strip(), "%d-%m-%Y").date()
    if r["round"] not in ROUNDS and r["round"] not in GROUP_ROUNDS:
        notes.append(f"unknown round {r['round']!r}: kept without a round code")
    doubles = discipline in ("MD", "WD", "XD")
    if doubles:
        side1 = [(r["team_one_player_one"].strip(), r["team_one_player_one_nationality"].strip()),
                 (r["team_one_player_two"].strip(), r["team_one_player_two_nationality"].strip())]
        side2 = [(r["team_two_player_one"].strip(), r["team_two_player_one_nationality"].strip())]
        second = r["team_two_player_two"].strip()
        if second and second != side2[0][0]:  # a file without the defect: both players are known
            side2.append((second, r["team_two_player_two_nationality"].strip()))
    else:
        side1 = [(r["team_one_players"].strip(), r["team_one_nationalities"].strip())]
        side2 = [(r["team_two_players"].strip(), r["team_two_nationalities"].strip())]
    retired = r["retired"].strip() == "True"
    winner = int(r["winner"]) if r["winner"].strip() in ("0", "1", "2") else -1
    if winner == -1:
        notes.append(f"winner {r['winner']!r} is not 0, 1 or 2: taken as unknown")
        winner = 0
    games: list[tuple[int, int]] = []
    texts = [r.get(f"game_{g}_score", "") for g in (1, 2, 3)]
    played = [t for t in texts if t and t.strip()]
    for i, text in enumerate(played):
        score = _score(text)
        if score is None:
            notes.append(f"game {i + 1} score {text!r} does not read as a-b: the games from it on are left out")
            break
        # the last game of a retirement may be unfinished, or won before the retirement
        unfinished_allowed = retired and i == len(played) - 1
        if not (legal_game(*score, finished=True) or unfinished_allowed and legal_game(*score, finished=False)):
            notes.append(f"game {i + 1} score {text!r} is impossible: the games from it on are left out")
            break
        games.append(score)
    rallies: list[list[tuple[int, int]]] | None = []
    for g in range(1, len(games) + 1):
        seq = _rallies(r.get(f"game_{g}_scores", ""))
        if seq is None or seq[-1] != games[g - 1] or not _steps(seq):
            rallies = None  # not recorded, or not the game's score: no rallies for this match
            break
        rallies.append(seq)
    return TourRow(where=where, tournament=" ".join(r["tournament"].split()), city=r["city"].strip(),
                   country=r["country"].strip(), day=day, tournament_type=r["tournament_type"].strip(),
                   discipline=discipline, round=r["round"].strip(), winner=winner, retired=retired, games=games,
                   side1=side1, side2=side2, rallies=rallies or None, problems=notes)


def _steps(seq: list[tuple[int, int]]) -> bool:
    """Each rally adds one point to one side."""
    prev = (0, 0)
    for a, b in seq:
        if (a - prev[0], b - prev[1]) not in ((1, 0), (0, 1)):
            return False
        prev = (a, b)
    return True
