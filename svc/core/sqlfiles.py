"""Named SQL statements kept in files under sql/queries/.

A file holds one or more statements, each introduced by `-- name: some-name` and a
one-line comment saying what it returns. Parameters are written `:name` and become
asyncpg's `$1, $2 ...` at load time, so callers pass keyword arguments. All files
load at start-up; a duplicate name is an error.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Mapping

import attrs

SQL_DIR = Path(__file__).resolve().parents[2] / "sql"
_NAME = re.compile(r"^--\s*name:\s*([a-z0-9][a-z0-9-]*)\s*$", re.M)
# `:name` but not `::type` casts and not inside a `$1`-style placeholder.
_PARAM = re.compile(r"(?<![:\w]):([a-z_][a-z0-9_]*)")


@attrs.frozen
class Statement:
    name: str
    sql: str
    params: tuple[str, ...]
    source: str

    def args(self, given: Mapping[str, Any]) -> list[Any]:
        missing = [p for p in self.params if p not in given]
        extra = [p for p in given if p not in self.params]
        if missing or extra:
            raise TypeError(f"statement {self.name}: missing {missing}, unexpected {extra}")
        return [given[p] for p in self.params]


def _compile(name: str, body: str, source: str) -> Statement:
    order: list[str] = []

    def number(match: re.Match[str]) -> str:
        param = match.group(1)
        if param not in order:
            order.append(param)
        return f"${order.index(param) + 1}"

    # Comments may mention :words; only the code lines are rewritten.
    lines = [line if line.lstrip().startswith("--") else _PARAM.sub(number, line) for line in body.splitlines()]
    return Statement(name=name, sql="\n".join(lines).strip().rstrip(";"), params=tuple(order), source=source)


class Queries:
    """Attribute access by name with dashes as underscores: Q.results_by_day."""

    def __init__(self, statements: dict[str, Statement]) -> None:
        self._by_name = statements

    def __getattr__(self, attr: str) -> Statement:
        try:
            return self._by_name[attr.replace("_", "-")]
        except KeyError:
            raise AttributeError(f"no SQL statement named {attr.replace('_', '-')!r}") from None

    def __contains__(self, name: str) -> bool:
        return name in self._by_name


def load(directory: Path = SQL_DIR / "queries") -> Queries:
    statements: dict[str, Statement] = {}
    for path in sorted(directory.rglob("*.sql")):
        text = path.read_text()
        marks = list(_NAME.finditer(text))
        for i, mark in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            name = mark.group(1)
            if name in statements:
                raise ValueError(f"duplicate SQL name {name!r} in {path} and {statements[name].source}")
            statements[name] = _compile(name, text[mark.end():end], str(path.relative_to(directory)))
    return Queries(statements)


Q = load()
