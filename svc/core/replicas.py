"""Read replicas: the statements that tolerate a replica's lag, sent to streaming standbys.

A named statement marked `-- replica: ok` (svc.core.sqlfiles) may be read from a replica, and
only while a request has said which data version its answer needs (`reads_as_of`: the version
the key check read from the primary, svc.web.pipeline). Everything else -- counting, slots, the
outbox, the change log, the live endpoints, the components, the CLI -- stays on the primary.

The lag rule: a replica answers only when its data version (world_meta, moved by every import:
svc.world.derived) has reached the one the request read on the primary, so a read right after
an import never shows the data before it. The version a replica was last seen at is kept; it
only moves forward, so a replica seen at or past the version asked for is used at no extra cost,
and one behind is asked again (one round trip) at most every RECHECK_S, the primary answering
meanwhile. Within one data version a replica may lag the primary by what streaming replication
takes (milliseconds): the marked statements are archive reads, whose answers the cache keeps
for 30 s anyway.

The fallback: a replica that refuses or fails (cannot connect, connection lost, "the database
system is starting up", a recovery conflict) costs the request nothing but the time of the
failure: the statement runs on the primary at once and the replica is left alone for BACKOFF_S,
after which the next read tries it again. Several replicas take reads in turn (round robin).

All of it runs on the database thread of svc.core.db (each replica's pool beside the primary's
on the same asyncio loop), so the state here is touched by one thread only.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

import asyncpg

from svc.core import metrics
from svc.core.sqlfiles import Q

log = logging.getLogger("svc.core.db")
T = TypeVar("T")

BACKOFF_S = 2.0  # a replica that failed is left alone this long: long enough to skip a restart, short to return
RECHECK_S = 0.5  # a replica behind the version asked for is asked again after this long, not on every read
CONNECT_TIMEOUT_S = 2.0  # a replica that does not answer a connect within this is down (the primary answers)

# What makes a replica step aside for the primary: it cannot be reached or broke (svc.core.db's
# list, with asyncpg's timeouts and its "starting up" / "shutting down" refusal, 57P03), or its
# replay cancelled the statement (a recovery conflict: 40001; 40P01 for a buffer-pin deadlock with
# recovery; 57P04 when a database was dropped).
FAILURES: tuple[type[BaseException], ...] = (
    OSError,
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.InternalClientError,
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.DatabaseDroppedError,
)

# The data version the current request's reads need (None: not a request's read; the primary answers).
# A context variable: each Trio task (one per request) has its own.
_AS_OF: ContextVar[int | None] = ContextVar("svc_reads_as_of", default=None)


@contextmanager
def reads_as_of(version: str | int | None) -> Iterator[None]:
    """Within the block, statements marked for replicas may be read from one that has reached data
    version `version` (as world_meta holds it; None or not a number: the primary answers them)."""
    try:
        wanted = int(version) if version is not None else None
    except ValueError:
        wanted = None
    token = _AS_OF.set(wanted)
    try:
        yield
    finally:
        _AS_OF.reset(token)


def version_wanted() -> int | None:
    """The data version the current task's reads need (reads_as_of), None outside such a block."""
    return _AS_OF.get()


class Replica:
    """One standby: its pool (no connection until the first read) and what was last seen of it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pool: asyncpg.Pool | None = None
        self.version = -1  # the data version it was last seen at (it only moves forward)
        self.checked_at = float("-inf")  # when that was read (time.monotonic)
        self.down_until = float("-inf")  # left alone until then after a failure

    def failed(self, exc: BaseException) -> None:
        self.down_until = time.monotonic() + BACKOFF_S
        log.warning(
            "replica %s failed (%s: %s); the primary answers for %.0f s", self.label, type(exc).__name__, exc, BACKOFF_S
        )

    @property
    def label(self) -> str:
        """Where it is, never a password: host and database."""
        tail = self.url.split("@", 1)[-1]
        return tail


class Replicas:
    """The replicas of one Database, taking marked reads in turn. Lives on the database thread."""

    def __init__(self, urls: Sequence[str]) -> None:
        self.members = [Replica(url) for url in urls]
        self._next = 0

    def __bool__(self) -> bool:
        return bool(self.members)

    async def open(self, make_pool: Callable[[str], Awaitable[asyncpg.Pool]]) -> None:
        """Each replica's pool, made without connecting: a replica down at start delays nothing."""
        for replica in self.members:
            replica.pool = await make_pool(replica.url)

    async def close(self) -> None:
        for replica in self.members:
            pool, replica.pool = replica.pool, None
            if pool is not None:
                pool.terminate()  # nothing on a replica needs a clean goodbye

    async def read(self, primary: asyncpg.Pool, op: Callable[[asyncpg.Pool], Awaitable[T]], wanted: int) -> T:
        """`op` on a replica at data version `wanted` or later, or on the primary when none is (or
        the one tried fails)."""
        replica = await self._choose(wanted)
        if replica is not None:
            assert replica.pool is not None
            try:
                result = await op(replica.pool)
            except FAILURES as exc:
                replica.failed(exc)
                metrics.REPLICA_FALLBACKS.labels("failed").inc()
            else:
                metrics.DB_STATEMENTS.labels("replica").inc()
                return result
        metrics.DB_STATEMENTS.labels("primary").inc()
        return await op(primary)

    async def _choose(self, wanted: int) -> Replica | None:
        """The next replica in turn that is up and at `wanted` or later; None (counted as a fallback)
        when none is."""
        now = time.monotonic()
        count = len(self.members)
        reason = "down"  # why none was: all left alone, one failed now, or one is behind
        for step in range(count):
            replica = self.members[(self._next + step) % count]
            if replica.down_until > now or replica.pool is None:
                continue
            if (
                replica.version < wanted
                and replica.checked_at + RECHECK_S <= now
                and not await self._check(replica, now)
            ):
                reason = "failed"
                continue
            if replica.version >= wanted:
                self._next = (self._next + step + 1) % count
                return replica
            reason = "behind"
        metrics.REPLICA_FALLBACKS.labels(reason).inc()
        return None

    async def _check(self, replica: Replica, now: float) -> bool:
        """Reads the replica's data version (one round trip); False when that failed (it is down)."""
        assert replica.pool is not None
        try:
            value = await replica.pool.fetchval(Q.world.data_version.sql)
        except FAILURES as exc:
            replica.failed(exc)
            return False
        replica.checked_at = now
        try:
            replica.version = max(replica.version, int(value))
        except (TypeError, ValueError):  # no world loaded there yet
            pass
        return True
