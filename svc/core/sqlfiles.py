"""Named SQL statements kept in files under svc/sql/queries/.

One folder per resource (svc/sql/queries/players/, .../live/ ...); a file holds one or more
statements, each introduced by `-- name: some-name` and a one-line comment saying what it
returns. The folder is the namespace: `Q.player_record.form` is `-- name: form` in a
file of svc/sql/queries/player_record/. Parameters are written `:name` and become asyncpg's `$1, $2 ...` at
load time, so callers pass keyword arguments. All files load at start-up; a name used twice
in one folder is an error.

The SQL is data of the `svc` package (svc/sql/: queries/, schema/, derived/), found through
importlib.resources, so an installed wheel or the zipapp reads the same files as a checkout.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

import attrs

# Inside the package, not beside it: a wheel carries only what lies in its packages. Installed
# from the wheel or unpacked by the zipapp this is a folder on disk, which svc.world.derived and
# the tests glob; this module itself reads it through the Traversable interface only.
SQL_DIR: Traversable = files("svc") / "sql"
_NAME = re.compile(r"^--\s*name:\s*([a-z0-9][a-z0-9-]*)\s*$", re.M)
# `:name` but not `::type` casts and not inside a `$1`-style placeholder.
_PARAM = re.compile(r"(?<![:\w]):([a-z_][a-z0-9_]*)")
# `-- plan: per call` in a statement's comment: planned for each call's values (see Statement.fresh_plan).
_PER_CALL = re.compile(r"^--\s*plan:\s*per call\s*$", re.M)
# `-- replica: ok` in a statement's comment: it may be read from a replica (see Statement.replica).
_REPLICA = re.compile(r"^--\s*replica:\s*ok\s*$", re.M)
_WRITES = re.compile(
    r"\b(INSERT|UPDATE|DELETE|MERGE|TRUNCATE|CREATE|DROP|ALTER|LOCK|NOTIFY)\b|\bFOR\s+(UPDATE|SHARE)\b", re.I
)


@attrs.frozen
class Statement:
    name: str
    sql: str
    params: tuple[str, ...]
    source: str
    # PostgreSQL plans a statement prepared once (as asyncpg's cache keeps them) for its values
    # five times, then may keep one generic plan for all values; a statement whose best plan
    # depends on the values (a walk that stops after one page, or a scan of a range) is prepared
    # anew for each call instead, at one more round trip.
    fresh_plan: bool = False
    # A read that tolerates a replica's lag within one data version (an archive read: search, h2h,
    # the archive lists): inside a request it may run on a replica that has reached the request's
    # data version (svc.core.replicas). Never a write, nor a read that must be fresh (counting,
    # slots, the change log, the live matches).
    replica: bool = False

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
    replica = bool(_REPLICA.search(body))
    code = "\n".join(line for line in lines if not line.lstrip().startswith("--"))
    if replica and _WRITES.search(code):  # a standby refuses writes; say so at start, not on a request
        raise ValueError(f"statement {name} ({source}) is marked `-- replica: ok` but writes or locks")
    return Statement(
        name=name,
        sql="\n".join(lines).strip().rstrip(";"),
        params=tuple(order),
        source=source,
        fresh_plan=bool(_PER_CALL.search(body)),
        replica=replica,
    )


class Folder:
    """One folder of svc/sql/queries: its statements by name, with dashes as underscores
    (Q.player_record.form is `-- name: form` in a file of svc/sql/queries/player_record/),
    as aiosql does. A name is unique within its folder."""

    def __init__(self, path: str) -> None:
        self._path = path  # "players"
        self._statements: dict[str, Statement] = {}

    def __getattr__(self, attr: str) -> Statement:
        if attr.startswith("_"):  # not a statement's name, and _path may not be set yet (a copy)
            raise AttributeError(attr)
        name = attr.replace("_", "-")
        if name in self._statements:
            return self._statements[name]
        raise AttributeError(f"no SQL statement named {name!r} in svc/sql/queries/{self._path}")


class Queries:
    """svc/sql/queries as a namespace of its folders, one per resource (Q.player_record is
    svc/sql/queries/player_record/). Two levels, folder then statement, so that the type
    checker knows `Q.players.one` is a Statement."""

    def __init__(self) -> None:
        self._folders: dict[str, Folder] = {}

    def __getattr__(self, attr: str) -> Folder:
        if attr.startswith("_"):
            raise AttributeError(attr)
        if attr in self._folders:
            return self._folders[attr]
        raise AttributeError(f"no SQL folder named {attr!r} in svc/sql/queries")

    def _folder(self, name: str) -> Folder:
        if name not in self._folders:
            self._folders[name] = Folder(name)
        return self._folders[name]


def sql_files(directory: Traversable) -> Iterator[tuple[tuple[str, ...], Traversable]]:
    """(the folders below `directory`, the file) for every .sql file under it, by name at each
    level, through the Traversable interface (a Path, or a folder inside an archive)."""
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            for folders, found in sql_files(entry):
                yield (entry.name, *folders), found
        elif entry.name.endswith(".sql"):
            yield (), entry


def load(directory: Traversable = SQL_DIR / "queries") -> Queries:
    """Every statement under `directory`, whose .sql files lie in folders one level down; a name
    used twice in one folder is an error."""
    top = Queries()
    for folders, path in sql_files(directory):
        rel = "/".join((*folders, path.name))
        if len(folders) != 1:
            raise ValueError(f"{rel}: the SQL files lie in one folder per resource, one level down")
        space = top._folder(folders[0])
        text = path.read_text(encoding="utf-8")
        marks = list(_NAME.finditer(text))
        for i, mark in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            name = mark.group(1)
            if name in space._statements:
                raise ValueError(f"duplicate SQL name {name!r} in {rel} and {space._statements[name].source}")
            full = ".".join((*folders, name))
            space._statements[name] = _compile(full, text[mark.end() : end], rel)
    return top


Q = load()
