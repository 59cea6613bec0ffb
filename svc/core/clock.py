"""Wall-clock time read through Trio's clock.

Minute and day windows must move when a test jumps Trio's MockClock, so the service
never calls time.time() on the request path: it anchors the wall clock to
trio.current_time() once and adds the Trio clock's progress to it.
"""

from __future__ import annotations

import datetime as dt
import time

import trio

UTC = dt.UTC


class Clock:
    def __init__(self, start: dt.datetime | None = None) -> None:
        self._start = start
        self._anchor: tuple[float, float] | None = None

    def _anchor_now(self) -> tuple[float, float]:
        if self._anchor is None:
            wall = self._start.timestamp() if self._start else time.time()
            self._anchor = (wall, trio.current_time())
        return self._anchor

    def timestamp(self) -> float:
        wall, trio_at = self._anchor_now()
        return wall + (trio.current_time() - trio_at)

    def now(self) -> dt.datetime:
        return dt.datetime.fromtimestamp(self.timestamp(), UTC)

    def today(self) -> dt.date:
        return self.now().date()
