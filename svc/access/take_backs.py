"""Take-backs still owed: calls counted, then refused (a fault of ours, no free stream slot, a
parameter only the handler could judge) while the database could not be reached to take them
back at once -- the database that went away mid-call is the usual reason.

A refused call is never counted (README, "Limits"), so the take-back waits for the database:
each worker keeps those it owes in memory, oldest first, and tries again every RETRY_S until
the database answers. The bounds, as the README states them: a take-back owed longer than
OWED_FOR_S, or beyond MAX_OWED in one worker, is given up and logged; one owed by a worker that
stops or dies is lost with it. A take-back is exact whenever it lands (svc/sql/queries/access/
limits.sql `refund`): it lowers the windows the call was counted in, so a minute that has passed
meanwhile is left alone and the day's and the month's count come back.
"""

from __future__ import annotations

import collections
import logging

import trio

from svc.access.caller import Caller, refund
from svc.core.db import Database, DatabaseUnavailable

log = logging.getLogger("svc.access")

RETRY_S = 2.0  # the database is tried again this often while a take-back is owed
OWED_FOR_S = 3600.0  # an outage longer than an hour: its take-backs are given up (logged)
MAX_OWED = 10_000  # per worker: memory stays bounded whatever the outage


class TakeBacks:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.owed: collections.deque[tuple[float, Caller]] = collections.deque()  # (owed since, call)
        self.given_up = 0
        self._wake = trio.Event()

    def owe(self, caller: Caller) -> None:
        if len(self.owed) >= MAX_OWED:
            self._give_up(f"more than {MAX_OWED} take-backs owed in this worker")
        self.owed.append((trio.current_time(), caller))
        self._wake.set()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """For the app's lifetime: settles what is owed whenever something is."""
        task_status.started()
        while True:
            await self._wake.wait()
            self._wake = trio.Event()
            await self.settle()

    async def settle(self) -> None:
        while self.owed:
            since, caller = self.owed[0]
            if trio.current_time() - since > OWED_FOR_S:
                self._give_up(f"the database was unreachable for over {OWED_FOR_S:.0f} s")
                continue
            try:
                await refund(self.db, caller)
            except DatabaseUnavailable:
                await trio.sleep(RETRY_S)
                continue
            self.owed.popleft()
            if not self.owed:
                log.info("every call refused during the outage has been taken back")

    def _give_up(self, why: str) -> None:
        _, caller = self.owed.popleft()
        self.given_up += 1
        log.warning("a refused call of key %s stays counted: %s", caller.prefix, why)
