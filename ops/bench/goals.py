"""ops/bench/goals.py: the four performance goals, each a ratio against a baseline measured in
the same run, measured twice (run 1, run 2) so that the spread shows beside the figure.

    .venv/bin/python -m ops.bench.goals [--seconds 3] [--full-url URL] [--streams 10000] [--only 1,3]

1. A cached read through the full path (key, plan, limits, cached bytes: /v1/countries with the
   answer cache on) against a bare Hypercorn-trio ASGI app with the same worker count (one)
   serving the same bytes, at 1, 8 and 32 clients: goal >= 0.70. An uncached one-query read
   (/v1/countries, cache off): >= 0.40. Beside each, the ratio to a bare app serving 21 bytes.
   Statements on the primary per cached request: from pg_stat_statements (preloaded on the
   embedded server here, which restarts it once), less an idle interval: <= 0.05.
2. Every endpoint's p95 at one client with the cache off and varied parameters (the busiest
   players first, then the next ones), on the world at --full-url (default: DATABASE_URL or the
   embedded server's): goal <= 20 ms.
3. Cached reads on `serve --workers 2` against `--workers 1`, at 8 and 32 clients: goal >= 1.8;
   beside it the bare app's own two-worker ratio on the same machine (the load generator shares
   the two cores with the workers).
4. Live streams at --streams against the peer (sse-starlette on uvicorn, ops/bench/stream.py):
   memory per stream <= 0.6 of the peer's, change p99 <= the peer's, opening all <= 1.5 x the
   peer's time, the longest full collection <= 100 ms.

The servers are started here on free ports (`svc serve` reads DATABASE_URL); the Live plan's
limits are lifted while it runs and restored at the end, as `python -m ops.bench` does. Prints
one Markdown report and saves it under ops/bench/out/goals-<UTC time>.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import os
import statistics
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import psutil

from ops.bench import stream
from ops.bench.__main__ import (
    lift_limits,
    measure,
    prepare_varied,
    publish,
    restore,
    sample_paths,
    start_bare,
    wait_up,
)
from ops.bench.loadgen import Result, request_bytes
from svc.assembly import REGISTRY
from svc.core.db import connect_asyncio
from svc.core.settings import Settings
from svc.testing.serving import free_port, serve_process

CLIENTS = (1, 8, 32)
RUNS = (1, 2)
CACHED = "/v1/countries"  # answered from the answer cache after the first call
VARIED = 8  # sets of sample parameters per endpoint for goal 2


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    """'run 1 / run 2 (mean)' for a figure measured twice."""
    return " / ".join(fmt.format(v) for v in values) + f" (mean {fmt.format(statistics.fmean(values))})"


def verdict(values: list[float], ok: Callable[[float], bool]) -> str:
    return "met" if all(ok(v) for v in values) else "met in one run" if any(ok(v) for v in values) else "missed"


def save_answer(port: int, path: str, key: str, dest: Path) -> int:
    """Writes the service's answer to `path` into `dest`; its size."""
    ask = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    ask.add_header("Authorization", f"Bearer {key}")
    dest.write_bytes(urllib.request.urlopen(ask).read())
    return dest.stat().st_size


class Servers:
    """The servers of goals 1 and 3 (svc.testing.serving for ours, as the tests run them), started
    once and stopped at the end."""

    def __init__(self, url: str, home: Path, key: str) -> None:
        self.ports: dict[str, int] = {}
        self.pids: dict[str, int] = {}
        self._stack = contextlib.ExitStack()
        for name, workers, cache in (("svc1", 1, "1"), ("svc1_nocache", 1, "0"), ("svc2", 2, "1")):
            port = self.ports[name] = free_port()
            proc, _ = self._stack.enter_context(
                serve_process(url, home, "--workers", str(workers), port=port, SVC_CACHE=cache)
            )
            self.pids[name] = proc.pid
        wait_up(self.ports["svc1"], "/v1/openapi.json")
        # the bare workers serve the very bytes of the service's answer (bare1, bare2), or 21 bytes
        # (bare1_small, the baseline of earlier reports): the same transfer, so the ratio is the cost
        # of the service's path, not of a bigger answer
        same_bytes = home / "bench-answer.json"
        self.answer_bytes = save_answer(self.ports["svc1"], CACHED, key, same_bytes)
        for name, workers, body in (("bare1", 1, same_bytes), ("bare2", 2, same_bytes), ("bare1_small", 1, None)):
            port = self.ports[name] = free_port()
            bare = start_bare(port, workers, body)
            self._stack.callback(bare.wait, timeout=15)
            self._stack.callback(bare.terminate)
        for name, port in self.ports.items():
            wait_up(port, "/" if name.startswith("bare") else "/v1/openapi.json")

    def stop(self) -> None:
        self._stack.close()


def cpu_seconds(server_pid: int) -> dict[str, float]:
    """CPU seconds used so far by a server's processes (supervisor and workers), by every PostgreSQL
    process of the machine, and by this process (the load generator runs here)."""

    def used(p: psutil.Process) -> float:
        with contextlib.suppress(psutil.Error):
            t = p.cpu_times()
            return t.user + t.system
        return 0.0

    server = psutil.Process(server_pid)
    postgres = [p for p in psutil.process_iter(["name"]) if p.info["name"] in ("postgres", "postmaster")]
    return {
        "workers": sum(used(p) for p in [server, *server.children(recursive=True)]),
        "postgres": sum(used(p) for p in postgres),
        "loadgen": time.process_time(),
    }


def load(port: int, path: str, keys: list[str], clients: int, seconds: float) -> Result:
    reqs = [[request_bytes(path, {"Authorization": f"Bearer {keys[i]}"} if keys else {})] for i in range(clients)]
    r = measure(port, reqs, seconds)
    bad = {s: n for s, n in r.statuses.items() if s != 200}
    if bad:
        raise SystemExit(f"{path} on port {port} answered {bad}")
    return r


STATS_FLUSH_S = 11.0  # PostgreSQL's backends report their counts when idle within 10 s (PGSTAT_IDLE_INTERVAL)


def transactions(url: str) -> int:
    """Transactions of the database so far (every statement outside a transaction is one)."""
    return asyncio.run(stream.db_transactions(url))


def count_statements(url: str, home: Path, embedded: bool) -> bool:
    """Makes pg_stat_statements count on the server: on the embedded one (the bench's own, under
    SVC_HOME) by preloading it and restarting the server once; another server must preload it
    itself. Whether it counts (else the figure comes from pg_stat_database). A restart keeps the
    embedded server's socket, hence its URL."""

    async def setting() -> str:
        conn = await connect_asyncio(url)
        try:
            return str(await conn.fetchval("SELECT current_setting('shared_preload_libraries')"))
        finally:
            await conn.close()

    async def run(sql: str) -> None:
        conn = await connect_asyncio(url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    if "pg_stat_statements" not in asyncio.run(setting()):
        if not embedded:
            return False
        from svc.core import pgserver

        asyncio.run(run("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'"))
        pgserver.restart(home)
    asyncio.run(run("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"))
    return True


def statements(url: str) -> dict[str, int]:
    """Calls so far of each statement run in this database (pg_stat_statements; counted when each
    ends, in shared memory: nothing to wait for)."""

    async def read() -> dict[str, int]:
        conn = await connect_asyncio(url)
        try:
            rows = await conn.fetch(
                "SELECT query, sum(calls)::bigint AS calls FROM pg_stat_statements "
                "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) GROUP BY query"
            )
            return {r["query"]: r["calls"] for r in rows}
        finally:
            await conn.close()

    return asyncio.run(read())


def _delta(before: dict[str, int], after: dict[str, int]) -> dict[str, int]:
    return {q: n - before.get(q, 0) for q, n in after.items() if n - before.get(q, 0) > 0}


def statements_per_cached_request(url: str, port: int, keys: list[str], seconds: float, counted: bool) -> float:
    """Statements on the primary per cached request at 32 clients, less what the servers run
    meanwhile when idle (the live hub's polls, the feed, sweeps) over as long a time. From
    pg_stat_statements when `counted` (the statements of the load that ran most are printed),
    else from pg_stat_database's transactions, read once the backends have reported."""
    load(port, CACHED, keys, max(CLIENTS), 1.0)  # steady state: blocks claimed, answers cached
    if not counted:
        time.sleep(STATS_FLUSH_S)
        start = transactions(url)
        time.sleep(seconds + STATS_FLUSH_S)
        idle_end = transactions(url)
        r = load(port, CACHED, keys, max(CLIENTS), seconds)
        time.sleep(STATS_FLUSH_S)
        end = transactions(url)
        # each reading is a transaction of its own: one inside each interval
        return max(0, (end - idle_end - 1) - (idle_end - start - 1)) / r.requests
    start = statements(url)
    time.sleep(seconds)
    idle_end = statements(url)
    r = load(port, CACHED, keys, max(CLIENTS), seconds)
    end = statements(url)
    idle, busy = _delta(start, idle_end), _delta(idle_end, end)
    for query, n in sorted(busy.items(), key=lambda qn: -qn[1])[:4]:
        print(f"  {n:6d} (idle {idle.get(query, 0):4d})  {' '.join(query.split())[:100]}", file=sys.stderr)
    # each reading is one statement, inside each interval
    return max(0, (sum(busy.values()) - 1) - (sum(idle.values()) - 1)) / r.requests


def goals_1_and_3(servers: Servers, keys: list[str], seconds: float, url: str = "", counted: bool = False) -> list[str]:
    p = servers.ports
    per_request: list[float] = []
    g1: dict[tuple[str, int], list[float]] = {}
    g1small: dict[tuple[str, int], list[float]] = {}
    g3: dict[tuple[str, int], list[float]] = {}
    g3cpu: dict[tuple[str, int], list[float]] = {}  # cores busy during the two-worker runs, per part
    for _run in RUNS:
        for c in CLIENTS:
            # interleaved: the baselines right before the figures they divide
            bare = load(p["bare1"], "/", [], c, seconds).rps
            small = load(p["bare1_small"], "/", [], c, seconds).rps
            for kind, server in (("cached", "svc1"), ("uncached", "svc1_nocache")):
                rps = load(p[server], CACHED, keys, c, seconds).rps
                g1.setdefault((kind, c), []).append(rps / bare)
                g1small.setdefault((kind, c), []).append(rps / small)
            print(
                f"goal 1, {c} clients: cached {g1['cached', c][-1]:.2f}, uncached {g1['uncached', c][-1]:.2f}"
                f" (21-byte bare: {g1small['cached', c][-1]:.2f}, {g1small['uncached', c][-1]:.2f})",
                file=sys.stderr,
                flush=True,
            )
        if url:
            per_request.append(statements_per_cached_request(url, p["svc1"], keys, seconds, counted))
            print(f"statements per cached request: {per_request[-1]:.4f}", file=sys.stderr, flush=True)
        for c in CLIENTS[1:]:
            one = load(p["svc1"], CACHED, keys, c, seconds).rps
            before = cpu_seconds(servers.pids["svc2"])
            two = load(p["svc2"], CACHED, keys, c, seconds).rps
            used = cpu_seconds(servers.pids["svc2"])
            for part in used:
                g3cpu.setdefault((part, c), []).append((used[part] - before[part]) / seconds)
            bare1 = load(p["bare1"], "/", [], c, seconds).rps
            bare2 = load(p["bare2"], "/", [], c, seconds).rps
            g3.setdefault(("svc", c), []).append(two / one)
            g3.setdefault(("bare", c), []).append(bare2 / bare1)
            print(f"goal 3, {c} clients: ours {two / one:.2f}, bare {bare2 / bare1:.2f}", file=sys.stderr, flush=True)
    lines = [
        "## Goal 1: a read through the full path against bare Hypercorn-trio (one worker each)",
        "",
        f"The bare worker serves the same {servers.answer_bytes} bytes as the answer; beside it, the ratio "
        "to a bare worker serving 21 bytes (the baseline of earlier reports).",
        "",
        "| read | clients | × bare, run 1 / run 2 | goal | verdict | × bare with 21 bytes |",
        "|---|---|---|---|---|---|",
    ]
    for (kind, c), v in g1.items():
        goal = 0.70 if kind == "cached" else 0.40
        lines.append(
            f"| {kind} `{CACHED}` | {c} | {spread(v)} | ≥ {goal:.2f} | {verdict(v, lambda x, goal=goal: x >= goal)} "
            f"| {spread(g1small[kind, c])} |"
        )
    if per_request:
        lines.append(
            f"| statements on the primary per cached request, 32 clients | - | {spread(per_request, '{:.4f}')} "
            f"| ≤ 0.05 | {verdict(per_request, lambda x: x <= 0.05)} |"
        )
    lines += [
        "",
        "## Goal 3: cached reads, `--workers 2` against `--workers 1`",
        "",
        "| clients | ours: 2 / 1 workers, run 1 / run 2 | bare Hypercorn: 2 / 1 workers | goal | verdict |",
        "|---|---|---|---|---|",
    ]
    for c in CLIENTS[1:]:
        v = g3["svc", c]
        lines.append(f"| {c} | {spread(v)} | {spread(g3['bare', c])} | ≥ 1.80 | {verdict(v, lambda x: x >= 1.8)} |")
    lines += [
        "",
        f"Cores busy while `--workers 2` served (of {os.cpu_count()}), run 1 / run 2:",
        "",
        "| clients | our workers | PostgreSQL | the load generator (this process) |",
        "|---|---|---|---|",
    ]
    for c in CLIENTS[1:]:
        lines.append(
            f"| {c} | " + " | ".join(spread(g3cpu[part, c]) for part in ("workers", "postgres", "loadgen")) + " |"
        )
    return lines + [""]


def goal_2(url: str, home: Path, seconds: float) -> list[str]:
    keys, samples = asyncio.run(prepare_varied(url, 1, VARIED))
    paths: dict[str, list[str]] = {}
    for s in samples:
        for ep, path in sample_paths(s).items():
            paths.setdefault(ep, []).append(path)
    port = free_port()
    rows: dict[str, list[float]] = {}
    statuses: dict[str, dict[int, int]] = {}
    # no live feed: it would warm the whole world's people in the worker and play it forward meanwhile
    try:
        with serve_process(url, home, port=port, SVC_CACHE="0", SVC_LIVE_FEED="0"):
            wait_up(port, "/v1/openapi.json")
            asyncio.run(lift_limits(url))  # after the server's start-up, which writes the plans' limits
            for _run in RUNS:
                for ep in (e.path for e in REGISTRY):
                    if ep not in paths or ep == "/v1/live/stream":
                        continue
                    reqs = [[request_bytes(path, {"Authorization": f"Bearer {keys[0]}"}) for path in paths[ep]]]
                    r = measure(port, reqs, seconds)
                    rows.setdefault(ep, []).append(r.pct(0.95))
                    for status, n in r.statuses.items():
                        statuses.setdefault(ep, {})[status] = statuses.get(ep, {}).get(status, 0) + n
            print("goal 2 measured", file=sys.stderr, flush=True)
    finally:
        asyncio.run(restore(url))
    over = [(ep, v) for ep, v in rows.items() if statistics.fmean(v) > 20]
    database = urlsplit(url).path.lstrip("/") or "postgres"
    lines = [
        f"## Goal 2: every endpoint's p95 at one client, cache off, {VARIED} parameter sets per endpoint",
        "",
        f"World: database `{database}`. {len(rows) - len(over)} of {len(rows)} endpoints at or under 20 ms "
        "(mean of the two runs); over it, slowest first:",
        "",
        "| endpoint | p95 ms, run 1 / run 2 | goal | verdict |",
        "|---|---|---|---|",
    ]
    for ep, v in sorted(over, key=lambda t: -statistics.fmean(t[1])):
        lines.append(f"| `{ep}` | {spread(v, '{:.1f}')} | ≤ 20 | {verdict(v, lambda x: x <= 20)} |")
    lines += [
        "",
        "Every endpoint, slowest first (p95 ms, mean of the two runs; answers other than 200 noted):",
        "",
        "| endpoint | p95 ms | answers |",
        "|---|---|---|",
    ]
    for ep, v in sorted(rows.items(), key=lambda t: -statistics.fmean(t[1])):
        lines.append(f"| `{ep}` | {statistics.fmean(v):.1f} | {statuses.get(ep, {})} |")
    return lines + [""]


def goal_4(url: str, n: int) -> list[str]:
    import tempfile

    stream.LOGS = tempfile.mkdtemp(prefix="bench-goals-stream-")
    stream.raise_open_files(n)
    asyncio.run(stream.migrate(url))
    figures: dict[str, list[float]] = {}
    for _run in RUNS:
        ours = stream.measure("ours", n, url)
        peer = stream.measure("peer", n, url)
        print(f"goal 4: ours {ours} peer {peer}", file=sys.stderr, flush=True)
        figures.setdefault("memory", []).append(ours["rss_per_stream_kb"] / peer["rss_per_stream_kb"])
        figures.setdefault("p99", []).append(ours["p99_ms"] / peer["p99_ms"])
        figures.setdefault("open", []).append(ours["open_s"] / peer["open_s"])
        figures.setdefault("gc", []).append(ours["gc_max_ms"])
        figures.setdefault("opened", []).append(min(ours["ok"], ours["reached"]))
    lines = [
        f"## Goal 4: {n} live streams on one worker against the peer (sse-starlette on uvicorn)",
        "",
        "| figure | run 1 / run 2 | goal | verdict |",
        "|---|---|---|---|",
        f"| memory per stream, ours / peer | {spread(figures['memory'])} | ≤ 0.60 | "
        f"{verdict(figures['memory'], lambda x: x <= 0.6)} |",
        f"| change p99, ours / peer | {spread(figures['p99'])} | ≤ 1.00 "
        f"| {verdict(figures['p99'], lambda x: x <= 1)} |",
        f"| opening all, ours / peer | {spread(figures['open'])} | ≤ 1.50 | "
        f"{verdict(figures['open'], lambda x: x <= 1.5)} |",
        f"| longest full collection of ours (ms) | {spread(figures['gc'], '{:.0f}')} | ≤ 100 | "
        f"{verdict(figures['gc'], lambda x: x <= 100)} |",
        f"| streams open and reached by every change | {spread(figures['opened'], '{:.0f}')} | {n} | "
        f"{verdict(figures['opened'], lambda x: x >= n)} |",
    ]
    return lines + [""]


def main() -> int:
    ap = argparse.ArgumentParser(prog="python -m ops.bench.goals")
    ap.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    ap.add_argument("--full-url", default="", help="the world of goal 2 (default: the one of goals 1 and 3)")
    ap.add_argument("--streams", type=int, default=10000)
    ap.add_argument("--only", default="1,2,3,4", help="goals to measure, comma separated (1 and 3 run together)")
    args = ap.parse_args()
    only = set(args.only.split(","))
    settings = Settings.from_env()
    from svc.core import pgserver

    url = settings.database_url or pgserver.start(settings.home)
    stamp = dt.datetime.now(dt.UTC)
    lines = [
        f"# ops/bench/goals {stamp:%Y-%m-%d %H:%M} UTC",
        "",
        f"{os.cpu_count()} cores, 127.0.0.1; {args.seconds:g} s per measurement; every figure measured twice "
        "(run 1 / run 2), each against its baseline measured in the same run.",
        "",
    ]
    if only & {"1", "3"}:
        counted = count_statements(url, settings.home, embedded=settings.database_url is None)
        keys, _ = asyncio.run(prepare_varied(url, max(CLIENTS), 1))
        servers = Servers(url, settings.home, keys[0])
        try:
            asyncio.run(lift_limits(url))
            lines += goals_1_and_3(servers, keys, args.seconds, url, counted)
            if not counted:
                lines += ["", "(statements: pg_stat_statements is not preloaded there; counted as transactions)"]
        finally:
            servers.stop()
            asyncio.run(restore(url))
    if "2" in only:
        lines += goal_2(args.full_url or url, settings.home, args.seconds)
    if "4" in only:
        lines += goal_4(url, args.streams)
    publish(lines, "goals", stamp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
