"""Many tasks' requests gathered into one statement, on the Trio side of the database bridge.

Each request waits (parked, no task of its own) while a batch is in flight; the next batch takes
every request waiting by then, up to `most` at once: one round trip and one hand-over to the
database's thread per batch, not per request (svc.core.db.Batched does the gathering on the
database's side instead, for callers that may be dropped when they give up; here a request that
gave up while its batch was in flight has its result handed to `unclaimed`, so what it got --
a stream's slot, a block of counted calls -- is given back at once, not left to expire).

Used by svc_live.slots (stream slots) and svc.access.allowances (blocks of calls). While `serve`
does not run (a worker without its background tasks, a tool), a request is a batch of its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

import asyncpg
import outcome
import trio

from svc.core.db import DatabaseUnavailable

I = TypeVar("I")  # noqa: E741 (a request, as the caller made it)
R = TypeVar("R")  # its result

_QUEUED, _FLYING, _ABANDONED = 0, 1, 2  # a request's state
DEADLOCK_TRIES = 3  # a batch chosen as a deadlock's victim runs again, up to this many runs in all


class _Request(Generic[I]):
    __slots__ = ("item", "task", "state")

    def __init__(self, item: I) -> None:
        self.item = item
        self.task = trio.lowlevel.current_task()  # the requesting task, parked until its batch answers
        self.state = _QUEUED


class Batches(Generic[I, R]):
    """`run(items)` answers a batch: one result per item, in order, from one statement (or one
    transaction), so that a batch chosen as a deadlock's victim was rolled back whole and runs again
    (batches of several workers lock rows in one order, but a sweep or a renewal beside them may
    not). `unclaimed(item, result)` takes
    the result of a request whose task gave up while its batch was in flight (awaited in `serve`'s
    task once every request of the batch has its answer)."""

    def __init__(
        self,
        run: Callable[[list[I]], Awaitable[Sequence[R]]],
        unclaimed: Callable[[I, R], Awaitable[None]],
        *,
        most: int,
    ) -> None:
        self._run, self._unclaimed, self._most = run, unclaimed, most
        self._queue: list[_Request[I]] = []
        self._server: trio.lowlevel.Task | None = None  # serve's task while it runs
        self._idle = False  # serve is parked, waiting for a request

    async def submit(self, item: I) -> R:
        """`item`'s result, from the next batch (or a batch of its own while `serve` does not run)."""
        if self._server is None:
            return (await self._answers([item]))[0]
        request = _Request(item)
        self._queue.append(request)
        if self._idle:
            self._idle = False
            trio.lowlevel.reschedule(self._server)

        def abort(_: object) -> trio.lowlevel.Abort:
            if request.state == _QUEUED:
                self._queue.remove(request)
            request.state = _ABANDONED  # in flight: its result goes to `unclaimed`
            return trio.lowlevel.Abort.SUCCEEDED

        result: R = await trio.lowlevel.wait_task_rescheduled(abort)
        return result

    async def serve(self) -> None:
        """Runs the requests a batch at a time, for as long as it runs (a nursery of the app's
        lifetime). When it stops, the requests still waiting fail as the database being unavailable."""
        self._server = trio.lowlevel.current_task()
        batch: list[_Request[I]] = []
        try:
            while True:
                if not self._queue:
                    self._idle = True
                    await trio.lowlevel.wait_task_rescheduled(self._stop_idling)
                    continue
                batch, self._queue = self._queue[: self._most], self._queue[self._most :]
                for request in batch:
                    request.state = _FLYING
                got: outcome.Outcome[Sequence[R]]
                try:
                    got = outcome.Value(await self._answers([r.item for r in batch]))
                except Exception as exc:
                    got = outcome.Error(exc)
                answered, batch = batch, []
                for item, result in self._answer(answered, got):
                    await self._unclaimed(item, result)
        finally:
            self._server, self._idle = None, False
            for request in [*batch, *self._queue]:
                if request.state != _ABANDONED:
                    stopping = DatabaseUnavailable("the worker is stopping")
                    trio.lowlevel.reschedule(request.task, outcome.Error(stopping))
            self._queue = []

    async def _answers(self, items: list[I]) -> Sequence[R]:
        tries = 1
        while True:
            try:
                return await self._run(items)
            except asyncpg.exceptions.DeadlockDetectedError:
                if tries == DEADLOCK_TRIES:
                    raise
                tries += 1

    def _stop_idling(self, _: object) -> trio.lowlevel.Abort:
        self._idle = False
        return trio.lowlevel.Abort.SUCCEEDED

    def _answer(self, batch: list[_Request[I]], got: outcome.Outcome[Sequence[R]]) -> list[tuple[I, R]]:
        """Each request gets its result, or the batch's failure (an exception of its own: the
        database unavailable, for a failure of the database's); the results nobody waits for.
        Nothing is awaited here, so a cancellation leaves no request waiting."""
        if isinstance(got, outcome.Error):
            exc = got.error
            for request in batch:
                if request.state != _ABANDONED:
                    own = exc
                    if isinstance(exc, (DatabaseUnavailable, asyncpg.PostgresError)):
                        own = DatabaseUnavailable(str(exc) or type(exc).__name__)
                        own.__cause__ = exc
                    trio.lowlevel.reschedule(request.task, outcome.Error(own))
            return []
        unclaimed = []
        for request, result in zip(batch, got.unwrap(), strict=True):
            if request.state != _ABANDONED:
                trio.lowlevel.reschedule(request.task, outcome.Value(result))
            else:
                unclaimed.append((request.item, result))
        return unclaimed
