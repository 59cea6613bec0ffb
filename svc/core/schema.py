"""Applies sql/schema/*.sql in order, each file once, under an advisory lock so that
several workers starting together do not race."""

from __future__ import annotations

import asyncpg

from svc.core import sqlrun
from svc.access.plans import PLANS
from svc.core.sqlfiles import SQL_DIR, Q

SCHEMA_DIR = SQL_DIR / "schema"
_LOCK_ID = 0x5EC_5C4E  # any constant shared by every process of this service


async def migrate(conn: asyncpg.Connection) -> list[str]:
    """Apply what is missing; return the names of the files applied now."""
    applied_now: list[str] = []
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_ID)
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")}
        for path in sorted(SCHEMA_DIR.glob("*.sql")):
            if path.name in done:
                continue
            await conn.execute(path.read_text())
            await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", path.name)
            applied_now.append(path.name)
        for plan in PLANS.values():
            await sqlrun.execute(conn, Q.access.plan_upsert, name=plan.name, rank=plan.rank, per_minute=plan.per_minute,
                                 per_day=plan.per_day)
    return applied_now
