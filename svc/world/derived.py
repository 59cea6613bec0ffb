"""Derived tables (svc/sql/derived/*.sql): aggregates computed once per import so that
answers are indexed lookups. Each file rebuilds its tables from scratch; they run in
file order inside the caller's transaction, with the import that feeds them.

An increment (svc.world.sources.increment) rebuilds only the files that read a table it
changed, or a table an earlier rebuilt file made, in file order."""

from __future__ import annotations

import logging
import re
import time

import asyncpg

from svc.core.progress import Progress
from svc.core.sqlfiles import SQL_DIR
from svc.rating import history as ratings

DERIVED_DIR = SQL_DIR / "derived"
RATED = {"matches", "players", "tournaments", "cities"}  # what the rating reads (the view rated_results)
# The rebuild sorts and groups every match several times over (streaks, per-player rows): with
# PostgreSQL's default of 4 MB per sort the big sorts spill to disk. Measured on the demo world
# (191,515 matches), in one run: 29.1 s -> 25.4 s. No parallel workers: a table made by a parallel
# plan may hold its rows in another order from one run to the next.
REBUILD_SETTINGS = ("work_mem = '128MB'", "maintenance_work_mem = '256MB'")
_CREATED = re.compile(r"CREATE TABLE\s+(?:IF NOT EXISTS\s+)?([a-z_]+)", re.I)
# the rating's steps as progress names them
READING, WRITING = "rating: reading results", "rating: writing"
# one debug line per file with its seconds, and the rating thread's (ops/bench/world_import collects
# them beside the steps it times from the progress)
log = logging.getLogger(__name__)


def _unheard(step: str, done: int, total: int) -> None:
    """The progress of a rebuild nobody follows (an increment's)."""


async def rebuild(conn: asyncpg.Connection, changed: set[str] | None = None, progress: Progress = None) -> list[str]:
    """Rebuild every derived table (changed None), or those that depend on the tables in
    `changed`; then move the data version on (answer caches start afresh). Returns the files run.
    `progress` hears of the longest steps of a full scale's import: the rating's read of the results,
    each file ("derived tables"), then the rating waited for (when its thread is still at work) and
    written."""
    done = []
    touched = set(changed or ())
    for setting in REBUILD_SETTINGS:  # for the rest of the import's transaction only
        await conn.execute(f"SET LOCAL {setting}")
    report = progress or _unheard
    # the rating reads only base tables (RATED), so it can start first and run in a thread
    # while the connection rebuilds the other derived tables
    began = time.perf_counter()
    rating = None
    if changed is None or touched & RATED:
        report(READING, 0, 1)
        rating = await ratings.begin_rebuild(conn)
        report(READING, 1, 1)
        rating.add_done_callback(
            lambda _: log.debug("derived rating thread (with the read) %.3f s", time.perf_counter() - began)
        )
    files = sorted(DERIVED_DIR.glob("*.sql"))
    for number, path in enumerate(files):
        report("derived tables", number, len(files))
        text = path.read_text()
        if changed is not None and not any(re.search(rf"\b{t}\b", text) for t in touched):
            continue
        started = time.perf_counter()
        await conn.execute(text)
        log.debug("derived %s %.3f s", path.stem, time.perf_counter() - started)
        touched.update(_CREATED.findall(text))
        done.append(path.stem)
    report("derived tables", len(files), len(files))
    if rating is not None:
        report(WRITING, 0, 1)
        await ratings.finish_rebuild(conn, rating)
        report(WRITING, 1, 1)
        done.append("ratings")
    await conn.execute(
        "INSERT INTO world_meta (key, value) VALUES ('data_version', '1') "
        "ON CONFLICT (key) DO UPDATE SET value = (world_meta.value::int + 1)::text"
    )
    return done
