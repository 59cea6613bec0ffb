"""The database side: named statements (svc.core.sqlfiles) run on one asyncpg connection, in
asyncio -- on svc.core.db's loop thread for the service, on a CLI's own loop for its tools.

Two event loops run in one worker: Trio (requests, streams, the components) and asyncpg's
asyncio loop on its own thread. Code written for this side takes a `Tx` as its first
argument and awaits asyncpg only. It never awaits Trio (no Trio run exists on the loop
thread: a Trio call there fails) and Trio code cannot call it, having no Tx to give: the one
way across is `Database.transaction(work, ...)` (svc.core.db), which runs `work(tx, ...)` in
one transaction on a pooled connection and hands its result back to Trio. The CLI's plain
connections (svc.core.db.connect_asyncio) become a Tx with `Tx(conn)`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

import asyncpg
import asyncpg.pool

from svc.core.sqlfiles import Q, Statement

# asyncpg's connection as the database side gets it: one of its own (svc.core.db.connect_asyncio)
# or one lent by the pool, a proxy that forwards every call to the connection it holds.
Connection: TypeAlias = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy


class Tx:
    """One asyncpg connection on the database side, seen through named statements: inside
    `Database.transaction(work)`, the connection of that one transaction (so everything
    `work` runs commits together or not at all)."""

    __slots__ = ("connection",)

    def __init__(self, connection: Connection) -> None:
        # asyncpg's own connection, for asyncio code written against it rather than against
        # named statements: COPY, a bulk load's raw DDL, the rating's rebuild (svc.rating.history)
        self.connection = connection

    async def fetch(self, stmt: Statement, **params: Any) -> list[asyncpg.Record]:
        args = stmt.args(params)
        if stmt.fresh_plan:
            return await fetch_planned_anew(self.connection, stmt, args)
        return await self.connection.fetch(stmt.sql, *args)

    async def fetchrow(self, stmt: Statement, **params: Any) -> asyncpg.Record | None:
        if stmt.fresh_plan:
            rows = await self.fetch(stmt, **params)
            return rows[0] if rows else None
        return await self.connection.fetchrow(stmt.sql, *stmt.args(params))

    async def fetchval(self, stmt: Statement, **params: Any) -> Any:
        if stmt.fresh_plan:
            row = await self.fetchrow(stmt, **params)
            return row[0] if row is not None else None
        return await self.connection.fetchval(stmt.sql, *stmt.args(params))

    async def execute(self, stmt: Statement, **params: Any) -> str:
        return await self.connection.execute(stmt.sql, *stmt.args(params))

    @asynccontextmanager
    async def indexes_built_after(self, tables: Iterable[str]) -> AsyncIterator[None]:
        """A bulk load into `tables`: their indexes that back no constraint are dropped for the block
        and built again, each once, after it, as PostgreSQL advises for bulk loads (a GIN index over
        player arrays built once costs a fraction of keeping it up row by row). Inside the caller's
        transaction, so a failed load leaves them as they were."""
        plain = await self.fetch(Q.world.plain_indexes, tables=list(tables))
        for index in plain:
            await self.connection.execute(f"DROP INDEX {index['name']}")
        yield
        for index in plain:
            await self.connection.execute(index["ddl"])


async def fetch_planned_anew(conn: Connection, stmt: Statement, args: list[Any]) -> list[asyncpg.Record]:
    """A statement prepared outside asyncpg's cache, so planned for these values (Statement.fresh_plan);
    asyncpg closes it on the server once it is dropped."""
    return await (await conn.prepare(stmt.sql)).fetch(*args)
