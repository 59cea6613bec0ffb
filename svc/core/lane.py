"""The lane: one pooled connection kept out of the pool for single statements on the primary.

asyncpg's Pool costs a statement about 50 µs of the database thread's CPU beyond the statement
itself (measured: `pool.fetch` 284 µs against `conn.fetch` 237 µs for /v1/countries' statement,
169 against 114 µs for SELECT 1): its acquire queue and holder, and a release that runs in a task
of its own (`asyncio.shield`). A request with one statement pays it once, so for an uncached read
at one client it is a sixth of the database thread's part. The lane holds one connection
acquired once; a single statement takes it when it is free and goes through the pool when
another statement has it (so concurrency is the pool's as before: the lane is one of its
`pool_size` connections). A cancelled statement leaves the connection usable (asyncpg cancels it
on the server and the next statement waits for that); a connection that closes, while idle or in
a statement, asyncpg itself gives back to the pool, and the next statement takes another for the
lane.

Touched by the database thread only (svc.core.db), like the pools.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import asyncpg

T = TypeVar("T")
log = logging.getLogger("svc.core.db")


class Lane:
    __slots__ = ("_conn", "_busy")

    def __init__(self) -> None:
        self._conn: Any = None  # an acquired pool connection (asyncpg's proxy), or None
        self._busy = False

    async def run(self, pool: asyncpg.Pool, op: Callable[[Any], Awaitable[T]]) -> T:
        """`op` on the lane's connection when it is free, else on the pool."""
        if self._busy:
            return await op(pool)
        self._busy = True
        try:
            if self._conn is not None and not self.holds_open():  # the server dropped it while idle
                await self._give_back(pool)
            if self._conn is None:
                self._conn = await pool.acquire()
            return await op(self._conn)
        finally:
            self._busy = False

    def holds_open(self) -> bool:
        """Whether the lane holds a connection that is still open."""
        try:
            return self._conn is not None and not self._conn.is_closed()
        except asyncpg.InterfaceError:  # closed, and given back to the pool by asyncpg itself
            return False

    async def close(self, pool: asyncpg.Pool) -> None:
        """Give the connection back before the pool closes (a pool waits for its connections)."""
        await self._give_back(pool)

    async def _give_back(self, pool: asyncpg.Pool) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            try:
                await pool.release(conn)
            except Exception as exc:  # the pool makes a new connection when asked for one
                log.debug("the lane's connection could not go back to the pool: %r", exc)
