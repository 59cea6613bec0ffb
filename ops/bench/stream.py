"""ops/bench/stream.py: N concurrent /v1/live/stream connections on one Hypercorn worker.

    DATABASE_URL=... .venv/bin/python -m ops.bench.stream [--streams 1000,5000,10000]

For each N: time to open all streams, server memory per stream (RSS growth / N), the time
for one change to reach every subscriber (p50/p99, from the commit of the change to the
byte arriving at each client), and the server's CPU while idle with only heartbeats
(20 s). Keys: N/2 Live keys (two streams per key). Clients are raw Trio sockets, so the
client side stays cheap. A stream lasts ~5 minutes: each N is measured well within that.
Not measured here: an sse-starlette-on-uvicorn peer (neither package is installed in this
environment; the issue asks for it as a comparison).

The server app (hub only, no feed, so nothing else moves) is this module's `app` when
BENCH_STREAM_APP=1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time

if os.environ.get("BENCH_STREAM_APP") == "1":  # imported by Hypercorn in the server process
    from svc.app import create_app
    from svc_live.components import hub

    app = create_app(os.environ["DATABASE_URL"], pool_size=8, components=[hub])

import psutil
import trio


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def make_keys(url: str, n: int) -> list[str]:
    from svc import keys as svc_keys
    from svc.db import connect_asyncio

    conn = await connect_asyncio(url)
    try:
        return [await svc_keys.create_key(conn, plan="live", account=f"bench-stream-{os.getpid()}-{i}")
                for i in range(n)]
    finally:
        await conn.close()


async def publish_one(url: str) -> tuple[int, float]:
    """Writes one change of a match in play as the feed would; (seq, commit time)."""
    import datetime as dt

    from svc.db import connect_asyncio
    from svc_live.changes import publish

    conn = await connect_asyncio(url)
    try:
        mid = await conn.fetchval("SELECT id FROM matches WHERE status = 'live' LIMIT 1")
        async with conn.transaction():
            seq = await publish(conn, mid, "score", dt.datetime.now(dt.timezone.utc))
        return seq, time.perf_counter()
    finally:
        await conn.close()


class Client:
    def __init__(self) -> None:
        self.buf = bytearray()
        self.ok = False
        self.arrived: dict[bytes, float] = {}
        self.want: bytes | None = None


async def stream_client(port: int, key: str, c: Client, opened: trio.MemorySendChannel) -> None:
    s = await trio.open_tcp_stream("127.0.0.1", port)
    await s.send_all(f"GET /v1/live/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {key}\r\n"
                     f"Accept: text/event-stream\r\n\r\n".encode())
    told = False
    async with s:
        while True:
            chunk = await s.receive_some(65536)
            if not chunk:
                return
            c.buf += chunk
            if not told and b"\r\n\r\n" in c.buf:
                c.ok = c.buf.startswith(b"HTTP/1.1 200")
                told = True
                await opened.send(c.ok)
            if c.want is not None and c.want in c.buf and c.want not in c.arrived:
                c.arrived[c.want] = time.perf_counter()
            if len(c.buf) > 1 << 14:
                del c.buf[: len(c.buf) - 4096]  # keep a tail longer than one message: the marker may straddle chunks


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


async def run_n(n: int, url: str, port: int, proc: psutil.Process) -> dict:
    keys = await trio.to_thread.run_sync(lambda: asyncio.run(make_keys(url, (n + 1) // 2)))
    rss0 = proc.memory_info().rss
    clients = [Client() for _ in range(n)]
    send, receive = trio.open_memory_channel(n)
    result: dict = {"streams": n}
    async with trio.open_nursery() as nursery:
        t0 = time.perf_counter()
        for i, c in enumerate(clients):
            nursery.start_soon(stream_client, port, keys[i // 2], c, send)
        oks = 0
        for _ in range(n):
            oks += await receive.receive()
        result["open_s"] = time.perf_counter() - t0
        result["ok"] = oks
        await trio.sleep(2)
        result["rss_per_stream_kb"] = (proc.memory_info().rss - rss0) / n / 1024
        cpu0, w0 = cpu_seconds(proc), time.perf_counter()
        await trio.sleep(20)
        result["idle_cpu_pct"] = 100 * (cpu_seconds(proc) - cpu0) / (time.perf_counter() - w0)
        seq, committed = await trio.to_thread.run_sync(lambda: asyncio.run(publish_one(url)))
        marker = f"id: {seq}\n".encode()
        for c in clients:
            c.want = marker
            if marker in c.buf:
                c.arrived[marker] = time.perf_counter()
        with trio.move_on_after(30):
            while sum(marker in c.arrived for c in clients if c.ok) < oks:
                await trio.sleep(0.01)
        lat = sorted((c.arrived[marker] - committed) * 1000 for c in clients if marker in c.arrived)
        result["reached"] = len(lat)
        result["p50_ms"] = statistics.median(lat) if lat else float("nan")
        result["p99_ms"] = lat[min(len(lat) - 1, int(0.99 * len(lat)))] if lat else float("nan")
        nursery.cancel_scope.cancel()
    await trio.sleep(3)  # the server frees the slots
    return result


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--streams", default="1000,5000,10000")
    args = ap.parse_args()
    url = os.environ["DATABASE_URL"]
    port = free_port()
    env = {**os.environ, "BENCH_STREAM_APP": "1"}
    server = subprocess.Popen([sys.executable, "-m", "hypercorn", "-k", "trio", "-w", "1", "-b", f"127.0.0.1:{port}",
                               "--backlog", "4096", "ops.bench.stream:app"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(5)
        proc = worker_of(server, port)
        rows = [trio.run(run_n, int(n), url, port, proc) for n in args.streams.split(",")]
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:  # streams still draining: stop it hard
            server.kill()
            server.wait()
    print("| streams | opened | open all (s) | memory/stream (KiB) | idle CPU (%) | change reached | p50 (ms) | p99 (ms) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['streams']} | {r['ok']} | {r['open_s']:.1f} | {r['rss_per_stream_kb']:.0f} | {r['idle_cpu_pct']:.1f} "
              f"| {r['reached']} | {r['p50_ms']:.0f} | {r['p99_ms']:.0f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
