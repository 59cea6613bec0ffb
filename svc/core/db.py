"""asyncpg driven from Trio: the bridge between the worker's two event loops.

asyncpg speaks asyncio, so it runs on its own asyncio event loop in one thread; each
query is handed over to that loop and the waiting Trio task is woken through its TrioToken,
queries handed over together sharing one wake-up of each thread (svc.core.handoff). This
measured best of the bridges (design.md: ~709 req/s and p99 53 ms at 8 clients, against
~446 req/s and p99 485 ms through trio-asyncio). `ops/bench` measures this module against a
bare asyncpg loop.

What Trio code calls (the Trio side), all of it on `Database`:
- `fetch`, `fetchrow`, `fetchval`, `execute`: one named statement on the pool, one round trip;
- `transaction(work, *args)`: several statements that commit together. `work(tx, *args)` is
  database-side code (svc.core.sqlrun: it takes a `Tx` and awaits asyncpg only); it runs on
  the loop thread and its result comes back to Trio;
- `dedicated()`: a connection of one's own outside the pool (a LISTEN, the feed's
  session-level lock, the hub's statements that must not queue behind requests), used the
  same way (`fetch`, `fetchval`) and to `listen`;
- `batched(...)`: one statement run once for every caller waiting (`Batched`).
A statement marked `-- replica: ok`, run with `fetch`/`fetchrow`/`fetchval` inside a request's
`reads_as_of(version)` block, may be read from a replica instead (svc.core.replicas: the replicas'
pools live beside the primary's on the loop thread; a replica behind or failing hands the
statement to the primary at once). Everything else runs on the primary.
`run(work)` hands a plain pooled connection to asyncio code written against asyncpg itself
(the CLI's `prepare_database`); service code uses `transaction`.

Cancellation: a cancelled Trio task cancels the asyncio task, which makes asyncpg
cancel the query and return the connection to the pool.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

import asyncpg
import orjson
import outcome
import trio

from svc.core import metrics
from svc.core.handoff import Handoff
from svc.core.lane import Lane
from svc.core.replicas import CONNECT_TIMEOUT_S, Replicas, version_wanted
from svc.core.sqlfiles import Statement
from svc.core.sqlrun import Connection, Tx, fetch_planned_anew

log = logging.getLogger("svc.core.db")
T = TypeVar("T")
P = ParamSpec("P")
G = TypeVar("G", bound=Hashable)  # a Batched statement's group (see Batched)


# Session settings of the serving pool. No parallel workers: the API runs small statements, one
# or two per request, for which starting workers costs more than they save (/v1/matches p95 on
# the full world 26 -> 16 ms) and, under load, takes cores from other requests. Imports and
# derived tables (their own connections) keep PostgreSQL's defaults.
SERVING_SETTINGS = {"max_parallel_workers_per_gather": "0"}


class DatabaseUnavailable(Exception):
    """PostgreSQL could not be reached or the connection broke; the request may be retried."""


_UNAVAILABLE = (
    OSError,  # includes ConnectionRefusedError and TimeoutError
    asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.InterfaceError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.TooManyConnectionsError,
    # "cannot switch to state N; another operation is in progress": a connection broken in the
    # middle of a statement when the server died under load (seen in the outage runs)
    asyncpg.exceptions.InternalClientError,
)


async def _init_connection(conn: asyncpg.Connection) -> None:
    # json/jsonb arrive as Python objects, decoded by orjson (several times faster than json).
    for name in ("json", "jsonb"):
        await conn.set_type_codec(
            name, encoder=lambda v: orjson.dumps(v).decode(), decoder=orjson.loads, schema="pg_catalog"
        )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A pooled connection goes back to the pool as it is: asyncpg still rolls back an open
    transaction and drops listeners (its own step before this one), and skips the reset query
    it would send otherwise (unlock all, close all, unlisten, reset all): one round trip per
    statement saved. Nothing here sets session state on a pooled connection: LISTEN and the
    feed's session-level advisory lock live on `dedicated` connections outside the pool, and
    every other lock is transaction-level."""


async def _planned_anew(via: Any, stmt: Statement, args: list[Any]) -> list[asyncpg.Record]:
    """On the lane's connection (svc.core.lane), or on one of `via`'s when it is a pool."""
    if not isinstance(via, asyncpg.Pool):
        return await fetch_planned_anew(via, stmt, args)
    async with via.acquire() as conn:
        return await fetch_planned_anew(conn, stmt, args)


async def connect_asyncio(url: str) -> asyncpg.Connection:
    """A plain asyncio connection with our codecs, for CLI tools (import, keys)."""
    conn = await asyncpg.connect(url)
    await _init_connection(conn)
    return conn


class Database:
    """A pool of asyncpg connections living on a private asyncio loop thread."""

    def __init__(self, url: str, *, pool_size: int = 8, replica_urls: Sequence[str] = ()) -> None:
        self.url = url
        self.pool_size = pool_size
        self._replicas = Replicas(replica_urls)  # DATABASE_REPLICA_URL: may take the marked reads
        self._loop: asyncio.AbstractEventLoop | None = None
        self._to_loop: Handoff | None = None  # calls to the loop thread (svc.core.handoff)
        # outcomes back to the Trio run that last called: its token and its hand-off
        self._to_trio: tuple[trio.lowlevel.TrioToken, Handoff] | None = None
        self._thread: threading.Thread | None = None
        self._pool: asyncpg.Pool | None = None
        self._batched: dict[str, Batched[Any]] = {}
        # single statements on the primary skip the pool's machinery; not with a pool of one, whose
        # one connection the lane would keep from transactions (Database.run, .transaction)
        self._lane = Lane() if pool_size > 1 else None

    # -- lifecycle -------------------------------------------------------------
    async def open(self) -> None:
        loop = asyncio.new_event_loop()
        ready = threading.Event()

        def run_loop() -> None:
            asyncio.set_event_loop(loop)
            loop.call_soon(ready.set)
            loop.run_forever()

        self._thread = threading.Thread(target=run_loop, name="asyncpg-loop", daemon=True)
        self._thread.start()
        await trio.to_thread.run_sync(ready.wait)
        self._loop = loop
        self._to_loop = Handoff(loop.call_soon_threadsafe, "the database thread")
        self._pool = await self._call(
            lambda: asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                init=_init_connection,
                reset=_keep_session,
                server_settings=SERVING_SETTINGS,
            )
        )
        await self._call(lambda: self._replicas.open(self._replica_pool))

    def _replica_pool(self, url: str) -> Awaitable[asyncpg.Pool]:
        # min_size 0: made without connecting, so a replica down at start delays nothing; the
        # connect timeout bounds what a replica that does not answer costs the read that finds out
        return asyncpg.create_pool(
            url,
            min_size=0,
            max_size=self.pool_size,
            init=_init_connection,
            reset=_keep_session,
            server_settings=SERVING_SETTINGS,
            timeout=CONNECT_TIMEOUT_S,
        )

    async def close(self) -> None:
        if self._loop is None:
            return
        if self._replicas:
            await self._call(self._replicas.close)
        pool, self._pool = self._pool, None
        if pool is not None:
            with trio.CancelScope(shield=True):
                try:
                    with trio.fail_after(5):
                        if (lane := self._lane) is not None:
                            await self._call(lambda: lane.close(pool))
                        await self._call(pool.close)
                except (trio.TooSlowError, Exception):  # closing is best effort; terminate what is left
                    pool.terminate()
        loop, self._loop, self._to_loop = self._loop, None, None
        loop.call_soon_threadsafe(loop.stop)
        thread = self._thread
        if thread is not None:
            await trio.to_thread.run_sync(thread.join)
        loop.close()

    def _open_pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise DatabaseUnavailable("database is not open")
        return self._pool

    # -- the bridge --------------------------------------------------------------
    async def _call(self, make: Callable[[], Awaitable[T]]) -> T:
        """`make()` awaited on the loop thread, its outcome handed back to the calling Trio task.
        Per call: one hand-off each way (svc.core.handoff: calls made together share one wake-up
        of the other thread) and the task parked with wait_task_rescheduled -- no Event, no
        concurrent Future chained to an asyncio one (they cost a fifth of the bridge's time per
        statement here). A cancelled caller returns at once and the statement is cancelled on the
        loop thread; its outcome is dropped."""
        loop, to_loop = self._loop, self._to_loop
        if loop is None or to_loop is None:
            raise DatabaseUnavailable("database is not open")
        try:
            token = trio.lowlevel.current_trio_token()
        except RuntimeError:  # awaited on the loop thread, by code given a Tx: say what to use there
            raise RuntimeError(
                "svc.core.db.Database is awaited from Trio only; database-side code (work given "
                "a Tx by Database.transaction) runs its statements on the Tx"
            ) from None
        if self._to_trio is None or self._to_trio[0] is not token:  # the first call, or one from another Trio run
            self._to_trio = (token, Handoff(token.run_sync_soon, "Trio", gone=trio.RunFinishedError))
        to_trio = self._to_trio[1]
        waiting = trio.lowlevel.current_task()
        handed = time.perf_counter()
        running: list[asyncio.Task[T]] = []  # the loop thread's task, once made
        abandoned = False  # set and read on the Trio thread only

        def resume(result: outcome.Outcome[T]) -> None:  # on the Trio thread
            if not abandoned:
                trio.lowlevel.reschedule(waiting, result)

        def finished(task: asyncio.Task[T]) -> None:  # on the loop thread
            if task.cancelled():  # not by its caller (that one is gone): the loop is closing
                result: outcome.Outcome[T] = outcome.Error(DatabaseUnavailable("the database connections are closing"))
            elif (exc := task.exception()) is not None:
                result = outcome.Error(exc)
            else:
                result = outcome.Value(task.result())
            to_trio.put(resume, result)

        async def wrapped() -> T:
            metrics.DB_BRIDGE_WAIT.observe(time.perf_counter() - handed)
            metrics.DB_IN_USE.inc()
            try:
                return await make()
            finally:
                metrics.DB_IN_USE.dec()

        def start() -> None:  # on the loop thread
            task = loop.create_task(wrapped())
            running.append(task)
            task.add_done_callback(finished)

        def abort(_: Callable[[], trio.lowlevel.RaiseCancelT]) -> trio.lowlevel.Abort:
            nonlocal abandoned
            abandoned = True
            to_loop.put(lambda: running[0].cancel() if running else None)  # after `start`: one queue, in order
            return trio.lowlevel.Abort.SUCCEEDED

        to_loop.put(start)
        try:
            result: T = await trio.lowlevel.wait_task_rescheduled(abort)
            return result
        except _UNAVAILABLE as exc:
            raise DatabaseUnavailable(str(exc) or type(exc).__name__) from exc

    async def transaction(
        self, work: Callable[Concatenate[Tx, P], Awaitable[T]], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """`work(tx, *args, **kwargs)` on the database side, in one transaction on one pooled
        connection: all of it commits or none of it. The one way for Trio code to run several
        statements together; `work` awaits asyncpg only (svc.core.sqlrun)."""

        async def in_tx(conn: Connection) -> T:
            async with conn.transaction():
                return await work(Tx(conn), *args, **kwargs)

        return await self.run(in_tx)

    async def run(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """`work(conn)` on one plain pooled connection, no transaction of ours around it: for
        asyncio code written against asyncpg itself, which manages its own transactions (the
        CLI's `prepare_database`: migrations, then the plans). Service code uses `transaction`."""

        async def job() -> T:
            assert self._pool is not None
            async with self._pool.acquire() as conn:
                return await work(conn)

        return await self._call(job)

    # -- one statement, one round trip -----------------------------------------------
    async def fetch(self, stmt: Statement, **params: Any) -> list[asyncpg.Record]:
        args = stmt.args(params)
        if stmt.fresh_plan:
            return await self._statement(stmt, lambda pool: _planned_anew(pool, stmt, args))
        return await self._statement(stmt, lambda pool: pool.fetch(stmt.sql, *args))

    async def fetchrow(self, stmt: Statement, **params: Any) -> asyncpg.Record | None:
        if stmt.fresh_plan:
            rows = await self.fetch(stmt, **params)
            return rows[0] if rows else None
        args = stmt.args(params)
        return await self._statement(stmt, lambda pool: pool.fetchrow(stmt.sql, *args))

    async def fetchval(self, stmt: Statement, **params: Any) -> Any:
        if stmt.fresh_plan:
            row = await self.fetchrow(stmt, **params)
            return row[0] if row is not None else None
        args = stmt.args(params)
        return await self._statement(stmt, lambda pool: pool.fetchval(stmt.sql, *args))

    async def execute(self, stmt: Statement, **params: Any) -> str:
        args = stmt.args(params)
        return await self._statement(stmt, lambda pool: pool.execute(stmt.sql, *args))

    async def _statement(self, stmt: Statement, op: Callable[[asyncpg.Pool], Awaitable[T]]) -> T:
        """`op` on the primary's pool, or on a replica's when `stmt` may be read from one and the
        calling task is in a request's reads_as_of block (its data version read in Trio, here)."""
        pool = self._open_pool()
        wanted = version_wanted() if stmt.replica and self._replicas else None
        if wanted is None:
            metrics.labelled(metrics.DB_STATEMENTS, "primary").inc()
            lane = self._lane
            return await self._call(lambda: lane.run(pool, op) if lane is not None else op(pool))
        return await self._call(lambda: self._replicas.read(pool, op, wanted))

    # -- a connection of one's own -------------------------------------------------------
    @asynccontextmanager
    async def dedicated(self) -> AsyncIterator[DedicatedConnection]:
        """A connection outside the pool, for as long as the block runs: for what must live
        longer than one query (a LISTEN, a session-level advisory lock) or must never queue
        behind requests for the pool. Used from Trio like the Database: `fetch`, `fetchval`."""
        conn = await self._call(lambda: connect_asyncio(self.url))
        try:
            yield DedicatedConnection(self, conn)
        finally:
            with trio.CancelScope(shield=True):
                try:  # asyncpg's own timeout: a Trio one would fire early under a mock clock
                    await self._call(lambda: conn.close(timeout=5))
                except Exception:  # closing is best effort; the server drops it anyway
                    conn.terminate()

    def batched(
        self,
        stmt: Statement,
        params_of: Callable[[G, list[dict[str, Any]]], dict[str, Any]],
        *,
        alone: tuple[Statement, Callable[[G, dict[str, Any]], dict[str, Any]]] | None = None,
    ) -> Batched[G]:
        """`stmt` run once for every caller waiting (see Batched); one per statement and Database."""
        got = self._batched.get(stmt.name)
        if got is None:
            got = self._batched[stmt.name] = Batched(self, stmt, params_of, alone)
        return got


class DedicatedConnection:
    """A connection of one's own (Database.dedicated), used from Trio: one named statement at a
    time, and LISTEN. Only one statement may run on it at once (asyncpg's rule for a connection):
    a holder that shares it between tasks takes turns (svc_live.hub holds a lock)."""

    def __init__(self, db: Database, conn: asyncpg.Connection) -> None:
        self._db, self._conn = db, conn

    def is_closed(self) -> bool:
        return self._conn.is_closed()

    async def fetch(self, stmt: Statement, **params: Any) -> list[asyncpg.Record]:
        args = stmt.args(params)
        return await self._db._call(lambda: self._conn.fetch(stmt.sql, *args))

    async def fetchval(self, stmt: Statement, **params: Any) -> Any:
        args = stmt.args(params)
        return await self._db._call(lambda: self._conn.fetchval(stmt.sql, *args))

    async def listen(self, channel: str, on_notify: Callable[[str], None], on_lost: Callable[[], None]) -> None:
        """LISTEN on `channel` for as long as the connection lives. asyncpg calls its listeners on
        the loop thread; each call is handed to the Trio run that called this (its TrioToken), so
        `on_notify(payload)` and `on_lost()` run in Trio, synchronously, never on the loop thread."""
        token = trio.lowlevel.current_trio_token()

        def deliver(fn: Callable[..., None], *args: object) -> None:
            try:
                token.run_sync_soon(fn, *args)
            except trio.RunFinishedError:  # the Trio run ended first: nobody is left to tell
                pass

        async def listen() -> None:
            await self._conn.add_listener(channel, lambda _c, _pid, _ch, payload: deliver(on_notify, payload))
            self._conn.add_termination_listener(lambda _c: deliver(on_lost))

        await self._db._call(listen)


class Batched(Generic[G]):
    """One statement run for many callers at once, as a database groups commits: a caller that
    arrives while the statement runs waits for the next run, which takes every caller waiting by
    then. One round trip per run instead of one per caller, and never more than one run in flight
    (a single caller still gets its answer after one round trip).

    Callers give a group (runs never mix groups) and their own item; `params_of(group, items)`
    makes the statement's parameters (arrays, one element per item, in order), and the statement
    returns a row per item with its 1-based place in the column `ord` (None for an item without
    a row). A run of one caller uses `alone` when given: a statement for one item (its params
    from `(group, item)`, its row with ord 1), for when that is cheaper to run. Runs on the
    asyncpg loop thread, like every statement of the Database."""

    def __init__(
        self,
        db: Database,
        stmt: Statement,
        params_of: Callable[[G, list[dict[str, Any]]], dict[str, Any]],
        alone: tuple[Statement, Callable[[G, dict[str, Any]], dict[str, Any]]] | None = None,
    ) -> None:
        self._db, self._stmt, self._params_of, self._alone = db, stmt, params_of, alone
        self._waiting: dict[G, list[tuple[dict[str, Any], asyncio.Future[asyncpg.Record | None]]]] = {}
        self._running: asyncio.Task[None] | None = None

    async def fetchrow(self, group: G, **item: Any) -> asyncpg.Record | None:
        return await self._db._call(lambda: self._wait(group, item))

    async def _wait(self, group: G, item: dict[str, Any]) -> asyncpg.Record | None:
        future: asyncio.Future[asyncpg.Record | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(group, []).append((item, future))
        if self._running is None:
            self._running = asyncio.get_running_loop().create_task(self._run())
        return await future

    async def _run(self) -> None:
        try:
            while self._waiting:
                group = next(iter(self._waiting))
                callers = self._waiting.pop(group)
                try:
                    if len(callers) == 1 and self._alone is not None:
                        stmt, params = self._alone[0], self._alone[1](group, callers[0][0])
                    else:
                        stmt, params = self._stmt, self._params_of(group, [item for item, _ in callers])
                    assert self._db._pool is not None
                    rows = await self._db._pool.fetch(stmt.sql, *stmt.args(params))
                except Exception as exc:  # every caller of the run gets the failure
                    for _, future in callers:
                        if not future.done():
                            future.set_exception(exc)
                    continue
                by_place = {row["ord"]: row for row in rows}
                for place, (_, future) in enumerate(callers, 1):
                    if not future.done():  # a caller that gave up (cancelled) is skipped
                        future.set_result(by_place.get(place))
        finally:
            self._running = None
