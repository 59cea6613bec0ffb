"""ops/outage: the database killed hard under load, measured from outside.

    .venv/bin/python -m ops.outage [--down 10] [--clients 4] [--workers 2]

A throwaway PostgreSQL with the tiny world, `svc serve --workers N` on it (live feed, hub and
webhook scheduler running, local webhook targets allowed), a signed-webhook receiver on
127.0.0.1 and a stream reader that reconnects with Last-Event-ID. Under request load the
database's postmaster is stopped in `immediate` mode (what kill -9 leaves: no checkpoint, every
backend gone), left down for --down seconds and started again; then a match event is written to
the outbox and a score change to the change log. Printed: answers by status while it was down,
the longest answer, and the seconds from the restart to the first 200, the first stream message
and the first webhook delivery.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
import trio

from svc.access import keys as svc_keys
from svc.access.plans import prepare_database
from svc.core import pgserver
from svc.core.db import connect_asyncio
from svc.testing.hooks import Receiver
from svc.testing.serving import free_port


async def prepare(url: str) -> tuple[str, str]:
    """The tiny world and a Live key; returns (key, account)."""
    from svc.world.replace import generate_world

    conn = await connect_asyncio(url)
    try:
        await prepare_database(conn)
        await generate_world(conn, scale="tiny", seed=1899, as_of=dt.datetime.now(dt.UTC).date())
        account = "outage-" + secrets.token_hex(3)
        key = await svc_keys.create_key(conn, plan="live", account=account)
        return key, account
    finally:
        await conn.close()


async def lift_limits(url: str) -> None:
    conn = await connect_asyncio(url)
    try:
        await conn.execute("UPDATE plans SET per_minute = 1000000000, per_day = 1000000000 WHERE name = 'live'")
    finally:
        await conn.close()


async def publish_change(url: str) -> None:
    """A score change of a match, through the change log as the live feed writes it (the hub streams it)."""
    from svc.core.sqlrun import Tx
    from svc.world.feed.publish import publish

    conn = await connect_asyncio(url)
    try:
        match_id = await conn.fetchval("SELECT id FROM matches ORDER BY status = 'live' DESC, id LIMIT 1")
        async with conn.transaction():
            await publish(Tx(conn), match_id, "score", dt.datetime.now(dt.UTC))
    finally:
        await conn.close()


async def insert_event(url: str) -> str:
    """A match.finished event in the outbox, as the live feed writes it (payload: the match as events show it)."""
    from svc.web.convert import converter
    from svc.web.records import event_from_row

    conn = await connect_asyncio(url)
    try:
        row = await conn.fetchrow("SELECT * FROM event_rows WHERE status = 'finished' ORDER BY match_id LIMIT 1")
        event_id = "evt_" + secrets.token_hex(8)
        await conn.execute(
            "INSERT INTO match_events (id, type, match_id, created_at, payload) "
            "VALUES ($1, 'match.finished', $2, now(), $3)",
            event_id,
            row["match_id"],
            converter.unstructure(event_from_row(row, with_odds=True)),
        )
        return event_id
    finally:
        await conn.close()


async def measure(args) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="svc-outage-"))
    url, server = pgserver.start_throwaway(tmp)
    key, account = await trio.to_thread.run_sync(lambda: asyncio.run(prepare(url)))
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SVC_HOME": str(tmp),
        "SVC_HOOKS_ALLOW_LOCAL": "1",
        "SVC_LOG_LEVEL": "WARNING",
    }
    log = open(tmp / "server.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "svc", "serve", "--port", str(port), "--workers", str(args.workers)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    receiver = Receiver(secret="", now=time.time)  # the secret is set once the endpoint is added
    answers: list[tuple[float, int | str, float]] = []  # (at, status or error, seconds)
    stream_messages: list[tuple[float, str]] = []  # (at, event name)
    marks: dict[str, float] = {}
    try:
        async with httpx.AsyncClient(timeout=30) as client, trio.open_nursery() as nursery:
            with trio.fail_after(120):
                while True:
                    try:
                        if (await client.get(f"{base}/healthz")).status_code == 200:
                            break
                    except httpx.TransportError:
                        pass
                    await trio.sleep(0.3)
            await nursery.start(receiver.serve)
            added = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "svc",
                    "hooks",
                    "add",
                    "--account",
                    account,
                    "--url",
                    f"http://127.0.0.1:{receiver.port}/hook",
                    "--events",
                    "match.finished",
                ],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            receiver.secret = added.stdout.split()[1]  # the CLI prints the endpoint's id, then its secret
            # the load would pass the Live plan's 300 a minute: lift them (after the server and the CLI,
            # which write them at start)
            await trio.to_thread.run_sync(lambda: asyncio.run(lift_limits(url)))
            headers = {"X-API-Key": key}

            async def load() -> None:
                while True:
                    began = time.monotonic()
                    try:
                        r = await client.get(f"{base}/v1/countries", headers=headers)
                        json.loads(r.content)  # every answer is JSON
                        answers.append((began, r.status_code, time.monotonic() - began))
                    except (httpx.TransportError, ValueError) as exc:
                        answers.append((began, type(exc).__name__, time.monotonic() - began))
                    await trio.sleep(0.02)

            async def stream() -> None:
                last = None
                while True:
                    try:
                        h = dict(headers, **({"Last-Event-ID": last} if last else {}))
                        async with client.stream("GET", f"{base}/v1/live/stream", headers=h) as r:
                            async for line in r.aiter_lines():
                                if line.startswith("id:"):
                                    last = line[3:].strip()
                                if line.startswith("event:"):
                                    stream_messages.append((time.monotonic(), line[6:].strip()))
                    except httpx.TransportError:
                        pass
                    await trio.sleep(0.5)

            for _ in range(args.clients):
                nursery.start_soon(load)
            nursery.start_soon(stream)
            await trio.sleep(5)
            await trio.to_thread.run_sync(pgserver.stop_immediately, server)
            marks["down"] = time.monotonic()
            await trio.sleep(args.down)
            await trio.to_thread.run_sync(server.ensure_postgres_running)
            marks["up"], marks["up_wall"] = time.monotonic(), time.time()
            await trio.to_thread.run_sync(lambda: asyncio.run(insert_event(url)))
            await trio.to_thread.run_sync(lambda: asyncio.run(publish_change(url)))
            with trio.move_on_after(120):
                while not receiver.received or not any(
                    t >= marks["up"] and name == "match" for t, name in stream_messages
                ):
                    await trio.sleep(0.2)
            await trio.sleep(1)
            nursery.cancel_scope.cancel()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        server.cleanup()
    down, up = marks["down"], marks["up"]
    during = [a for a in answers if down <= a[0] < up]
    after = [a for a in answers if a[0] >= up]
    first_200 = next((a[0] + a[2] for a in after if a[1] == 200), None)
    first_message = next((t for t, _ in stream_messages if t >= up), None)
    first_delivery = min((r.at for r in receiver.received), default=None)
    return {
        "answers while down": dict(Counter(str(a[1]) for a in during)),
        "longest answer while down (s)": round(max((a[2] for a in during), default=0.0), 3),
        "longest answer overall (s)": round(max((a[2] for a in answers), default=0.0), 3),
        "answers by status overall": dict(Counter(str(a[1]) for a in answers)),
        "restart -> first 200 (s)": None if first_200 is None else round(first_200 - up, 2),
        "restart -> first stream message (s)": None if first_message is None else round(first_message - up, 2),
        "restart -> first match on the stream (s)": next(
            (round(t - up, 2) for t, name in stream_messages if t >= up and name == "match"), None
        ),
        "restart -> first webhook delivery (s)": None
        if first_delivery is None
        else round(first_delivery - marks["up_wall"], 2),
        "webhooks received": [r.verdict for r in receiver.received],
        "stream events while down": dict(Counter(name for t, name in stream_messages if down <= t < up)),
        "stream events after": dict(Counter(name for t, name in stream_messages if t >= up)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m ops.outage", description=__doc__.split("\n\n")[0])
    ap.add_argument("--down", type=float, default=10.0, help="seconds the database stays down")
    ap.add_argument("--clients", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2)
    result = trio.run(measure, ap.parse_args())
    for name, value in result.items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
