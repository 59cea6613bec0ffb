"""The import of a bundle, phase by phase: each table's load, the indexes, ANALYZE, every derived
file and the rating, in seconds; and optionally one checksum per table, to show that a faster
import makes the same world.

    .venv/bin/python -m ops.bench.world_import BUNDLE [--home /tmp/bench-home] [--sums out.json]
                                                      [--compare before.json]

Each run imports into a new database (`bench_import`) of the embedded PostgreSQL under --home
(kept running between runs, so a run times the import only). Run it under
`flock /tmp/bench.lock` on a shared machine. A table's checksum is the md5 of its rows as text in
sorted order, so it ignores the physical order; `data_version` and the rating model's timing-free
JSON are compared like any row."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from pathlib import Path

import asyncpg

from svc.access.plans import prepare_database
from svc.core import pgserver
from svc.core.db import connect_asyncio
from svc.world import derived
from svc.world.replace import import_bundle

DATABASE = "bench_import"
# the platform's own tables: not made by an import
PLATFORM = {"accounts", "api_keys", "key_usage", "plans", "schema_migrations", "call_blocks"}


STARTED_MARKS = {"derived tables", derived.READING, derived.WRITING}  # reported by svc.world.derived as they start


class Phases:
    """The progress callback: the time each step starts, so a step's length is the gap to the next."""

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.marks: list[tuple[str, float]] = []

    def __call__(self, step: str, done: int, total: int) -> None:
        if not self.marks or self.marks[-1][0] != step:
            self.marks.append((step, time.perf_counter()))

    def lengths(self, end: float) -> list[tuple[str, float]]:
        # each table's load, the indexes and ANALYZE are reported when done (they lasted since the
        # previous mark); the derived tables and the rating are reported as they start (they last
        # to the next mark, or the end)
        out, last = [], self.started
        for (step, at), after in zip(self.marks, [*(at for _, at in self.marks[1:]), end]):
            out.append((step, after - at) if step in STARTED_MARKS else (step, at - last))
            last = at
        return out


class Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


async def checksums(conn: asyncpg.Connection) -> dict[str, str]:
    tables = await conn.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
    )
    sums = {}
    for row in tables:
        name = row["tablename"]
        if name in PLATFORM:
            continue
        sums[name] = await conn.fetchval(
            f"SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {name} t"
        )
    return sums


async def run(bundle: Path, home: Path, sums_out: Path | None, compare: Path | None) -> int:
    url = pgserver.start(home)
    admin = await asyncpg.connect(url)
    await admin.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
    await admin.execute(f"CREATE DATABASE {DATABASE}")
    await admin.close()
    db_url = url.replace("/postgres?", f"/{DATABASE}?")
    conn = await connect_asyncio(db_url)
    try:
        await prepare_database(conn)
        collect = Collect()
        logger = logging.getLogger("svc.world")
        logger.addHandler(collect)
        logger.setLevel(logging.DEBUG)
        phases = Phases()
        await import_bundle(conn, bundle, progress=phases)
        end = time.perf_counter()
        for step, seconds in phases.lengths(end):
            print(f"{step:<28} {seconds:7.2f} s")
        for line in collect.lines:
            print("  " + line)
        print(f"{'import':<28} {end - phases.started:7.2f} s")
        if sums_out or compare:
            sums = await checksums(conn)
            if sums_out:
                sums_out.write_text(json.dumps(sums, indent=1, sort_keys=True))
            if compare:
                before = json.loads(compare.read_text())
                differ = sorted(t for t in before.keys() | sums.keys() if before.get(t) != sums.get(t))
                print(f"{len(sums)} tables compared, differing: {differ or 'none'}")
                return 1 if differ else 0
    finally:
        await conn.close()
    return 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bundle", type=Path)
    ap.add_argument("--home", type=Path, default=Path("/tmp/bench-import-home"))
    ap.add_argument("--sums", type=Path, help="write each table's checksum here (JSON)")
    ap.add_argument("--compare", type=Path, help="compare each table's checksum with this file")
    args = ap.parse_args()
    sys.exit(asyncio.run(run(args.bundle, args.home, args.sums, args.compare)))


if __name__ == "__main__":
    main()
