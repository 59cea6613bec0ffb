"""`python -m svc serve`: database ready, world loaded, demo keys printed (for the embedded database
only), then N Hypercorn trio workers, each importing svc.asgi:app, under a supervisor that
replaces a worker that dies."""

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
from functools import partial
from multiprocessing import get_context
from multiprocessing.connection import wait
from urllib.parse import urlsplit, urlunsplit

from hypercorn.config import Config, Sockets

from svc.access import keys
from svc.access.plans import PLAN_NAMES, prepare_database
from svc.core import metrics
from svc.core.db import connect_asyncio
from svc.core.logs import hypercorn_error_log, setup_logging
from svc.core.settings import Settings

DEMO_SEED = 1899  # the demo world's seed: the year the All England began
URL_LIMIT = 256 * 1024  # h11's buffer for a request head: a long URL reaches the app, which answers it in JSON
RESTART_S = (0.5, 30.0)  # a worker that dies is replaced after 0.5 s, doubling while it keeps dying young
YOUNG_S = 10.0  # ... a worker that lived longer than this is replaced after 0.5 s again
GRACEFUL_S = 5.0  # at a stop: answers in flight finish within this, then their connections are cut
STREAMS_END_S = 2.0  # ... before which the live streams say goodbye (`end`, reason shutdown)
log = logging.getLogger("svc.serve")


async def _prepare(database_url: str, settings: Settings, world: str, *, demo_keys: bool) -> dict[str, str]:
    """The schema, the world asked for, the demo keys when asked for. `demo`: generated into an
    empty database only (a database holding another world keeps it); `bwf`: the real world,
    loaded into an empty database or one holding another world."""
    from svc.core.progress import ProgressBar
    from svc.world.replace import generate_world, load_bwf_world, world_source

    conn = await connect_asyncio(database_url)
    try:
        if world == "demo" and settings.database_url is None:  # the embedded database: ours whole
            from svc.world.prebuilt import restore_into_pristine

            await restore_into_pristine(conn, database_url, scale=settings.scale, seed=DEMO_SEED)
        await prepare_database(conn)
        held = await world_source(conn)
        if world == "bwf" and held != "bwf":
            print(
                f"{'empty database' if held is None else f'the database holds the {held} world'}: "
                "loading the real world from the public BWF files (once)",
                file=sys.stderr,
            )
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
                await generate_world(
                    conn,
                    scale=settings.scale,
                    seed=DEMO_SEED,
                    as_of=dt.datetime.now(dt.UTC).replace(second=0, microsecond=0),
                    progress=bar,
                )
            finally:
                bar.close()
        return await _demo_keys(conn, settings) if demo_keys else {}
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
            keys.key_hash(key),
        )
        if not row or row["state"] != "current" or row["plan"] != plan:
            key = await keys.create_key(conn, plan=plan, account=f"demo-{plan}-{keys.new_key()[-6:].lower()}")
        out[plan] = key
    settings.home.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=1))
    path.chmod(0o600)
    return out


def serve(args, settings: Settings, *, database_url: str) -> int:
    # Working keys go to the terminal only for the embedded database of a local try-out: against
    # an operator's DATABASE_URL they would land in its logs (`--demo-keys` asks for them there).
    demo_keys = settings.database_url is None or getattr(args, "demo_keys", False)
    demo = asyncio.run(_prepare(database_url, settings, getattr(args, "world", "demo"), demo_keys=demo_keys))
    os.environ["DATABASE_URL"] = database_url  # the spawned workers read it (svc/asgi.py)
    os.environ["SVC_LIVE_SPEED"] = str(args.live_speed)
    base = f"http://{args.host}:{args.port}"
    print(f"\nlistening on {base}  ({args.workers} worker{'s' if args.workers != 1 else ''})", flush=True)
    print(f"database: {without_password(database_url)}")
    for plan, key in demo.items():
        print(f"demo key ({plan:7}): {key}")
    if demo:
        print(f"try: curl -H 'Authorization: Bearer {demo['free']}' '{base}/v1/search?q=lee'\n", flush=True)
    else:
        print("keys: python -m svc keys create --plan free|archive|odds|live [--account NAME]\n", flush=True)

    metrics_port = getattr(args, "metrics_port", None)
    if metrics_port is not None:
        if metrics_port == args.port:
            print(
                "error: --metrics-port must differ from --port (metrics are never on the API's port)", file=sys.stderr
            )
            return 2
        # every worker writes its numbers here (inherited by the spawned workers); this process serves them
        os.environ[metrics.MULTIPROCESS_DIR] = tempfile.mkdtemp(prefix="svc-metrics-")
        metrics.serve(metrics_port, args.metrics_host)
        print(f"metrics: http://{args.metrics_host}:{metrics_port}/metrics", flush=True)

    config = Config()
    config.bind = [f"{args.host}:{args.port}"]
    config.worker_class = "trio"
    config.workers = max(1, args.workers)
    config.accesslog = None
    config.errorlog = hypercorn_error_log()  # through our handler: escaped, in the chosen format, once
    config.graceful_timeout = GRACEFUL_S
    config.keep_alive_timeout = settings.keep_alive_s  # svc.web.connection makes it apply after an answer
    config.h11_max_incomplete_size = URL_LIMIT
    try:
        return supervise(config)
    finally:
        if metrics_port is not None:
            shutil.rmtree(os.environ[metrics.MULTIPROCESS_DIR], ignore_errors=True)


def run_worker(config: Config, sockets: Sockets, shutdown_event) -> None:
    """One worker process: Hypercorn's trio worker (as hypercorn.trio.run.trio_worker runs it),
    stopped by a trigger that first lets the live streams say goodbye (`end`, reason `shutdown`,
    so that clients reconnect at once, to another worker or server) and only then stops Hypercorn:
    no new connection, answers in flight finished within GRACEFUL_S."""
    import trio
    from hypercorn.app_wrappers import ASGIWrapper
    from hypercorn.trio.run import worker_serve
    from hypercorn.utils import check_multiprocess_shutdown_event

    from svc import asgi  # the app, made in this process (never in the supervisor's)
    from svc.assembly import before_stop

    for sock in (*sockets.secure_sockets, *sockets.insecure_sockets):
        sock.listen(config.backlog)

    async def shutdown_trigger() -> None:
        await check_multiprocess_shutdown_event(shutdown_event, trio.sleep)
        await before_stop(asgi.app, within_s=STREAMS_END_S)

    trio.run(partial(worker_serve, ASGIWrapper(asgi.app), config, sockets=sockets, shutdown_trigger=shutdown_trigger))


def without_password(url: str) -> str:
    """The URL as it may be shown: a password in it (user:password@, or ?password=) is ***."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password:
        netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
    query = (
        "&".join("password=***" if item.split("=", 1)[0] == "password" else item for item in parts.query.split("&"))
        if parts.query
        else ""
    )
    return urlunsplit(parts._replace(netloc=netloc, query=query))


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
        process = ctx.Process(
            target=run_worker, kwargs={"config": config, "shutdown_event": shutdown, "sockets": sockets}
        )
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
            log.error(
                "worker %s exited (%s) after %.0f s; starting another in %.1f s", process.pid, how, lived, delays[slot]
            )
            due[slot] = time.monotonic() + delays[slot]
    for process, _ in workers.values():
        process.join(config.graceful_timeout + 5)
        if process.exitcode is None:
            process.terminate()
            process.join()
    for sock in (*sockets.secure_sockets, *sockets.insecure_sockets):
        sock.close()
    return 0
