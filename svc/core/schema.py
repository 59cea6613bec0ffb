"""Applies svc/sql/schema/*.sql in order, each file once, under an advisory lock so that
several workers starting together do not race.

A file renamed after it was applied keeps its place: RENAMED maps the old name to the new
one, and a database that recorded the old name records the new one instead of running the
file again (tests/platform/test_migrations.py starts from a database made before the rename).
"""

from __future__ import annotations

from svc.core.sqlfiles import SQL_DIR, sql_files
from svc.core.sqlrun import Connection

SCHEMA_DIR = SQL_DIR / "schema"
_LOCK_ID = 0x5EC_5C4E  # any constant shared by every process of this service
# old file name -> new file name, for files renamed after databases had applied them
RENAMED = {
    "110_archive_a_indexes.sql": "110_list_indexes.sql",
    "130_archive_c_rounds.sql": "130_round_rank.sql",
}


async def migrate(conn: Connection) -> list[str]:
    """Apply what is missing; return the names of the files applied now."""
    applied_now: list[str] = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_ID)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations "
            "(name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        for old, new in RENAMED.items():
            await conn.execute("UPDATE schema_migrations SET name = $2 WHERE name = $1", old, new)
        done = {r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")}
        for folders, path in sql_files(SCHEMA_DIR):
            if folders or path.name in done:  # the files of schema/ itself, by name
                continue
            await conn.execute(path.read_text(encoding="utf-8"))
            await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", path.name)
            applied_now.append(path.name)
    return applied_now
