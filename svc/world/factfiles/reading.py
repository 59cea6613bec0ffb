"""How a fact file is read: a CSV table's rows with their file and line, a TOML file's content,
and the checks every reader shares (a row twice, an unknown key, a code the countries lack)."""

from __future__ import annotations

import csv
import datetime as dt
import tomllib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from importlib.resources import files
from typing import Any

import attrs

DATA = files("svc.world") / "data"  # package data: an installed wheel or the zipapp carries it


class FactFileError(ValueError):
    """A fact file that does not read: its name, line and what is wrong."""


@attrs.frozen
class Row:
    """One CSV row, its values read by column with the file and line in every error."""

    file: str
    line: int
    columns: tuple[str, ...]
    values: dict[str, str]

    def fail(self, message: str) -> FactFileError:
        return FactFileError(f"{self.file}:{self.line}: {message}")

    def text(self, column: str, *default: None) -> Any:
        value = self.values[column].strip()
        if value:
            return value
        if default:
            return default[0]
        raise self.fail(f"no {column}")

    def integer(self, column: str, *default: None) -> Any:
        value = self.text(column, *default)
        try:
            return value if value is None else int(value)
        except ValueError:
            raise self.fail(f"{column} is not a whole number: {value!r}") from None

    def number(self, column: str) -> float:
        try:
            return float(self.text(column))
        except ValueError:
            raise self.fail(f"{column} is not a number: {self.values[column]!r}") from None

    def yes(self, column: str) -> bool:
        value = self.text(column)
        if value not in ("yes", "no"):
            raise self.fail(f"{column} is neither yes nor no: {value!r}")
        return value == "yes"

    def member(self, column: str, known: set[str]) -> str:
        value = self.text(column)
        if value not in known:
            raise self.fail(f"{column} {value!r} is not one the other files hold")
        return value


def table(name: str, *columns: str, more: bool = False) -> Iterator[Row]:
    """The rows of a CSV fact file whose header is `columns` (followed by others when `more`: a
    matrix's); comment lines (# ...) and blank lines are skipped, line numbers kept."""
    numbered = [
        (i, line)
        for i, line in enumerate((DATA / name).read_text(encoding="utf-8").splitlines(), 1)
        if line.strip() and not line.startswith("#")
    ]
    parsed = list(csv.reader(line for _i, line in numbered))
    if not parsed:
        return
    header = tuple(parsed[0])
    if header[: len(columns)] != columns or (header != columns and not more):
        raise FactFileError(f"{name}: columns {header}, expected {columns}")
    for (line, _text), values in zip(numbered[1:], parsed[1:]):
        if len(values) != len(header):
            raise FactFileError(f"{name}:{line}: {len(values)} values for {len(header)} columns")
        yield Row(name, line, header, dict(zip(header, values)))


def unique(rows: Iterator[Row], *key: str) -> Iterator[Row]:
    """The rows, failing on a second row with the same key."""
    seen: set[tuple[str, ...]] = set()
    for r in rows:
        k = tuple(r.text(c) for c in key)
        if k in seen:
            raise r.fail(f"{'/'.join(key)} {'/'.join(k)} twice")
        seen.add(k)
        yield r


@contextmanager
def toml(name: str) -> Iterator[dict[str, Any]]:
    """The content of a TOML fact file; a syntax error, a key missing or unknown, or a value of the
    wrong kind fails naming the file (and, for syntax, the line)."""
    try:
        with (DATA / name).open("rb") as fh:
            data = tomllib.load(fh)
        yield data
    except (KeyError, TypeError, ValueError) as e:  # tomllib.TOMLDecodeError is a ValueError
        raise FactFileError(f"{name}: {e}") from e


def known_keys(where: str, table: dict[str, Any], known: set[str]) -> None:
    """A key the reader does not know is a typo that would silently fall back to a default: refused."""
    unknown = sorted(set(table) - known)
    if unknown:
        raise ValueError(f"{where}: unknown keys {unknown}")


def nations_of(codes: Iterable[str], known: set[str]) -> list[str]:
    """The codes, each one of the generated world's nations (countries.csv)."""
    out = list(codes)
    unknown = [c for c in out if c not in known]
    if unknown:
        raise ValueError(f"codes that are not the generated world's nations: {unknown}")
    return out


def day_of(r: Row, column: str) -> dt.date:
    try:
        return dt.date.fromisoformat(r.text(column))
    except ValueError:
        raise r.fail(f"{column} is not a day YYYY-MM-DD: {r.values[column]!r}") from None
