"""One LISTEN connection per worker: a dedicated connection (svc.core.db.Database.dedicated,
outside the pool) that lives as long as its listener, the hub.

The bridge delivers each notification to Trio (DedicatedConnection.listen), so the callbacks
given here run in Trio, synchronously; the listener may run its own statements on the same
connection (from Trio, one at a time) so that they never queue behind requests for the pool.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from svc.core.db import Database, DedicatedConnection


@asynccontextmanager
async def listening(
    db: Database, channel: str, on_notify: Callable[[str], None], on_lost: Callable[[], None]
) -> AsyncIterator[DedicatedConnection]:
    """LISTEN on `channel` while inside; `on_notify(payload)` and `on_lost()` run in Trio."""
    async with db.dedicated() as own:
        await own.listen(channel, on_notify, on_lost)
        yield own
