"""The rows of the public BWF files (and of a feed's increments in their format), each checked
once where it is read, and the one rule that says whether an import takes a row.

A reader (bwf_tour, bwf_ranking, bwf_calendar) turns each row into its record and the `Fault`s
found in it. A fault either leaves nothing certain to keep (a row with too few or too many
columns, no name, an unknown country: `kept` is None) or says how the full import keeps the row
with what is certain ("kept without a round code"). `take` applies the rule:
- the full import (`world --source bwf`) keeps a row whose faults all say how, and reports each
  fault with the row's file and line;
- an increment (`import --increment`) is strict: it changes a database that serves, so a row
  with any fault is refused, reported with its file and line, and nothing of it is applied;
- a row no import can keep is refused by both.
"""

from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Iterator
from pathlib import Path

import attrs

REFUSED = "row refused"  # how a refused row's problem lines end


@attrs.define
class Problem:
    where: str  # file:line
    what: str
    refused: bool = False  # the row was refused: nothing of it was taken

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@attrs.frozen
class Fault:
    what: str  # what is wrong, naming the value and column: "unknown country 'XYZ' in team_two_nationalities"
    kept: str | None = None  # how the full import keeps the row anyway; None: no import can keep it


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


def records(path: Path, label: str) -> Iterator[tuple[str, dict[str, str] | None, list[Fault]]]:
    """Each row of a CSV file with a header: where it is (`label:line`), its record (column ->
    value), and its faults so far. A row whose number of values is not the header's has no
    record: its values cannot be told apart (a comma lost or added shifts every column after
    it). Blank lines are skipped, as csv.DictReader does."""
    with open_text(path) as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None:
            return
        for values in reader:
            if not values:
                continue
            where = f"{label}:{reader.line_num}"
            if len(values) != len(header):
                yield where, None, [Fault(f"{len(values)} columns where the header has {len(header)}")]
                continue
            yield where, dict(zip(header, values)), []


def take(where: str, faults: list[Fault], strict: bool, problems: list[Problem]) -> bool:
    """Whether the import takes the row (see the module); each fault becomes a problem line,
    ending with how the row was kept or with `row refused`."""
    refused = any(f.kept is None for f in faults) or (strict and bool(faults))
    for f in faults:
        problems.append(Problem(where, f"{f.what}: {REFUSED if refused else f.kept}", refused))
    return not refused
