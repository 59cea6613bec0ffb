"""A one-line progress bar on stderr for the CLI's long steps."""

from __future__ import annotations

import sys
import time
from typing import Callable

# What long steps report as they go: progress(step, done, total); None reports nothing.
Progress = Callable[[str, int, int], None] | None


class ProgressBar:
    WIDTH = 30

    def __init__(self, stream=sys.stderr) -> None:
        self.stream = stream
        self.started = time.monotonic()
        self.step = ""

    def __call__(self, step: str, done: int, total: int) -> None:
        if step != self.step and self.step:
            self.stream.write("\n")
        self.step = step
        filled = int(self.WIDTH * done / total) if total else self.WIDTH
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r{step:<28} [{bar}] {done}/{total} {time.monotonic() - self.started:5.1f}s")
        self.stream.flush()

    def close(self) -> None:
        if self.step:
            self.stream.write("\n")
            self.stream.flush()
