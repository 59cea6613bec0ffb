"""Reading the BWF World Tour match files (bwf-world-tour/{ms,ws,md,wd,xd}.csv): one
`TourRow` per match with what is certain, every row checked once here (svc.world.sources.rows:
the full import keeps a row with what is certain and reports its faults with file and line; an
increment refuses a row with any fault). No row is dropped silently.

What a row is checked for: as many values as the header has columns; a tournament, a known
discipline and a day (DD-MM-YYYY); every player named, with a nationality the country mapping
knows (svc.world.sources.countries: never a new country); a known host country and round; the
winner 0, 1 or 2 and `retired` True or False; every game score a-b and possible, and the games
of a match played out agreeing with the winner; and, in one file, no match twice (the same
tournament, discipline, round and players).

The files' known defect: in doubles, side two's second player repeats the first (the
scraper kept one name). `TourRow.side2` then holds the one player known; the importer
rebuilds the pair (svc.world.sources.bwf).
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import attrs

from svc.world.generate.calendar import DISCIPLINES
from svc.world.generate.draws import rounds_of
from svc.world.generate.ids import fold
from svc.world.sources.countries import code_of, nationality_code
from svc.world.sources.names import person_key
from svc.world.sources.rows import Fault, Problem, records, take

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
ROUND_ORDER = tuple(rounds_of(128))  # the knockout rounds, first to final


@attrs.define
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


# how the full import keeps a row with these faults (an increment refuses it)
KEPT_AS_WRITTEN = "kept as written"
GAMES_LEFT_OUT = "the games from it on are left out"


def read(path: Path, problems: list[Problem], *, strict: bool = False) -> Iterator[TourRow]:
    """The matches of one discipline's file that the import takes (rows.take; `strict` for an
    increment, which refuses a row with any fault); every fault becomes a problem with its
    file and line."""
    checked: list[tuple[str, dict[str, str] | None, TourRow | None, list[Fault]]] = []
    for where, record, faults in records(path, path.name):
        row = _row(record, where, faults) if record is not None else None
        checked.append((where, record, row, faults))
    _repeats(checked)
    for where, _record, row, faults in checked:
        if take(where, faults, strict, problems):
            yield row


def _repeats(checked: list[tuple[str, dict[str, str] | None, TourRow | None, list[Fault]]]) -> None:
    """The same match twice in one file (its tournament, discipline, round and players, names in
    any order or case): a row repeated value for value is taken once and the repeat refused;
    rows of one match that disagree are all refused, since which of them is true cannot be told."""
    by_match: dict[tuple, list[int]] = defaultdict(list)
    for i, (_where, _record, row, _faults) in enumerate(checked):
        if row is not None:
            by_match[_match_key(row)].append(i)
    for indexes in by_match.values():
        if len(indexes) < 2:
            continue
        first = checked[indexes[0]]
        alike = all(_values(checked[i][1]) == _values(first[1]) for i in indexes)
        for i in indexes:
            if alike and i != indexes[0]:
                checked[i][3].append(Fault(f"a repeat of {first[0]}"))
            elif not alike:
                others = ", ".join(checked[j][0] for j in indexes if j != i)
                checked[i][3].append(Fault(f"the same match as {others} with other values"))


def _match_key(row: TourRow) -> tuple:
    players = frozenset(person_key(name, nat) for name, nat in row.side1 + row.side2)
    return fold(row.tournament), row.discipline, row.round, players


def _values(record: dict[str, str] | None) -> tuple[str, ...]:
    return tuple(v.strip() for v in (record or {}).values())


def _row(r: dict[str, str], where: str, faults: list[Fault]) -> TourRow | None:
    """The match of one record, what is wrong with it added to `faults`; None when a fault
    leaves nothing certain to keep."""
    try:
        row = _match_of(r, where, faults)
    except KeyError as exc:  # a column the row needs is not in its file's header
        faults.append(Fault(f"no column {exc}"))
        return None
    return None if any(f.kept is None for f in faults) else row


def _match_of(r: dict[str, str], where: str, faults: list[Fault]) -> TourRow | None:
    tournament = " ".join(r["tournament"].split())
    if not tournament:
        faults.append(Fault("no tournament"))
    discipline = r["discipline"].strip().upper()
    if discipline not in DISCIPLINES:
        faults.append(Fault(f"unknown discipline {r['discipline']!r}"))
        return None  # its players' columns depend on it
    try:
        day = dt.datetime.strptime(r["date"].strip(), "%d-%m-%Y").date()
    except ValueError:
        faults.append(Fault(f"date {r['date']!r} is not a day (DD-MM-YYYY)"))
        day = None
    if code_of(r["country"]) is None:
        faults.append(Fault(f"unknown host country {r['country']!r}", "kept without a host country"))
    if r["round"] not in ROUNDS and r["round"] not in GROUP_ROUNDS:
        faults.append(Fault(f"unknown round {r['round']!r}", "kept without a round code"))
    if discipline in ("MD", "WD", "XD"):
        side1 = [
            _player(r, "team_one_player_one", "team_one_player_one_nationality", faults),
            _player(r, "team_one_player_two", "team_one_player_two_nationality", faults),
        ]
        side2 = [_player(r, "team_two_player_one", "team_two_player_one_nationality", faults)]
        second = r["team_two_player_two"].strip()
        if second and second != side2[0][0]:  # a file without the defect: both players are known
            side2.append(_player(r, "team_two_player_two", "team_two_player_two_nationality", faults))
    else:
        side1 = [_player(r, "team_one_players", "team_one_nationalities", faults)]
        side2 = [_player(r, "team_two_players", "team_two_nationalities", faults)]
    retired = r["retired"].strip() == "True"
    if r["retired"].strip() not in ("True", "False"):
        faults.append(Fault(f"retired {r['retired']!r} is not True or False", "taken as not retired"))
    winner = int(r["winner"]) if r["winner"].strip() in ("0", "1", "2") else -1
    if winner == -1:
        faults.append(Fault(f"winner {r['winner']!r} is not 0, 1 or 2", "taken as unknown"))
        winner = 0
    elif winner == 0 and not retired:
        faults.append(
            Fault(
                "winner 0 (a side retired) on a match not retired",
                "its winner taken from the draw or the score, as for a retirement",
            )
        )
    games: list[tuple[int, int]] = []
    texts = [r.get(f"game_{g}_score", "") for g in (1, 2, 3)]
    played = [t for t in texts if t and t.strip()]
    for i, text in enumerate(played):
        score = _score(text)
        if score is None:
            faults.append(Fault(f"game {i + 1} score {text!r} does not read as a-b", GAMES_LEFT_OUT))
            break
        # the last game of a retirement may be unfinished, or won before the retirement
        unfinished_allowed = retired and i == len(played) - 1
        if not (legal_game(*score, finished=True) or unfinished_allowed and legal_game(*score, finished=False)):
            faults.append(Fault(f"game {i + 1} score {text!r} is impossible", GAMES_LEFT_OUT))
            break
        games.append(score)
    if len(games) == len(played) and not retired and winner in (1, 2):
        faults.extend(_result_faults(games, winner))
    if day is None:
        return None
    rallies: list[list[tuple[int, int]]] | None = []
    for g in range(1, len(games) + 1):
        seq = _rallies(r.get(f"game_{g}_scores", ""))
        if seq is None or seq[-1] != games[g - 1] or not _steps(seq):
            rallies = None  # not recorded, or not the game's score: no rallies for this match
            break
        rallies.append(seq)
    return TourRow(
        where=where,
        tournament=tournament,
        city=r["city"].strip(),
        country=r["country"].strip(),
        day=day,
        tournament_type=r["tournament_type"].strip(),
        discipline=discipline,
        round=r["round"].strip(),
        winner=winner,
        retired=retired,
        games=games,
        side1=side1,
        side2=side2,
        rallies=rallies or None,
    )


def _player(r: dict[str, str], name_column: str, nationality_column: str, faults: list[Fault]) -> tuple[str, str]:
    """(name as written, IOC code) of one player. A player without a name, or whose nationality
    the country mapping does not know, cannot be told from any other: no import makes one up."""
    name, written = r[name_column].strip(), r[nationality_column].strip()
    if not any(c.isalpha() for c in name):
        faults.append(Fault(f"name {name!r} in {name_column} has no letters" if name else f"no name in {name_column}"))
    code = nationality_code(written)
    if code is None:
        faults.append(
            Fault(
                f"unknown country {written!r} in {nationality_column}"
                if written
                else f"no nationality in {nationality_column}"
            )
        )
    return name, code or ""


def _result_faults(games: list[tuple[int, int]], winner: int) -> list[Fault]:
    """A match played out (not retired) is over when a side has won two games, and the winner
    column names that side."""
    won = [0, 0]
    for n, (a, b) in enumerate(games, 1):
        if max(won) == 2:
            return [Fault(f"game {n} played after the match was won", KEPT_AS_WRITTEN)]
        won[0 if a > b else 1] += 1
    if max(won) < 2:
        return [Fault(f"{len(games)} game(s) played and no side won two", KEPT_AS_WRITTEN)]
    if won[winner - 1] != 2:
        return [Fault(f"winner {winner} but side {3 - winner} won the games", KEPT_AS_WRITTEN)]
    return []


def _steps(seq: list[tuple[int, int]]) -> bool:
    """Each rally adds one point to one side."""
    prev = (0, 0)
    for a, b in seq:
        if (a - prev[0], b - prev[1]) not in ((1, 0), (0, 1)):
            return False
        prev = (a, b)
    return True
