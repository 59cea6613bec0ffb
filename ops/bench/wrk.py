"""The independent comparison: wrk (a C load generator, not our Python one) against one worker of
the service and a bare Hypercorn-trio worker serving the very bytes of the service's answer,
8 connections, each request with the next of 100 rotating Live keys, interleaved: bare, cached,
uncached, twice. Beside each rate, the server's CPU per request (its processes' user and system
time over the requests wrk made): what a request costs a core, the same cost seen without the
scheduling of wrk and PostgreSQL beside the worker (a host busy with other machines still moves
it: bare 522-746 us over this day's runs).

    .venv/bin/python -m ops.bench.wrk [--seconds 5] [--connections 8]

Needs wrk on the PATH (Debian's `wrk`). Prints a Markdown table and saves it under ops/bench/out.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from ops.bench.__main__ import lift_limits, prepare_varied, publish, restore, wait_up
from ops.bench.goals import cpu_seconds, save_answer, start_bare
from svc.core.settings import Settings
from svc.testing.serving import free_port, serve_process

PATH = "/v1/countries"
KEYS = 100
ROTATE = """
keys = {%s}
i = 0
request = function()
  i = i %% #keys + 1
  return wrk.format("GET", "%s", {["Authorization"] = "Bearer " .. keys[i]})
end
"""


def wrk(port: int, script: Path, connections: int, seconds: float) -> tuple[float, int]:
    """Requests per second wrk measured, and the requests made; non-2xx answers fail the run."""
    out = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{seconds:g}s", "-s", str(script), f"http://127.0.0.1:{port}{PATH}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    if "Non-2xx" in out:
        raise SystemExit(f"wrk saw answers other than 200:\n{out}")
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    return rate, int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]


def main() -> int:
    ap = argparse.ArgumentParser(prog="python -m ops.bench.wrk")
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--connections", type=int, default=8)
    args = ap.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("wrk is not installed (Debian: apt install wrk)")
    settings = Settings.from_env()
    from svc.core import pgserver

    url = settings.database_url or pgserver.start(settings.home)
    keys, _ = asyncio.run(prepare_varied(url, KEYS, 1))
    rates: dict[str, list[float]] = {"bare": [], "cached": [], "uncached": []}
    cpu_us: dict[str, list[float]] = {name: [] for name in rates}  # the server's CPU per request
    pids: dict[str, int] = {}
    body_size = 0
    try:  # the bench's keys removed once the servers have stopped (they may be giving calls back)
        with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
            script = Path(tmp) / "rotate.lua"
            script.write_text(ROTATE % (", ".join(f'"{k}"' for k in keys), PATH))
            ports = {"cached": free_port(), "uncached": free_port(), "bare": free_port()}
            for name, cache in (("cached", "1"), ("uncached", "0")):
                proc, _ = stack.enter_context(
                    serve_process(url, settings.home, "--workers", "1", port=ports[name], SVC_CACHE=cache)
                )
                pids[name] = proc.pid
            for name in ("cached", "uncached"):
                wait_up(ports[name], "/v1/openapi.json")
            asyncio.run(lift_limits(url))
            body = Path(tmp) / "body.json"
            body_size = save_answer(ports["cached"], PATH, keys[0], body)
            bare = start_bare(ports["bare"], 1, body)
            pids["bare"] = bare.pid
            stack.callback(bare.wait, timeout=15)
            stack.callback(bare.terminate)
            wait_up(ports["bare"], "/")
            for name in rates:  # warm: blocks claimed, answers cached
                wrk(ports[name], script, args.connections, 1)
            for run in (1, 2):
                for name in rates:
                    before = cpu_seconds(pids[name])["workers"]
                    rate, requests = wrk(ports[name], script, args.connections, args.seconds)
                    rates[name].append(rate)
                    cpu_us[name].append((cpu_seconds(pids[name])["workers"] - before) / requests * 1e6)
                    print(
                        f"run {run} {name}: {rate:.0f} req/s, {cpu_us[name][-1]:.0f} us of CPU per request",
                        file=sys.stderr,
                        flush=True,
                    )
    finally:
        asyncio.run(restore(url))
    stamp = dt.datetime.now(dt.UTC)
    lines = [
        f"# ops/bench/wrk {stamp:%Y-%m-%d %H:%M} UTC",
        "",
        f"wrk -t1 -c{args.connections}, {args.seconds:g} s each, {KEYS} rotating Live keys, `{PATH}` "
        f"({body_size} bytes); bare Hypercorn-trio serves the same bytes. One worker each, interleaved.",
        "",
        "The server's CPU per request is its processes' CPU time over the requests wrk made; its ratio is",
        "the bare worker's over ours: the share of the bare rate one core would give us, whatever runs",
        "beside the worker on the other core (a busy host still moves both).",
        "",
        "| | run 1 | run 2 | × bare, run 1 / run 2 | CPU per request, run 1 / run 2 | bare's CPU / ours |",
        "|---|---|---|---|---|---|",
    ]
    for name in rates:
        r, c = rates[name], cpu_us[name]
        ratio = " / ".join(f"{v / b:.2f}" for v, b in zip(r, rates["bare"], strict=True))
        by_cpu = " / ".join(f"{b / v:.2f}" for v, b in zip(c, cpu_us["bare"], strict=True))
        lines.append(
            f"| {name} | {r[0]:.0f} req/s | {r[1]:.0f} req/s | {ratio} | {c[0]:.0f} / {c[1]:.0f} µs | {by_cpu} |"
        )
    publish(lines, "wrk", stamp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
