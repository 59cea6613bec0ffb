"""Where a benchmarked server's memory and time go, by layer (the package of the code doing it:
Trio, Hypercorn, h11, Quart, Werkzeug, asyncpg, svc, svc_live ...).

- Memory: with BENCH_HEAP_LAYERS=<file> set, a server started by ops/bench/stream.py traces its
  allocations (tracemalloc) and, on SIGUSR1, writes the bytes alive per layer to that file as JSON;
  each block counts for the innermost frame outside the standard library and the async runtimes
  (an asyncio queue made by uvicorn counts for uvicorn, a task Hypercorn starts for Hypercorn).
- Time: `python -m ops.bench.layers <py-spy raw file>` sums py-spy samples (`py-spy record -f raw
  --threads`) of the main thread the same way, per layer, in percent.
"""

from __future__ import annotations

import collections
import json
import os
import signal
import sys
import sysconfig
import tracemalloc
from collections.abc import Iterable

_STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"])
FRAMES = 40  # frames kept per allocation: enough to reach the first frame outside the standard library


def layer_of(filename: str) -> str | None:
    """The layer a source file belongs to; None for the standard library (look further out).
    Takes tracemalloc's absolute paths and py-spy's short ones (`hypercorn/trio/run.py`)."""
    path = filename.replace("\\", "/")
    if path.startswith("<"):
        return None
    if "site-packages/" in path:
        path = path.split("site-packages/", 1)[1]
    elif path.startswith("/"):
        for own in ("svc_live", "svc_hooks", "ops", "svc"):
            if f"/{own}/" in path:
                return own
        return None if os.path.realpath(path).startswith(_STDLIB) else "other"
    top = path.split("/", 1)[0].removesuffix(".py")
    return None if top in sys.stdlib_module_names else top


# The async runtimes are looked through like the standard library: a task's coroutine, its Task
# and its cancel status are made inside trio's (or anyio's) spawn, but for whoever started the
# task (Hypercorn's connection, our stream session); what a runtime holds for no caller stays its own.
RUNTIMES = frozenset({"trio", "anyio", "outcome", "sniffio"})


def first_layer(filenames: Iterable[str], through_runtimes: bool = True) -> str:
    """The layer of the innermost frame outside the standard library and (`through_runtimes`, for
    memory) the async runtimes (`filenames` innermost first); the runtime's own when no other
    frame is found. Time is the runtime's own: its run loop runs every task."""
    runtime = None
    for name in filenames:
        layer = layer_of(name)
        if layer in RUNTIMES and through_runtimes:
            runtime = runtime or layer
        elif layer is not None:
            return layer
    return runtime or "python"


def install() -> None:
    """In the server process: trace allocations, and write the bytes per layer on SIGUSR1."""
    path = os.environ.get("BENCH_HEAP_LAYERS")
    if not path:
        return
    tracemalloc.start(FRAMES)

    def dump(_signum, _frame) -> None:
        by_layer: collections.Counter[str] = collections.Counter()
        for stat in tracemalloc.take_snapshot().statistics("traceback"):
            by_layer[first_layer(f.filename for f in reversed(stat.traceback))] += stat.size
        with open(path + ".part", "w") as f:
            json.dump(dict(by_layer), f)
        os.replace(path + ".part", path)

    signal.signal(signal.SIGUSR1, dump)


def read_heap(path: str) -> dict[str, int]:
    with open(path) as f:
        return json.load(f)


def py_spy_layers(raw: str, thread: str = "MainThread") -> dict[str, float]:
    """Percent of `thread`'s samples per layer, from a `py-spy record -f raw --threads` file."""
    samples: collections.Counter[str] = collections.Counter()
    for line in open(raw):
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if thread not in stack.split(";", 1)[0]:
            continue
        frames = stack.split(";")[1:]  # outermost first; each "function (file:line)"
        if frames and frames[-1].split(" (", 1)[0].rsplit(".", 1)[-1] == "get_events":
            samples["waiting (epoll)"] += int(count)  # trio idle: waiting for a socket or a wake-up
            continue
        files = [f[f.rfind("(") + 1 : f.rfind(":")] for f in reversed(frames)]
        samples[first_layer(files, through_runtimes=False)] += int(count)
    total = sum(samples.values()) or 1
    return {layer: 100 * n / total for layer, n in samples.most_common()}


def table(shares: dict[str, float], unit: str) -> str:
    return "\n".join(f"| {layer} | {value:.1f} {unit} |" for layer, value in shares.items())


if __name__ == "__main__":
    for layer, pct in py_spy_layers(sys.argv[1]).items():
        print(f"{pct:5.1f} %  {layer}")
