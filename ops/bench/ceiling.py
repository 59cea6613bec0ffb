"""How many requests one PostgreSQL primary can carry, from its CPU per request: one node
(`serve --workers 2`, cache on and off) under load at 32 clients, PostgreSQL's CPU seconds per
request (every postgres process of the machine, less as long an idle time) and its statements per
request (pg_stat_statements), so that

    requests per second one PostgreSQL core carries = 1 / (its CPU seconds per request)
    nodes one PostgreSQL core carries               = that / what one node serves per second

    .venv/bin/python -m ops.bench.ceiling [--seconds 5]

docs/scaling.md gives the figures; the servers and keys are made as for ops.bench.goals.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import sys
import time

from ops.bench.__main__ import lift_limits, prepare_varied, publish, restore, wait_up
from ops.bench.goals import CACHED, count_statements, cpu_seconds, load, statements
from svc.core.settings import Settings
from svc.testing.serving import free_port, serve_process

CLIENTS = 32


def postgres_cpu(pid: int) -> float:
    return cpu_seconds(pid)["postgres"]


def main() -> int:
    ap = argparse.ArgumentParser(prog="python -m ops.bench.ceiling")
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    settings = Settings.from_env()
    from svc.core import pgserver

    url = settings.database_url or pgserver.start(settings.home)
    counted = count_statements(url, settings.home, embedded=settings.database_url is None)
    keys, _ = asyncio.run(prepare_varied(url, CLIENTS, 1))
    rows = []
    try:
        with contextlib.ExitStack() as stack:
            servers = {}
            for kind, cache in (("cached", "1"), ("uncached", "0")):
                port = free_port()
                proc, _ = stack.enter_context(
                    serve_process(url, settings.home, "--workers", "2", port=port, SVC_CACHE=cache)
                )
                servers[kind] = (port, proc.pid)
            for port, _ in servers.values():
                wait_up(port, "/v1/openapi.json")
            asyncio.run(lift_limits(url))
            for run in (1, 2):
                for kind, (port, pid) in servers.items():
                    load(port, CACHED, keys, CLIENTS, 1.0)  # steady state: blocks claimed, answers cached
                    idle_cpu, idle_stmts = postgres_cpu(pid), statements(url) if counted else {}
                    time.sleep(args.seconds)
                    busy_cpu, busy_stmts = postgres_cpu(pid), statements(url) if counted else {}
                    r = load(port, CACHED, keys, CLIENTS, args.seconds)
                    end_cpu, end_stmts = postgres_cpu(pid), statements(url) if counted else {}
                    cpu = max(0.0, (end_cpu - busy_cpu) - (busy_cpu - idle_cpu)) / r.requests
                    per = (sum(end_stmts.values()) - sum(busy_stmts.values())) - (
                        sum(busy_stmts.values()) - sum(idle_stmts.values())
                    )
                    rows.append((run, kind, r.rps, cpu, max(0, per) / r.requests if counted else float("nan")))
                    print(rows[-1], file=sys.stderr, flush=True)
    finally:
        asyncio.run(restore(url))
    stamp = dt.datetime.now(dt.UTC)
    lines = [
        f"# ops/bench/ceiling {stamp:%Y-%m-%d %H:%M} UTC",
        "",
        f"One node (`serve --workers 2`), {CLIENTS} clients, `{CACHED}`, {args.seconds:g} s per figure; PostgreSQL's "
        "CPU and statements less those of as long an idle time.",
        "",
        "| run | read | node req/s | PostgreSQL CPU µs / request | statements / request "
        "| req/s one PostgreSQL core carries | nodes one PostgreSQL core carries |",
        "|---|---|---|---|---|---|---|",
    ]
    for run, kind, rps, cpu, per in rows:
        carried = 1 / cpu if cpu > 0 else float("inf")
        lines.append(
            f"| {run} | {kind} | {rps:.0f} | {cpu * 1e6:.1f} | {per:.3f} | {carried:,.0f} | {carried / rps:,.1f} |"
        )
    publish(lines, "ceiling", stamp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
