"""Derived tables (sql/derived/*.sql): aggregates computed once per import so that
answers are indexed lookups. Each file rebuilds its tables from scratch; they run in
file order inside the caller's transaction, with the import that feeds them."""

from __future__ import annotations

import asyncpg

from svc.core.sqlfiles import SQL_DIR

DERIVED_DIR = SQL_DIR / "derived"


async def rebuild(conn: asyncpg.Connection) -> list[str]:
    done = []
    for path in sorted(DERIVED_DIR.glob("*.sql")):
        await conn.execute(path.read_text())
        done.append(path.stem)
    await conn.execute(
        "INSERT INTO world_meta (key, value) VALUES ('data_version', '1') "
        "ON CONFLICT (key) DO UPDATE SET value = (world_meta.value::int + 1)::text"
    )
    return done
