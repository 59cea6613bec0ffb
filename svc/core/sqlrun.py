"""Named statements (svc.core.sqlfiles) run on one asyncpg connection: inside Database.run() or
Database.transaction(), and in the CLI's plain asyncio connections."""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Iterable

import asyncpg

from svc.core.sqlfiles import Q, Statement


async def fetch(conn: asyncpg.Connection, stmt: Statement, **params: Any) -> list[asyncpg.Record]:
    return await conn.fetch(stmt.sql, *stmt.args(params))


async def fetchrow(conn: asyncpg.Connection, stmt: Statement, **params: Any) -> asyncpg.Record | None:
    return await conn.fetchrow(stmt.sql, *stmt.args(params))


async def fetchval(conn: asyncpg.Connection, stmt: Statement, **params: Any) -> Any:
    return await conn.fetchval(stmt.sql, *stmt.args(params))


async def execute(conn: asyncpg.Connection, stmt: Statement, **params: Any) -> str:
    return await conn.execute(stmt.sql, *stmt.args(params))


@asynccontextmanager
async def indexes_built_after(conn: asyncpg.Connection, tables: Iterable[str]) -> AsyncIterator[None]:
    """A bulk load into `tables`: their indexes that back no constraint are dropped for the block
    and built again, each once, after it, as PostgreSQL advises for bulk loads (a GIN index over
    player arrays built once costs a fraction of keeping it up row by row). Inside the caller's
    transaction, so a failed load leaves them as they were."""
    plain = await fetch(conn, Q.world.plain_indexes, tables=list(tables))
    for index in plain:
        await conn.execute(f"DROP INDEX {index['name']}")
    yield
    for index in plain:
        await conn.execute(index["ddl"])
