"""Progress of the CLI's long steps (world generation, import, evaluation) on stderr.

In a terminal: a live bar per step (tqdm). Anywhere else (a pipe, a log file, CI): a plain
line when a step starts, every PLAIN_EVERY_S seconds while it runs, and when it ends, so a
log holds a handful of readable lines instead of thousands of redraws.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Never, TextIO

from tqdm import tqdm

# What long steps report as they go: progress(step, done, total); None reports nothing.
Progress = Callable[[str, int, int], None] | None

PLAIN_EVERY_S = 5.0


class ProgressBar:
    def __init__(self, stream: TextIO = sys.stderr, *, live: bool | None = None) -> None:
        self.stream = stream
        self.live = stream.isatty() if live is None else live
        self.started = time.monotonic()
        self.step = ""
        self.bar: tqdm[Never] | None = None  # a bar we update by hand, over no iterable
        self.last_line = 0.0
        self.done = self.total = 0

    def __call__(self, step: str, done: int, total: int) -> None:
        if step != self.step:
            self._end_step()
            self.step = step
            if self.live:
                self.bar = tqdm(
                    total=total,
                    desc=f"{step:<28}",
                    file=self.stream,
                    unit="",
                    leave=True,
                    dynamic_ncols=True,
                    bar_format="{desc} {bar} {n_fmt}/{total_fmt} {elapsed}",
                )
            else:
                self._line(done, total, "started")
        self.done, self.total = done, total
        if self.bar is not None:
            self.bar.total = total
            self.bar.update(done - self.bar.n)
        elif time.monotonic() - self.last_line >= PLAIN_EVERY_S:
            self._line(done, total, "")

    def _line(self, done: int, total: int, note: str) -> None:
        self.last_line = time.monotonic()
        pct = f"{100 * done / total:5.1f}%" if total else "    -"
        self.stream.write(
            f"{self.step}: {done}/{total} {pct} at {self.last_line - self.started:.1f}s"
            + (f" ({note})" if note else "")
            + "\n"
        )
        self.stream.flush()

    def _end_step(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.step:
            self._line(self.done, self.total, "done")

    def close(self) -> None:
        self._end_step()
        self.step = ""
