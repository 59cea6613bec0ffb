"""ops/bench: requests per second and p50/p95 latency of every endpoint, next to a bare
ASGI app on the same Hypercorn settings, measured in the same run; and the database
bridge against a bare asyncpg loop. Ratios, not absolute figures, are what compare
across runs on a shared, noisy machine.

    .venv/bin/python -m ops.bench [--seconds 3] [--clients 1,8] [--workers 1] [--only search]

Uses DATABASE_URL or the embedded PostgreSQL under $SVC_HOME (loading the demo world when
empty). While it runs, the Live plan's limits are lifted in the `plans` table (restored at
the end) so that the limiter counts every call but never refuses one."""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import subprocess
import sys
import time
from pathlib import Path

import trio

from ops.bench import bridge
from ops.bench.loadgen import load, request_bytes
from svc.access import keys as svc_keys
from svc.access.plans import prepare_database
from svc.assembly import REGISTRY
from svc.core.db import connect_asyncio
from svc.core.settings import Settings
from svc.testing.serving import free_port

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "ops" / "bench" / "out"


async def prepare(url: str, clients: int) -> tuple[list[str], dict[str, str]]:
    """Bench keys (one per connection, so no two connections contend for one counter row)
    and sample parameters taken from the world."""
    keys, samples = await prepare_varied(url, clients, 1)
    return keys, samples[0]


async def prepare_varied(url: str, clients: int, kinds: int) -> tuple[list[str], list[dict[str, str]]]:
    """Bench keys and `kinds` sets of sample parameters: the first from the busiest player, the
    biggest edition ..., the next ones from the next busiest (varied parameters, busy included)."""
    from svc.world.replace import generate_world, world_is_empty

    conn = await connect_asyncio(url)
    try:
        await prepare_database(conn)
        if await world_is_empty(conn):
            print("loading the demo world first", file=sys.stderr)
            await generate_world(conn, scale="demo", seed=1899, as_of=dt.datetime.now(dt.UTC).date())
        keys = [await svc_keys.create_key(conn, plan="live", account="bench") for _ in range(clients)]
        return keys, [await sample(conn, i) for i in range(kinds)]
    finally:
        await conn.close()


async def sample(conn, i: int) -> dict[str, str]:
    """The i-th set of sample parameters (0: the busiest player, the biggest edition, the latest final ...)."""
    one = "LIMIT 1 OFFSET $1"
    s = {}
    s["event"] = await conn.fetchval(
        "SELECT m.event_id FROM matches m JOIN odds o ON o.match_id = m.id WHERE m.status = 'finished' "
        f"AND o.market = 'winner' ORDER BY m.day DESC, m.event_id {one}",
        i,
    )
    s["day"] = (
        await conn.fetchval(
            f"SELECT day FROM (SELECT DISTINCT day FROM matches WHERE status = 'finished' AND day IS NOT NULL) d "
            f"ORDER BY day DESC {one}",
            i,
        )
    ).isoformat()
    s["player"] = await conn.fetchval(
        f"SELECT p.name FROM players p JOIN player_totals t ON t.player_id = p.id ORDER BY t.matches DESC, p.id {one}",
        i,
    )
    s["year"] = str(dt.datetime.now(dt.UTC).year)
    # a busy player, the opponent they met most often, their latest year, a long-reigning number one
    s["player_id"] = await conn.fetchval(
        f"SELECT player_id FROM player_totals ORDER BY matches DESC, player_id {one}", i
    )
    s["rival_id"] = await conn.fetchval(
        "SELECT o.opponent FROM player_match pm CROSS JOIN LATERAL unnest(pm.opponents) AS o(opponent) "
        "WHERE pm.player_id = $1 GROUP BY o.opponent ORDER BY count(*) DESC, o.opponent LIMIT 1",
        s["player_id"],
    )
    s["player_year"] = str(
        await conn.fetchval("SELECT max(year) FROM player_match WHERE player_id = $1", s["player_id"])
    )
    s["number_one"] = await conn.fetchval(
        f"SELECT player1 FROM number_one_reigns ORDER BY weeks DESC, first_day {one}", i
    )
    # places, editions and matches
    s["country"] = await conn.fetchval(f"SELECT code FROM country_stats ORDER BY titles DESC, code {one}", i)
    s["rallies_event"] = await conn.fetchval(
        "SELECT m.event_id FROM matches m WHERE m.status = 'finished' AND EXISTS "
        f"(SELECT 1 FROM rallies r WHERE r.match_id = m.id) ORDER BY m.day DESC, m.id {one}",
        i,
    )
    s["venue"] = await conn.fetchval(f"SELECT id FROM venue_stats ORDER BY editions DESC, id {one}", i)
    s["priced_match"] = await conn.fetchval(
        f"SELECT match_id FROM odds WHERE market = 'handicap_points' ORDER BY match_id DESC {one}", i
    )
    s["medal_edition"] = await conn.fetchval(
        "SELECT id FROM tournaments WHERE medals AND NOT para AND end_date < current_date "
        f"ORDER BY year DESC, id {one}",
        i,
    )
    s["big_edition"] = await conn.fetchval(
        f"SELECT tournament_id FROM matches GROUP BY tournament_id ORDER BY count(*) DESC, tournament_id {one}", i
    )
    s["team_edition"] = await conn.fetchval(
        f"SELECT id FROM tournaments WHERE team AND end_date < current_date ORDER BY year DESC, id {one}", i
    )
    s["final"] = await conn.fetchval(
        f"SELECT id FROM matches WHERE round_code = 'F' AND status = 'finished' ORDER BY day DESC, id {one}", i
    )
    return s


async def lift_limits(url: str) -> None:
    """After the servers started (their start-up migration writes the plans' limits)."""
    conn = await connect_asyncio(url)
    try:
        await conn.execute("UPDATE plans SET per_minute = 1000000000, per_day = 1000000000 WHERE name = 'live'")
    finally:
        await conn.close()


async def restore(url: str) -> None:
    conn = await connect_asyncio(url)
    try:
        await prepare_database(conn)  # writes the plans' limits from the code again
        await conn.execute("DELETE FROM accounts WHERE name = 'bench'")
    finally:
        await conn.close()


def sample_paths(s: dict[str, str]) -> dict[str, str]:
    """One representative request per registered endpoint."""
    from urllib.parse import quote

    return {
        "/v1/usage": "/v1/usage",
        "/v1/search": f"/v1/search?q={quote(s['player'].split()[0])}",
        "/v1/countries": "/v1/countries",
        "/v1/results/yesterday": "/v1/results/yesterday",
        "/v1/results": f"/v1/results?date={s['day']}",
        "/v1/fixtures": "/v1/fixtures",
        "/v1/events/{id}": f"/v1/events/{s['event']}",
        "/v1/calendar": f"/v1/calendar?year={s['year']}",
        "/v1/series": "/v1/series",
        # Archive: places, editions, matches
        "/v1/countries/{code}": f"/v1/countries/{s['country']}",
        "/v1/events/{id}/points": f"/v1/events/{s['rallies_event']}/points",
        "/v1/odds/{id}": f"/v1/odds/{s['priced_match']}",
        "/v1/analysis/market": "/v1/analysis/market",
        "/v1/backtest": "/v1/backtest?strategy=steam",
        "/v1/analysis/upsets": "/v1/analysis/upsets?by=rating&discipline=WS&from=2015",
        "/v1/predict": f"/v1/predict?player1={s['player_id']}&player2={s['rival_id']}&games=21-17,19-21",
        "/v1/ratings": "/v1/ratings?discipline=MS&active=false&date=2001-05-01",
        "/v1/venues": "/v1/venues",
        "/v1/venues/{id}": f"/v1/venues/{s['venue']}",
        "/v1/locations": "/v1/locations",
        "/v1/series/{slug}/champions": "/v1/series/all-england/champions",
        "/v1/tournaments": "/v1/tournaments",
        "/v1/tournaments/{id}": f"/v1/tournaments/{s['medal_edition']}",
        "/v1/tournaments/{id}/draw": f"/v1/tournaments/{s['big_edition']}/draw?discipline=MS",
        "/v1/tournaments/{id}/ties": f"/v1/tournaments/{s['team_edition']}/ties",
        "/v1/matches": "/v1/matches",
        "/v1/matches/{id}": f"/v1/matches/{s['final']}",
        # Archive: players, rankings, analyses
        "/v1/players": "/v1/players?gender=W",
        "/v1/players/{id}": f"/v1/players/{s['number_one']}",
        "/v1/players/{id}/rankings": f"/v1/players/{s['number_one']}/rankings",
        "/v1/rankings": "/v1/rankings?discipline=MS",
        "/v1/rankings/number-ones": "/v1/rankings/number-ones?discipline=WS",
        "/v1/analysis/seeds": "/v1/analysis/seeds?discipline=MS",
        "/v1/analysis/deciders": "/v1/analysis/deciders?by=year",
        "/v1/analysis/records": "/v1/analysis/records?type=longest_win_streak",
        "/v1/players/{id}/matches": f"/v1/players/{s['player_id']}/matches?year={s['player_year']}",
        "/v1/players/{id}/partners": f"/v1/players/{s['player_id']}/partners",
        "/v1/players/{id}/opponents": f"/v1/players/{s['player_id']}/opponents",
        "/v1/players/{id}/titles": f"/v1/players/{s['player_id']}/titles",
        "/v1/players/{id}/form": f"/v1/players/{s['player_id']}/form",
        "/v1/players/{id}/stats": f"/v1/players/{s['player_id']}/stats?from=2010&to=2026",
        "/v1/players/{id}/schedule": f"/v1/players/{s['player_id']}/schedule",
        "/v1/h2h": f"/v1/h2h?player1={s['player_id']}&player2={s['rival_id']}",
    }


def start(argv: list[str], env: dict[str, str], cwd: Path = ROOT) -> subprocess.Popen:
    return subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def publish(lines: list[str], name: str, stamp: dt.datetime) -> None:
    """Prints a bench's Markdown report and keeps it as ops/bench/out/<name>-<UTC time>.md."""
    report = "\n".join(lines) + "\n"
    print(report)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{name}-{stamp:%Y%m%dT%H%M%S}.md").write_text(report)


def start_bare(
    port: int, workers: int, body: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.Popen:
    """The bare Hypercorn-trio worker(s) (ops/bench/bare_asgi.py) serving `body`'s bytes, or 21 bytes."""
    return start(
        [
            sys.executable,
            "-m",
            "hypercorn",
            "--worker-class",
            "trio",
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "bare_asgi:app",
        ],
        {**os.environ, **(env or {}), **({"BARE_BODY": str(body)} if body else {})},
        cwd=ROOT / "ops" / "bench",
    )


def wait_up(port: int, path: str) -> None:
    import urllib.request

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2)
            return
        except Exception:
            time.sleep(0.3)
    raise SystemExit(f"server on port {port} did not come up")


def measure(port: int, reqs: list[list[bytes]], seconds: float):
    return trio.run(load, "127.0.0.1", port, reqs, seconds)


def main() -> int:
    ap = argparse.ArgumentParser(prog="python -m ops.bench")
    ap.add_argument("--seconds", type=float, default=3.0, help="per endpoint and client count")
    ap.add_argument("--clients", default="1,8", help="concurrent connections, comma separated")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--only", default="", help="only endpoints whose path contains this")
    ap.add_argument("--no-bridge", action="store_true")
    ap.add_argument("--no-cache", action="store_true", help="serve without the answer cache (every answer from SQL)")
    args = ap.parse_args()
    clients = [int(c) for c in args.clients.split(",")]

    settings = Settings.from_env()
    from svc.core import pgserver

    url = settings.database_url or pgserver.start(settings.home)
    keys, s = asyncio.run(prepare(url, max(clients)))
    paths = sample_paths(s)
    missing = [ep.path for ep in REGISTRY if ep.path not in paths]
    if missing:
        print(f"no sample request for: {', '.join(missing)}", file=sys.stderr)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SVC_LOG_LEVEL": "WARNING",
        "SVC_HOME": str(settings.home),
        "SVC_CACHE": "0" if args.no_cache else "1",
    }
    svc_port, bare_port = free_port(), free_port()
    procs = [
        start([sys.executable, "-m", "svc", "serve", "--port", str(svc_port), "--workers", str(args.workers)], env),
        start_bare(bare_port, args.workers, env=env),
    ]
    lines = [
        f"# ops/bench {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC",
        f"{os.cpu_count()} cores, {args.workers} Hypercorn trio worker(s) each side, {args.seconds:g} s per row, "
        f"answer cache {'off' if args.no_cache else 'on'}",
        "",
    ]
    try:
        wait_up(svc_port, "/v1/openapi.json")
        wait_up(bare_port, "/")
        asyncio.run(lift_limits(url))
        for c in clients:
            lines += [
                f"## {c} client{'s' if c > 1 else ''}",
                "",
                "| endpoint | req/s | × bare | p50 ms | p95 ms | bare p50 ms | statuses |",
                "|---|---|---|---|---|---|---|",
            ]
            bare = measure(bare_port, [[request_bytes("/", {})]] * c, args.seconds)
            lines.append(
                f"| bare ASGI (baseline) | {bare.rps:.0f} | 1.00 | {bare.pct(0.5):.2f} | {bare.pct(0.95):.2f} "
                f"| {bare.pct(0.5):.2f} | {bare.statuses} |"
            )
            for ep, path in paths.items():
                if args.only and args.only not in ep:
                    continue
                reqs = [[request_bytes(path, {"Authorization": f"Bearer {keys[i]}"})] for i in range(c)]
                r = measure(svc_port, reqs, args.seconds)
                lines.append(
                    f"| {ep} | {r.rps:.0f} | {r.rps / bare.rps:.2f} | {r.pct(0.5):.2f} | {r.pct(0.95):.2f} "
                    f"| {bare.pct(0.5):.2f} | {r.statuses} |"
                )
                print(lines[-1], file=sys.stderr)
            lines.append("")
        if not args.no_bridge:
            lines += [
                "## database bridge: svc.core.db (asyncpg on its own loop, awaited from Trio) against bare asyncpg",
                "",
            ]
            lines += bridge.run(url, min(args.seconds, 3.0))
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=15)
        asyncio.run(restore(url))
    publish(lines, "bench", dt.datetime.now(dt.UTC))
    return 0


if __name__ == "__main__":
    sys.exit(main())
