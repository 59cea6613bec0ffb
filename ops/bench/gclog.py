"""Full garbage collections in a benchmarked server: each one stops the whole worker (every
stream waits), for a time that grows with the objects alive. With BENCH_GC_LOG set, the
server appends one line per full collection (its pause in ms) to that file."""

from __future__ import annotations

import gc
import os
import time


def install() -> None:
    path = os.environ.get("BENCH_GC_LOG")
    if not path:
        return
    started: list[float] = []

    def note(phase: str, info: dict) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started:
            with open(path, "a") as f:
                f.write(f"{(time.perf_counter() - started[0]) * 1000:.1f}\n")

    gc.callbacks.append(note)


def read(path: str) -> list[float]:
    try:
        with open(path) as f:
            return [float(line) for line in f if line.strip()]
    except FileNotFoundError:
        return []
