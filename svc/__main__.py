"""python -m svc, or `svc` installed: serve, migrate, world, import, keys, accounts, mcp, db."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
from pathlib import Path

from svc import API_VERSION
from svc.access import keys
from svc.access.plans import PLAN_NAMES, prepare_database
from svc.core import pgserver
from svc.core.db import connect_asyncio
from svc.core.settings import Settings
from svc.serve import DEMO_SEED  # noqa: E402  (one seed for serve and world)
from svc_hooks.cli import add_subcommands as add_hooks_subcommands  # noqa: E402

INCREMENT_ROWS_REFUSED = 3  # `import --increment`'s exit status when it applied all but some refused rows


def _database_url(settings: Settings) -> str:
    return settings.database_url or pgserver.start(settings.home)


async def _connect(settings: Settings):
    conn = await connect_asyncio(_database_url(settings))
    await prepare_database(conn)
    return conn


def _moment(text: str) -> dt.date | dt.datetime:
    """--as-of: a day (the world as of its noon UTC, reproducible) or a moment (UTC unless an
    offset is given)."""
    try:
        if "T" not in text and " " not in text:
            return dt.date.fromisoformat(text)
        at = dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date YYYY-MM-DD or a moment YYYY-MM-DDTHH:MM: {text!r}") from None
    return at.replace(tzinfo=dt.UTC) if at.tzinfo is None else at.astimezone(dt.UTC)


def _positive(text: str) -> int:
    """--processes: a whole number from 1."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1: {text!r}")
    return n


# -- commands ---------------------------------------------------------------------
def cmd_mcp(args, settings: Settings) -> int:
    import os

    import trio

    from svc.assembly import serve_tools_stdio

    key = os.environ.get("SVC_API_KEY") or None
    if key is None:
        print("warning: SVC_API_KEY is not set; every tool call will answer `unauthorized`", file=sys.stderr)
    trio.run(serve_tools_stdio, _database_url(settings), settings, key)
    return 0


def cmd_denied_names(args, settings: Settings) -> int:
    from svc.world.naming import DENIED_FILE, write_denied

    print(f"{write_denied()} name keys written to {DENIED_FILE}", file=sys.stderr)
    return 0


async def cmd_world(args, settings: Settings) -> int:
    from svc.core.progress import ProgressBar
    from svc.world.replace import generate_world

    if args.source == "bwf":
        return await _real_world(args, settings)
    conn = await _connect(settings)
    bar = ProgressBar()
    try:
        # default: now, to the minute (the live feed then starts from the moment the world shows)
        as_of = args.as_of or dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
        manifest = await generate_world(
            conn, scale=args.scale, seed=args.seed, as_of=as_of, progress=bar, processes=args.processes
        )
    finally:
        bar.close()
        await conn.close()
    rows = sum(t["rows"] for t in manifest["tables"].values()) if isinstance(manifest.get("tables"), dict) else "?"
    print(f"world loaded: scale {args.scale}, seed {args.seed}, as of {as_of}, {rows} rows", file=sys.stderr)
    return 0


async def _increment(args, settings: Settings) -> int:
    from svc.world.sources.increment import apply_increment

    conn = await _connect(settings)
    try:
        report = await apply_increment(conn, Path(args.path), dt.datetime.now(dt.UTC))
    finally:
        await conn.close()
    print(f"increment {args.path} applied:", file=sys.stderr)
    for line in report.lines():
        print("  " + line, file=sys.stderr)
    if report.source.rows_refused:
        # the rest was applied; a feed's job must still see that something came back refused
        print(f"{report.source.rows_refused} rows refused (listed above); the rest applied", file=sys.stderr)
        return INCREMENT_ROWS_REFUSED
    return 0


async def _real_world(args, settings: Settings) -> int:
    from svc.core.progress import ProgressBar
    from svc.world.replace import load_bwf_world

    conn = await _connect(settings)
    bar = ProgressBar()
    try:
        _manifest, report = await load_bwf_world(
            conn, source=Path(args.source_dir) if args.source_dir else None, progress=bar
        )
    finally:
        bar.close()
        await conn.close()
    print("real world loaded (public BWF data); import report:", file=sys.stderr)
    for line in report.lines():
        print("  " + line, file=sys.stderr)
    return 0


async def cmd_import(args, settings: Settings) -> int:
    from svc.core.progress import ProgressBar
    from svc.world.replace import import_bundle

    if args.increment:
        return await _increment(args, settings)
    conn = await _connect(settings)
    bar = ProgressBar()
    try:
        await import_bundle(conn, Path(args.path), progress=bar)
    finally:
        bar.close()
        await conn.close()
    print(f"imported {args.path}", file=sys.stderr)
    return 0


async def cmd_keys_create(args, settings: Settings) -> int:
    conn = await _connect(settings)
    try:
        print(await keys.create_key(conn, plan=args.plan, account=args.account))
    finally:
        await conn.close()
    return 0


async def cmd_keys_replace(args, settings: Settings) -> int:
    conn = await _connect(settings)
    try:
        print(await keys.replace_key(conn, args.key))
    finally:
        await conn.close()
    return 0


async def cmd_accounts_plan(args, settings: Settings) -> int:
    conn = await _connect(settings)
    try:
        await keys.set_plan(conn, args.name, args.plan)
    finally:
        await conn.close()
    print(f"account {args.name} is now on plan {args.plan}", file=sys.stderr)
    return 0


async def cmd_migrate(args, settings: Settings) -> int:
    conn = await connect_asyncio(_database_url(settings))
    try:
        applied = await prepare_database(conn)
    finally:
        await conn.close()
    if applied:
        print(f"{len(applied)} migrations applied: {', '.join(applied)}", file=sys.stderr)
    else:
        print("the schema was up to date: no migration applied", file=sys.stderr)
    return 0


def cmd_db_url(args, settings: Settings) -> int:
    print(_database_url(settings))
    return 0


def cmd_db_stop(args, settings: Settings) -> int:
    if settings.database_url:
        print("DATABASE_URL names an outside server; nothing to stop", file=sys.stderr)
        return 0
    stopped = pgserver.stop(settings.home)
    print("embedded PostgreSQL stopped" if stopped else "embedded PostgreSQL was not running", file=sys.stderr)
    return 0


def cmd_serve(args, settings: Settings) -> int:
    from svc.serve import serve

    return serve(args, settings, database_url=_database_url(settings))


# -- parser -----------------------------------------------------------------------
def _program_name() -> str:
    """`svc` as installed (the console script, or the zipapp by its file name), `python -m svc` run
    as a module: the usage lines name the command that was typed."""
    called = Path(sys.argv[0]).name
    return "python -m svc" if called in ("__main__.py", "-m", "") else called


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog=_program_name(), description="Badminton data service")
    ap.add_argument("--version", action="version", version=f"%(prog)s {API_VERSION}")
    sub = ap.add_subparsers(dest="command", required=True)

    s = sub.add_parser("serve", help="run the API (embedded PostgreSQL unless DATABASE_URL is set)")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--workers", type=int, default=1)
    s.add_argument("--live-speed", type=float, default=1.0, help="play the live world faster (demos, tests)")
    s.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        help="serve Prometheus metrics of every worker at http://<metrics-host>:PORT/metrics",
    )
    s.add_argument("--metrics-host", default="127.0.0.1", help="the metrics listener's address (default 127.0.0.1)")
    s.add_argument(
        "--world",
        choices=("demo", "bwf"),
        default="demo",
        help="the world to load when the database is empty or holds another: the generated demo "
        "world, or bwf, the real one from the public BWF files",
    )
    s.add_argument(
        "--demo-keys",
        action="store_true",
        help="make and print one key per plan also when DATABASE_URL names the database (always "
        "done for the embedded one; against an operator's database they would land in its logs)",
    )
    s.set_defaults(func=cmd_serve)

    mg = sub.add_parser(
        "migrate",
        help="apply the schema's migrations (and the plans' limits) to the database "
        "(DATABASE_URL, else the embedded server) and exit; `serve` does the same at start",
    )
    mg.set_defaults(func=cmd_migrate, is_async=True)

    w = sub.add_parser("world", help="generate and load a world, replacing the data (not keys or accounts)")
    w.add_argument("--scale", choices=("tiny", "demo", "full"), default="demo")
    w.add_argument(
        "--source",
        choices=("generated", "bwf"),
        default="generated",
        help="bwf: the real world from the public BWF files shipped with the service (2018-2020 "
        "World Tour matches, 2022-2025 rankings) instead of a generated one",
    )
    w.add_argument(
        "--from",
        dest="source_dir",
        default=None,
        help="with --source bwf: a folder holding bwf-world-tour/ and bwf-world-ranking/ (default: the shipped copy)",
    )
    w.add_argument("--seed", type=int, default=DEMO_SEED)
    w.add_argument(
        "--as-of",
        type=_moment,
        default=None,
        help="YYYY-MM-DD (as of noon UTC that day) or YYYY-MM-DDTHH:MM (UTC); default now",
    )
    w.add_argument(
        "--processes",
        type=_positive,
        default=None,
        help="processes that play the editions (default: every core, one for the tiny scale); "
        "the world is the same whatever the number",
    )
    w.set_defaults(func=cmd_world, is_async=True)

    i = sub.add_parser(
        "import",
        help="load a data bundle (docs/bundle.md), replacing the data; or, with "
        "--increment, add new results in the public BWF files' format",
    )
    i.add_argument("path")
    i.add_argument(
        "--increment",
        action="store_true",
        help="PATH holds ms.csv ... xd.csv in the format of bwf-world-tour/ and/or ranking weeks "
        "(YYYY-MM-DD/MS.csv ...): add what is new, correct what changed, in one transaction",
    )
    i.set_defaults(func=cmd_import, is_async=True)

    k = sub.add_parser("keys", help="make and replace keys").add_subparsers(dest="keys_command", required=True)
    kc = k.add_parser("create", help="print a new key (only the key, on stdout)")
    kc.add_argument("--plan", choices=PLAN_NAMES, required=True)
    kc.add_argument("--account", default=None, help="account name; made when new (default: a new account)")
    kc.set_defaults(func=cmd_keys_create, is_async=True)
    kr = k.add_parser("replace", help="print a replacement key; the old one stops at once")
    kr.add_argument("key")
    kr.set_defaults(func=cmd_keys_replace, is_async=True)

    a = sub.add_parser("accounts", help="account operations").add_subparsers(dest="accounts_command", required=True)
    ap_ = a.add_parser("plan", help="change an account's plan; its keys see it at once")
    ap_.add_argument("name")
    ap_.add_argument("plan", choices=PLAN_NAMES)
    ap_.set_defaults(func=cmd_accounts_plan, is_async=True)

    m = sub.add_parser(
        "mcp",
        help="serve every endpoint as a tool for AI assistants (MCP) over stdin and stdout; "
        "the key from SVC_API_KEY (over HTTP the tools are at /mcp of `serve`)",
    )
    m.set_defaults(func=cmd_mcp)
    n = sub.add_parser(
        "denied-names",
        help="rebuild the list of real players' names that invented people never "
        "bear, from the shipped BWF data (svc/world/denied_names.txt)",
    )
    n.set_defaults(func=cmd_denied_names)
    d = sub.add_parser("db", help="the database").add_subparsers(dest="db_command", required=True)
    d.add_parser("url", help="print the connection URL in use").set_defaults(func=cmd_db_url)
    d.add_parser("stop", help="stop the embedded PostgreSQL").set_defaults(func=cmd_db_stop)
    add_hooks_subcommands(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    settings = Settings.from_env()
    try:
        if getattr(args, "is_async", False):
            return asyncio.run(args.func(args, settings))
        return args.func(args, settings)
    except keys.AccountError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
