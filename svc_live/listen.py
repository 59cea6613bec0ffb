"""One LISTEN connection per worker, on svc.db's asyncpg loop.

asyncpg calls a listener on its own (asyncio) thread; each notification is handed to the
Trio side with the run's TrioToken, so the callback given here runs in Trio, synchronously.
(This uses Database._call, the bridge svc.db keeps for itself: a dedicated connection,
outside the pool, must live as long as the hub, not one query.)
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator, Callable

import asyncpg
import trio

from svc.db import Database, _init_connection


@asynccontextmanager
async def listening(db: Database, channel: str, on_notify: Callable[[str], None],
                    on_lost: Callable[[], None]) -> AsyncIterator[asyncpg.Connection]:
    """LISTEN on `channel` while inside; `on_notify(payload)` and `on_lost()` run in Trio."""
    token = trio.lowlevel.current_trio_token()

    def deliver(fn: Callable[..., None], *args: object) -> None:
        try:
            token.run_sync_soon(fn, *args)
        except trio.RunFinishedError:
            pass

    async def connect() -> asyncpg.Connection:
        conn = await asyncpg.connect(db.url)
        await _init_connection(conn)
        await conn.add_listener(channel, lambda _c, _pid, _ch, payload: deliver(on_notify, payload))
        conn.add_termination_listener(lambda _c: deliver(on_lost))
        return conn

    conn = await db._call(connect)
    try:
        yield conn
    finally:
        with trio.CancelScope(shield=True):
            try:  # asyncpg's own timeout: a Trio one would fire early under a mock clock
                await db._call(lambda: conn.close(timeout=5))
            except Exception:  # closing is best effort; the server drops it anyway
                conn.terminate()
