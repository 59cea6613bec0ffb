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

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

import trio

log = logging.getLogger("svc.core.db")


class ToLoop:
    """Calls from Trio to run on an asyncio loop's thread, in the order given."""

    __slots__ = ("_loop", "_queue", "_woken")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._queue: deque[Callable[[], object]] = deque()
        self._woken = False  # a drain is scheduled on the loop and has not begun

    def put(self, call: Callable[[], object]) -> None:
        """`call()` soon on the loop's thread (raises RuntimeError once the loop is closed)."""
        self._queue.append(call)
        if not self._woken:
            self._woken = True
            try:
                self._loop.call_soon_threadsafe(self._drain)
            except RuntimeError:
                self._woken = False
                raise

    def _drain(self) -> None:  # on the loop's thread
        self._woken = False
        queue = self._queue
        for _ in range(len(queue)):  # what is queued from now on has asked for a drain of its own
            call = queue.popleft()
            try:
                call()
            except Exception:  # one call's failure must not strand the calls queued after it
                log.exception("a call handed to the database thread failed")


class ToTrio:
    """Calls from an asyncio loop's thread to run in one Trio run, in the order given (each with
    one argument: a waiting task's outcome)."""

    __slots__ = ("token", "_queue", "_woken")

    def __init__(self, token: trio.lowlevel.TrioToken) -> None:
        self.token = token
        self._queue: deque[tuple[Callable[[Any], None], Any]] = deque()
        self._woken = False

    def put(self, call: Callable[[Any], None], arg: Any) -> None:
        """`call(arg)` soon in the Trio run; dropped when the run has finished (nobody is left to
        tell)."""
        self._queue.append((call, arg))
        if not self._woken:
            self._woken = True
            try:
                self.token.run_sync_soon(self._drain)
            except trio.RunFinishedError:
                self._woken = False
                self._queue.clear()

    def _drain(self) -> None:  # in the Trio run
        self._woken = False
        queue = self._queue
        for _ in range(len(queue)):
            call, arg = queue.popleft()
            call(arg)
