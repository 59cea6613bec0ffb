"""The bundle: one CSV per world table plus manifest.json (format in docs/bundle.md).

Writing turns Python values into the text PostgreSQL's COPY ... (FORMAT csv) reads:
NULL is an empty unquoted field, booleans t/f, arrays {a,b}, dates ISO, timestamps ISO 8601
with +00:00. Reading only validates and hands out paths; the importer streams the files.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import json
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

FORMAT_VERSION = 1
MANIFEST = "manifest.json"

# Every world table with its columns in table order, listed in an order that respects the
# foreign keys (a table only refers to tables before it). Must match svc/sql/schema/002_world.sql.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("countries", ("code", "name")),
    ("cities", ("id", "name", "country", "elevation_m")),
    ("venues", ("id", "name", "city_id", "elevation_m")),
    ("series", ("slug", "name", "level", "para", "team", "first_year")),
    (
        "tournaments",
        (
            "id",
            "series",
            "name",
            "year",
            "level",
            "para",
            "team",
            "tier",
            "start_date",
            "end_date",
            "city_id",
            "venue_id",
            "prize_money",
            "medals",
            "draw_size",
        ),
    ),
    (
        "players",
        ("id", "name", "slug", "country", "gender", "born", "hand", "height_cm", "coach", "sport_class", "strength"),
    ),
    (
        "ties",
        (
            "id",
            "tournament_id",
            "stage",
            "round_code",
            "number",
            "team1",
            "team2",
            "score1",
            "score2",
            "winner",
            "day",
            "venue",
        ),
    ),
    (
        "matches",
        (
            "id",
            "event_id",
            "tournament_id",
            "discipline",
            "sport_class",
            "round_code",
            "round_name",
            "position",
            "tie_id",
            "tie_order",
            "side1",
            "side2",
            "seed1",
            "seed2",
            "g1",
            "g2",
            "winner",
            "outcome",
            "status",
            "day",
            "start_at",
            "end_at",
        ),
    ),
    ("odds", ("match_id", "bookmaker", "market", "line", "open1", "open2", "close1", "close2")),
    ("rallies", ("match_id", "game", "rally", "server", "winner", "score1", "score2")),
    ("corrections", ("match_id", "corrected_at", "old_g1", "old_g2", "old_winner")),
    ("rankings", ("week", "discipline", "rank", "name", "player1", "player2", "points", "full_list")),
    ("world_meta", ("key", "value")),
)
TABLE_NAMES = tuple(t for t, _ in TABLES)
COLUMNS = dict(TABLES)
# Columns a bundle may add at the end of a table (schema newer than format 1's first tables);
# the importer loads them by name when present, the table's default otherwise.
OPTIONAL_COLUMNS: dict[str, tuple[str, ...]] = {"tournaments": ("cancelled",)}


def cell(v: Any) -> Any:
    """A Python value as COPY csv text (None stays None: csv writes an empty unquoted field)."""
    t = type(v)
    if t is str or t is int or v is None:  # the common cases first: this runs for every field
        return v
    if t is bool:
        return "t" if v else "f"
    if isinstance(v, float):
        return repr(round(v, 3))
    if isinstance(v, (list, tuple)):
        return "{" + ",".join(str(x) for x in v) + "}"
    if isinstance(v, dt.datetime):
        return v.astimezone(dt.UTC).isoformat()
    if isinstance(v, dt.date):
        return v.isoformat()
    raise TypeError(f"no CSV form for {type(v).__name__}")


class BundleWriter:
    """Opens every table's CSV, writes header rows, counts rows; `finish` writes the manifest."""

    def __init__(self, out_dir: Path, optional: dict[str, tuple[str, ...]] | None = None):
        """`optional`: columns of OPTIONAL_COLUMNS this bundle writes after a table's own."""
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.counts = {t: 0 for t in TABLE_NAMES}
        self._files = {}
        self._writers = {}
        for table, cols in TABLES:
            extra = (optional or {}).get(table, ())
            if any(c not in OPTIONAL_COLUMNS.get(table, ()) for c in extra):
                raise BundleError(f"{table}: {extra} are not optional columns of the format")
            cols = cols + tuple(extra)
            f = open(self.out_dir / f"{table}.csv", "w", encoding="utf-8", newline="")
            w = csv.writer(f, lineterminator="\n")
            w.writerow(cols)
            self._files[table] = f
            self._writers[table] = w

    def row(self, table: str, values: Iterable[Any]) -> None:
        self._writers[table].writerow([cell(v) for v in values])
        self.counts[table] += 1

    def rows(self, table: str, rows: Iterable[Iterable[Any]]) -> None:
        w = self._writers[table]
        n = 0
        for values in rows:
            w.writerow([cell(v) for v in values])
            n += 1
        self.counts[table] += n

    def plain_rows(self, table: str, rows: Iterable[Iterable[Any]]) -> None:
        """Rows already in CSV form (only str, int, float rounded to cents, None): no conversion."""
        n = 0
        w = self._writers[table]
        for values in rows:
            w.writerow(values)
            n += 1
        self.counts[table] += n

    def append(self, table: str, fragment: Path, rows: int) -> None:
        """A fragment's rows (CSV text in this table's columns, no header, written elsewhere:
        another process's share of the table) after the rows written so far."""
        with open(fragment, encoding="utf-8", newline="") as f:
            shutil.copyfileobj(f, self._files[table], 1 << 20)
        self.counts[table] += rows

    def finish(self, meta: dict[str, Any]) -> dict[str, Any]:
        for f in self._files.values():
            f.close()
        manifest = {"format": FORMAT_VERSION, **meta, "tables": {}}
        for table in TABLE_NAMES:
            path = self.out_dir / f"{table}.csv"
            manifest["tables"][table] = {"file": path.name, "rows": self.counts[table], "sha256": sha256_of(path)}
        (self.out_dir / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        return manifest

    def abort(self) -> None:
        for f in self._files.values():
            f.close()


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


class BundleError(ValueError):
    """The directory is not a bundle this importer understands."""


def read_manifest(path: Path, *, verify_checksums: bool = False) -> dict[str, Any]:
    """The validated manifest of the bundle in directory `path`.

    Checks the format version, that every world table has a file, and that each file has the
    stated number of data rows (and optionally the stated sha256).
    """
    path = Path(path)
    try:
        manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BundleError(f"{path}: no {MANIFEST}") from None
    if manifest.get("format") != FORMAT_VERSION:
        raise BundleError(f"{path}: format {manifest.get('format')!r}, expected {FORMAT_VERSION}")
    tables = manifest.get("tables") or {}
    for table in TABLE_NAMES:
        entry = tables.get(table)
        if entry is None:
            raise BundleError(f"{path}: manifest lists no file for table {table}")
        file = path / entry["file"]
        if not file.is_file():
            raise BundleError(f"{path}: {entry['file']} is missing")
        rows = count_rows(file)
        if rows != entry["rows"]:
            raise BundleError(f"{file.name}: {rows} rows, manifest says {entry['rows']}")
        if verify_checksums and entry.get("sha256") and sha256_of(file) != entry["sha256"]:
            raise BundleError(f"{file.name}: sha256 differs from the manifest")
    return manifest


def count_rows(file: Path) -> int:
    """Data rows of a CSV (records, not lines: quoted fields may hold newlines)."""
    with open(file, encoding="utf-8", newline="") as f:
        return max(0, sum(1 for _ in csv.reader(f)) - 1)


def header_of(file: Path) -> list[str]:
    with open(file, encoding="utf-8", newline="") as f:
        return next(csv.reader(f), [])
