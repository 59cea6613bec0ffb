"""`python -m svc serve`: database ready, world loaded, demo keys printed, then N Hypercorn trio
workers, each importing svc.asgi:app, under a supervisor that replaces a worker that dies."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
from multiprocessing import get_context
from multiprocessing.connection import wait

from hypercorn.config import Config
from hypercorn.trio.run import trio_worker

from svc.access import keys
from svc.access.plans import PLAN_NAMES, prepare_database
from svc.core import metrics
from svc.core.db import connect_asyncio
from svc.core.logs import setup_logging
from svc.core.settings import Settings

DEMO_SEED = 1899  # the demo world's seed: the year the All England began
URL_LIMIT = 256 * 1024  # h11's buffer for a request head: a long URL reaches the app, which answers it in JSON
RESTART_S = (0.5, 30.0)  # a worker that dies is replaced after 0.5 s, doubling while it keeps dying young
YOUNG_S = 10.0           # ... a worker that lived longer than this is replaced after 0.5 s again
log = logging.getLogger("svc.serve")


async def _prepare(database_url: str, settings: Settings, world: str) -> dict[str, str]:
    """The schema, the world asked for, the demo keys. `demo`: generated into an empty database
    only (a database holding another world keeps it); `bwf`: the real world, loaded into an
    empty database or one holding another world."""
    from svc.core.progress import ProgressBar
    from svc.world.replace import generate_world, load_bwf_world, world_source

    conn = await connect_asyncio(database_url)
    try:
        await prepare_database(conn)
        held = await world_source(conn)
        if world == "bwf" and held != "bwf":
            print(f"{'empty database' if held is None else f'the database holds the {held} world'}: "
                  "loading the real world from the public BWF files (once)", file=sys.stderr)
            bar = ProgressBar()
            try:
                _manifest, report = await load_bwf_world(conn, progress=bar)
            finally:
                bar.close()
            for line in report.lines()[:20]:
                print("  " + line, file=sys.stderr)
        elif held is None:
            print("empty database: generating the demo world (once)", file=sys.stderr)
            bar = ProgressBar()
            try:
                await generate_world(conn, scale=settings.scale, seed=DEMO_SEED,
                                     as_of=dt.datetime.now(dt.timezone.utc).replace(second=0, microsecond=0),
                                     progress=bar)
            finally:
                bar.close()
        return await _demo_keys(conn, settings)
    finally:
        await conn.close()


async def _demo_keys(conn, settings: Settings) -> dict[str, str]:
    """One key per plan for trying the service, kept in $SVC_HOME/demo-keys.json (a local
    convenience: the database itself holds only hashes). Made anew when missing or replaced."""
    path = settings.home / "demo-keys.json"
    held = json.loads(path.read_text()) if path.exists() else {}
    out: dict[str, str] = {}
    for plan in PLAN_NAMES:
        key = held.get(plan)
        row = key and await conn.fetchrow(
            "SELECT k.state, a.plan FROM api_keys k JOIN accounts a ON a.name = k.account WHERE k.key_hash = $1",
            keys.key_hash(key))
        if not row or row["state"] != "current" or row["plan"] != plan:
            key = await keys.create_key(conn, plan=plan, account=f"demo-{plan}-{keys.new_key()[-6:].lower()}")
        out[plan] = key
    settings.home.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1))
    path.chmod(0o600)
    return out


def serve(args, settings: Settings, *, database_url: str) -> int:
    demo = asyncio.run(_prepare(database_url, settings, getattr(args, "world", "demo")))
    os.environ["DATABASE_URL"] = database_url  # the spawned workers read it (svc/asgi.py)
    os.environ["SVC_LIVE_SPEED"] = str(args.live_speed)
    base = f"http://{args.host}:{args.port}"
    print(f"\nlistening on {base}  ({args.workers} worker{'s' if args.workers != 1 else ''})", flush=True)
    print(f"database: {database_url}")
    for plan, key in demo.items():
        print(f"demo key ({plan:7}): {key}")
    print(f"try: curl -H 'Authorization: Bearer {demo['free']}' '{base}/v1/search?q=lee'\n", flush=True)

    metrics_port = getattr(args, "metrics_port", None)
    if metrics_port is not None:
        if metrics_port == args.port:
            print("error: --metrics-port must differ from --port (metrics are never on the API's port)", file=sys.stderr)
            return 2
        # every worker writes its numbers here (inherited by the spawned workers); this process serves them
        os.environ[metrics.MULTIPROCESS_DIR] = tempfile.mkdtemp(prefix="svc-metrics-")
        metrics.serve(metrics_port, args.metrics_host)
        print(f"metrics: http://{args.metrics_host}:{metrics_port}/metrics", flush=True)

    config = Config()
    config.bind = [f"{args.host}:{args.port}"]
    config.worker_class = "trio"
    config.workers = max(1, args.workers)
    config.application_path = "svc.asgi:app"
    config.accesslog = None
    config.graceful_timeout = 5.0
    config.h11_max_incomplete_size = URL_LIMIT
    try:
        return supervise(config)
    finally:
        if metrics_port is not None:
            shutil.rmtree(os.environ[metrics.MULTIPROCESS_DIR], ignore_errors=True)


def supervise(config: Config) -> int:
    """Runs config.workers Hypercorn trio workers on sockets made once here and shared, and
    replaces any worker that exits (a crash, `kill -9`) while the others go on serving: Hypercorn's
    own `run` stops every worker when one exits with an error. SIGINT and SIGTERM stop them all
    gracefully (Hypercorn's shutdown event), and the supervisor waits for them."""
    settings = Settings.from_env()
    setup_logging(settings.log_level, settings.log_format)
    sockets = config.create_sockets()
    ctx = get_context("spawn")
    shutdown = ctx.Event()
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True
        shutdown.set()

    # Workers inherit an ignored SIGINT, as under Hypercorn's run: Ctrl-C reaches the supervisor,
    # which stops them through the shutdown event.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    workers: dict[int, tuple[object, float]] = {}  # slot -> (process, started at)
    delays = {slot: RESTART_S[0] for slot in range(config.workers)}
    due: dict[int, float] = {slot: 0.0 for slot in range(config.workers)}

    def spawn(slot: int) -> None:
        process = ctx.Process(target=trio_worker, kwargs={"config": config, "shutdown_event": shutdown,
                                                           "sockets": sockets})
        process.start()
        workers[slot] = (process, time.monotonic())

    for name in ("SIGINT", "SIGTERM"):
        signal.signal(getattr(signal, name), stop)
    while not stopping:
        now = time.monotonic()
        for slot, at in list(due.items()):
            if at <= now:
                del due[slot]
                spawn(slot)
        wait([p.sentinel for p, _ in workers.values()], timeout=0.5)
        for slot, (process, started) in list(workers.items()):
            if process.exitcode is None or stopping:
                continue
            process.join()
            metrics.worker_gone(process.pid)
            del workers[slot]
            lived = time.monotonic() - started
            delays[slot] = RESTART_S[0] if lived > YOUNG_S else min(RESTART_S[1], delays[slot] * 2)
            how = f"signal {-process.exitcode}" if process.exitcode < 0 else f"code {process.exitcode}"
            log.error("worker %s exited (%s) after %.0f s; starting another in %.1f s", process.pid, how, lived,
                      delays[slot])
            due[slot] = time.monotonic() + delays[slot]
    for process, _ in workers.values():
        process.join(config.graceful_timeout + 5)
        if process.exitcode is None:
            process.terminate()
            process.join()
    for sock in (*sockets.secure_sockets, *sockets.insecure_sockets):
        sock.close()
    return 0
