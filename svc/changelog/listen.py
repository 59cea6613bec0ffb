"""One LISTEN connection per worker, on svc.core.db's asyncpg loop.

asyncpg calls a listener on its own (asyncio) thread; each notification is handed to the
Trio side with the run's TrioToken, so the callback given here runs in Trio, synchronously.
(The connection is Database.dedicated(): outside the pool, it lives as long as the hub.)
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import AsyncIterator, Callable

import asyncpg
import trio

from svc.core.db import Database


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

    async with db.dedicated() as conn:
        async def listen() -> None:
            await conn.add_listener(channel, lambda _c, _pid, _ch, payload: deliver(on_notify, payload))
            conn.add_termination_listener(lambda _c: deliver(on_lost))

        await db._call(listen)
        yield conn
