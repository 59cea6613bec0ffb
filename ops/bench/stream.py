"""ops/bench/stream.py: N concurrent /v1/live/stream connections on one Hypercorn worker, beside a peer.

    DATABASE_URL=... .venv/bin/python -m ops.bench.stream [--streams 1000,5000,10000]

(the peer needs the `bench` extra: `.venv/bin/pip install -e ".[test,bench]"`)

For each N, two services in turn, each in a fresh server process on 127.0.0.1 so no run
inherits the heap of the one before:
- ours: the service's hub (this module's `app` when BENCH_STREAM_APP=1: hub only, no feed,
  so nothing else moves) on Hypercorn, one Trio worker; N/2 Live keys (two streams per key);
- peer: a minimal sse-starlette app on uvicorn, one worker (ops/bench/stream_peer.py):
  heartbeat every 15 s, in-memory broadcast (one asyncio.Queue per subscriber) triggered by
  GET /publish.
Measured for both: time to open all N streams, server memory per stream (worker RSS growth / N,
2 s after the last stream opened), the server's CPU while idle with only heartbeats (20 s), and
the time for a change to reach every subscriber (p50/p99 over CHANGES changes 3 s apart and
every subscriber, from the trigger to the byte arriving at each client), and the full garbage
collections the server ran meanwhile (count, longest pause; ops/bench/gclog.py). The trigger is,
for ours, the commit of the change in PostgreSQL (NOTIFY, LISTEN, hub, fan-out follow); for the
peer, the moment the GET /publish is sent.
Clients are raw Trio sockets (ops/bench/stream_clients.py), so the client side stays cheap (it
shares the machine's cores with the server all the same). A stream of ours lasts ~5 minutes: each
N is measured well within that.
Prints one Markdown table (ops/bench/stream_report.py), ours and the peer side by side per N with
ratios (ours / peer), and saves it under ops/bench/out/stream-<UTC time>.md; the servers' own
output goes to a temporary directory named at the end. Each N stops by itself: opening is bounded
(OPEN_TIMEOUT), so is the wait for the change (REACH_TIMEOUT); a row then shows how many streams
opened / were reached.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import os
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

if os.environ.get("BENCH_STREAM_APP") == "1":  # imported by Hypercorn in the server process
    from svc.assembly import create_app, hub_component

    app = create_app(os.environ["DATABASE_URL"], pool_size=8, components=[hub_component])
    if os.environ.get("BENCH_HEAP") != "default":  # --heap default: CPython's collector settings, to compare
        from svc.core import heap

        heap.settle()  # as `serve` does (svc/asgi.py)
    from ops.bench import gclog, layers

    gclog.install()
    layers.install()

import psutil
import trio

from ops.bench import gclog, layers
from ops.bench.stream_clients import Client, make_keys, publish_one, publish_peer, stream_client
from ops.bench.stream_report import installed, layer_table, table
from svc.testing.serving import free_port


async def migrate(url: str) -> None:
    """The database may predate this checkout's schema (a ./var world made earlier): bring it up first."""
    from svc.access.plans import prepare_database as apply
    from svc.core.db import connect_asyncio

    conn = await connect_asyncio(url)
    try:
        await apply(conn)
    finally:
        await conn.close()


def cpu_seconds(p: psutil.Process) -> float:
    t = p.cpu_times()
    return t.user + t.system


def worker_of(server: subprocess.Popen, port: int) -> psutil.Process:
    """The process that serves the port (Hypercorn may run its worker as a child)."""
    parent = psutil.Process(server.pid)
    for p in [*parent.children(recursive=True), parent]:  # a worker child first: it holds the socket too
        if any(c.laddr and c.laddr.port == port for c in p.net_connections(kind="tcp")):
            return p
    return parent


# Streams being opened at once (connected, answer not yet in). Without a bound, 19,000 connects at
# once left thousands of ours waiting for their request to be read past Hypercorn's 5 s
# keep_alive_timeout (it closes such a connection as idle); real clients reconnect spread over
# their ~5-minute streams.
OPEN_AT_ONCE = 1000
OPEN_TIMEOUT = (
    240  # s: a run that cannot open its streams by then reports how many it opened (ours ends a stream at ~300 s)
)
REACH_TIMEOUT = 30  # s
CHANGES = 5  # changes sent per N, CHANGE_GAP_S apart; latency figures pool every (change, subscriber)
CHANGE_GAP_S = 3


async def run_n(service: str, n: int, url: str, port: int, proc: psutil.Process) -> dict:
    if service == "ours":
        keys = await trio.to_thread.run_sync(lambda: asyncio.run(make_keys(url, (n + 1) // 2)))
        requests = [
            f"GET /v1/live/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {keys[i // 2]}\r\n"
            f"Accept: text/event-stream\r\n\r\n".encode()
            for i in range(n)
        ]
    else:
        requests = [b"GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n"] * n
    traced = os.environ.get("BENCH_HEAP_LAYERS", "")
    before = await heap_layers(proc, traced) if traced else {}
    if service == "ours":
        xacts0 = await trio.to_thread.run_sync(lambda: asyncio.run(db_transactions(url)))
    rss0 = proc.memory_info().rss
    clients = [Client() for _ in range(n)]
    send, receive = trio.open_memory_channel(n)
    result: dict = {"streams": n}
    async with trio.open_nursery() as nursery:
        t0 = time.perf_counter()
        opening = trio.CapacityLimiter(OPEN_AT_ONCE)
        for c, req in zip(clients, requests):
            nursery.start_soon(stream_client, port, req, c, send, opening)
        oks = answered = 0
        with trio.move_on_after(OPEN_TIMEOUT):
            while answered < n:
                oks += await receive.receive()
                answered += 1
        result["open_s"] = time.perf_counter() - t0
        result["ok"] = oks
        await trio.sleep(2)
        result["rss_per_stream_kb"] = (proc.memory_info().rss - rss0) / n / 1024
        result["xacts_per_stream"] = float("nan")
        if service == "ours":  # the hub's own (a poll every 2 s, a renewal every 4 s) are a few of them
            xacts = await trio.to_thread.run_sync(lambda: asyncio.run(db_transactions(url)))
            result["xacts_per_stream"] = (xacts - xacts0 - 1) / n
        if traced:  # what the streams added, layer by layer
            after = await heap_layers(proc, traced)
            result["heap_layers"] = {k: after.get(k, 0) - before.get(k, 0) for k in after.keys() | before.keys()}
        cpu0, w0 = cpu_seconds(proc), time.perf_counter()
        await trio.sleep(20)
        result["idle_cpu_pct"] = 100 * (cpu_seconds(proc) - cpu0) / (time.perf_counter() - w0)
        lat: list[float] = []
        reached = []
        for k in range(CHANGES):
            if service == "ours":
                seq, trigger = await trio.to_thread.run_sync(lambda: asyncio.run(publish_one(url)))
                marker = f"id: {seq}\n".encode()
            else:
                marker = f"id: {1_000_000 + 10 * n + k}\n".encode()
                for c in clients:  # armed before the trigger: the peer answers within microseconds
                    c.want = marker
                seq, trigger = await publish_peer(port, 1_000_000 + 10 * n + k)
            for c in clients:
                c.want = marker
                if marker in c.buf and marker not in c.arrived:
                    c.arrived[marker] = time.perf_counter()
            with trio.move_on_after(REACH_TIMEOUT):
                while sum(marker in c.arrived for c in clients if c.ok) < oks:
                    await trio.sleep(0.01)
            got = [(c.arrived[marker] - trigger) * 1000 for c in clients if marker in c.arrived]
            reached.append(len(got))
            lat += got
            await trio.sleep(CHANGE_GAP_S)
        lat.sort()
        result["reached"] = min(reached)
        result["p50_ms"] = statistics.median(lat) if lat else float("nan")
        result["p99_ms"] = lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else float("nan")
        nursery.cancel_scope.cancel()
    await trio.sleep(3)  # the server frees the slots
    return result


async def db_transactions(url: str) -> int:
    """Transactions the database has seen (each statement outside one is one): what opening the
    streams cost it, per stream, is the difference over N. PostgreSQL counts a backend's own once
    it goes idle (within a second or so): read 2 s after the last stream opened."""
    from svc.core.db import connect_asyncio

    conn = await connect_asyncio(url)
    try:
        return int(
            await conn.fetchval(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = current_database()"
            )
        )
    finally:
        await conn.close()


async def heap_layers(proc: psutil.Process, path: str) -> dict[str, int]:
    """The server's bytes alive per layer (ops/bench/layers.py), asked for by SIGUSR1."""
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)
    proc.send_signal(signal.SIGUSR1)
    with trio.fail_after(300):  # a snapshot of some 10^6 traced blocks takes a while
        while not os.path.exists(path):
            await trio.sleep(0.5)
    return layers.read_heap(path)


HEAP = "serve"  # main() sets it: "serve" (svc/core/heap.py, as served) or "default" (CPython's settings)
LOGS = ""  # main() makes it: the servers' own output, to look into when a figure is odd


def start_server(service: str, port: int, log_name: str, gc_log: str) -> subprocess.Popen:
    if service == "ours":
        cmd = [
            sys.executable,
            "-m",
            "hypercorn",
            "-k",
            "trio",
            "-w",
            "1",
            "-b",
            f"127.0.0.1:{port}",
            "--backlog",
            "4096",
            "ops.bench.stream:app",
        ]
        env = {**os.environ, "BENCH_STREAM_APP": "1", "BENCH_GC_LOG": gc_log, "BENCH_HEAP": HEAP}
    else:
        cmd = [
            sys.executable,
            "-m",
            "uvicorn",
            "ops.bench.stream_peer:app",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--workers",
            "1",
            "--backlog",
            "4096",
            "--log-level",
            "warning",
            "--no-access-log",
        ]
        env = {**os.environ, "BENCH_GC_LOG": gc_log}
    with open(os.path.join(LOGS, log_name), "wb") as log:
        server = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"{service} server exited with {server.returncode}: {' '.join(cmd)}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    else:
        stop_server(server)
        raise RuntimeError(f"{service} server did not listen on {port} within 60 s")
    time.sleep(1)  # settled: the baseline RSS is taken after this
    return server


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:  # streams still draining: stop it hard
        server.kill()
        server.wait()


def measure(service: str, n: int, url: str, run: int) -> dict:
    port = free_port()
    # one file per server run: two runs of the same size (--streams 10000,10000) must not add up
    gc_log = os.path.join(LOGS, f"gc-{service}-{n}-{run}.txt")
    server = start_server(service, port, f"{service}-{n}-{run}.log", gc_log)
    try:
        result = trio.run(run_n, service, n, url, port, worker_of(server, port))
    finally:
        stop_server(server)
    pauses = gclog.read(gc_log)
    result["gc_full"] = len(pauses)
    result["gc_max_ms"] = max(pauses, default=0.0)
    return result


def raise_open_files(n: int) -> None:
    """Each client and server side holds one descriptor per stream (servers inherit the limit)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = max(soft, 2 * n + 1024)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, max(hard, want)))
    except (ValueError, OSError):  # not allowed to raise the hard limit: take what there is
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    have = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if have < n + 512:  # the clients of one run live in this process: one descriptor each, plus some
        raise SystemExit(
            f"{n} streams need about {n + 512} open files in this process; the limit is {have} "
            f"and cannot be raised here (hard limit {hard})"
        )


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--streams", default="1000,5000,10000")
    ap.add_argument(
        "--heap",
        choices=("serve", "default"),
        default="serve",
        help="our worker's collector: as `serve` sets it (svc/core/heap.py) or CPython's defaults",
    )
    ap.add_argument(
        "--heap-layers",
        action="store_true",
        help="instead of the figures: each server's memory per stream by layer (ops/bench/layers.py; "
        "traced allocations, so the servers run slower and larger than in the figures)",
    )
    args = ap.parse_args()
    global HEAP
    HEAP = args.heap
    url = os.environ["DATABASE_URL"]
    ns = [int(n) for n in args.streams.split(",")]
    global LOGS
    LOGS = tempfile.mkdtemp(prefix="bench-stream-")
    raise_open_files(max(ns))
    asyncio.run(migrate(url))
    if args.heap_layers:
        os.environ["BENCH_HEAP_LAYERS"] = os.path.join(LOGS, "heap-layers.json")
    pairs = []
    for run, n in enumerate(ns, 1):
        ours = measure("ours", n, url, run)
        peer = measure("peer", n, url, run)
        print(f"# {n}: ours {ours} peer {peer}", file=sys.stderr, flush=True)
        pairs.append((ours, peer))
    from importlib.metadata import version

    stamp = dt.datetime.now(dt.UTC)
    head = (
        f"Live stream benchmark, {stamp:%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, 127.0.0.1, one worker each: "
        f"ours = /v1/live/stream, Quart-Trio on Hypercorn {version('hypercorn')} (h11); "
        f"peer = sse-starlette {version('sse-starlette')} on uvicorn {version('uvicorn')} "
        f"(asyncio loop, {'httptools' if installed('httptools') else 'h11'}). Heartbeat every 15 s on both. "
        f"Our worker's garbage collector: {'as served (svc/core/heap.py)' if HEAP == 'serve' else 'CPython defaults'}; "
        f"the peer's: CPython defaults. "
        f"Change latency from the trigger (ours: the commit in PostgreSQL; peer: GET /publish sent) "
        f"to the byte arriving at each client."
    )
    text = head + "\n\n" + (layer_table(pairs) if args.heap_layers else table(pairs)) + "\n"
    print(text)
    out = os.path.join(os.path.dirname(__file__), "out", f"stream-{stamp:%Y%m%dT%H%M%S}.md")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        f.write(text)
    print(f"saved {out}; server output in {LOGS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
