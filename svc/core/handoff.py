"""Hand-offs between a worker's two threads -- Trio's and the asyncpg loop's (svc.core.db) -- that
wake the other side once per batch instead of once per call.

Both loops' own thread-safe entry points (asyncio's `call_soon_threadsafe`, Trio's
`TrioToken.run_sync_soon`) write a byte to the other loop's wake-up socket on every call: a
system call on the caller's thread and a wake-up of the other. Under load, with several requests
each handing a statement over and each statement's outcome handed back, those writes were a large
part of the bridge's cost (py-spy of uncached reads in process: 12 % of the Trio thread in the
self-pipe write alone). Here a call is queued, and only the first call queued since the other
side last began draining the queue asks for a wake-up; the drain then runs every call queued by
then, in order.

Why no call is left behind: the draining side marks "no wake-up pending" *before* it looks at
the queue, and a caller queues *before* it reads the mark. So a call queued after the drain's
last look sees the mark cleared and asks for a wake-up of its own (at worst one drain finds the
queue empty). Both sides run Python under one interpreter lock, which is what makes the deque's
append and popleft, and the mark's read and write, each happen whole. A drain runs only what was
queued when it began, so a steady stream of calls never keeps the other loop from its own work
(reading PostgreSQL's answers; Trio's other tasks): what comes later has asked for the next drain.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any

log = logging.getLogger("svc.core.db")


class Handoff:
    """Calls to run on another loop's thread, in the order given, woken by `wake` (asyncio's
    `loop.call_soon_threadsafe` for the asyncpg loop, a TrioToken's `run_sync_soon` for Trio).
    `to` names that side in the log; `gone` is the error `wake` raises once that side has ended
    for good, when a call put is dropped without an error (nobody is left to tell). Any other
    failure of `wake` (a closed asyncio loop's RuntimeError) is raised to the caller."""

    __slots__ = ("_wake", "_to", "_gone", "_queue", "_woken")

    def __init__(
        self, wake: Callable[[Callable[[], None]], object], to: str, gone: type[Exception] | None = None
    ) -> None:
        self._wake, self._to, self._gone = wake, to, gone
        self._queue: deque[tuple[Callable[..., object], tuple[Any, ...]]] = deque()
        self._woken = False  # a drain is scheduled on the other side and has not begun

    def put(self, call: Callable[..., object], *args: Any) -> None:
        """`call(*args)` soon on the other side."""
        self._queue.append((call, args))
        if not self._woken:
            self._woken = True
            try:
                self._wake(self._drain)
            except Exception as failed:  # the other side has ended: nothing queued will run
                self._woken = False
                self._queue.clear()
                if self._gone is None or not isinstance(failed, self._gone):
                    raise

    def _drain(self) -> None:  # on the other side
        self._woken = False
        queue = self._queue
        for _ in range(len(queue)):  # what is queued from now on has asked for a drain of its own
            call, args = queue.popleft()
            try:
                call(*args)
            except Exception:  # one call's failure must not strand the calls queued after it
                log.exception("a call handed to %s failed", self._to)
