"""Named statements (svc.core.sqlfiles) run on one asyncpg connection: inside Database.run() or
Database.transaction(), and in the CLI's plain asyncio connections."""

from __future__ import annotations

from typing import Any

import asyncpg

from svc.core.sqlfiles import Statement


async def fetch(conn: asyncpg.Connection, stmt: Statement, **params: Any) -> list[asyncpg.Record]:
    return await conn.fetch(stmt.sql, *stmt.args(params))


async def fetchrow(conn: asyncpg.Connection, stmt: Statement, **params: Any) -> asyncpg.Record | None:
    return await conn.fetchrow(stmt.sql, *stmt.args(params))


async def fetchval(conn: asyncpg.Connection, stmt: Statement, **params: Any) -> Any:
    return await conn.fetchval(stmt.sql, *stmt.args(params))


async def execute(conn: asyncpg.Connection, stmt: Statement, **params: Any) -> str:
    return await conn.execute(stmt.sql, *stmt.args(params))
