"""What tests share beyond fixtures: the test world's seed, scale and day, databases made and
dropped on the test server, keys, plain SQL, the in-process client and a cursor walk. Imported
as `tests.support` (a package module, so any import mode finds it); the fixtures that use it are
in tests/conftest.py."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import shutil
import subprocess
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from svc.access import keys as svc_keys
from svc.core.clock import Clock
from svc.core.db import connect_asyncio
from svc.core.sqlrun import Tx
from svc.world.feed.publish import publish

TEST_SEED = 7
# tiny by default (seconds); SVC_TEST_SCALE=demo runs the same tests on the demo world (minutes)
TEST_SCALE = os.environ.get("SVC_TEST_SCALE", "tiny")
TODAY = dt.datetime.now(dt.UTC).date()
# The world is generated as of today, and the app's clock starts at today 12:00 UTC, the
# generator's "now": the same matches are live, finished yesterday or scheduled in every run.
NOON = dt.datetime.combine(TODAY, dt.time(12, 0), dt.UTC)
BASE_DB = "svc_test_template"


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def run(coro):
    return asyncio.run(coro)


def admin(server_url: str, *statements: str) -> None:
    """Statements on the server's maintenance database (CREATE / DROP DATABASE), in order."""

    async def go():
        conn = await asyncpg.connect(server_url)
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    run(go())


def new_database(server_url: str, name: str, template: str | None = None) -> str:
    """An empty database (or a copy of `template`) named `name`, replacing one left behind; its URL."""
    admin(
        server_url,
        f"DROP DATABASE IF EXISTS {name} WITH (FORCE)",
        f"CREATE DATABASE {name}" + (f" TEMPLATE {template}" if template else ""),
    )
    return with_database(server_url, name)


def drop_database(server_url: str, name: str) -> None:
    admin(server_url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def make_key(db_url: str, plan: str, account: str | None = None) -> str:
    async def create():
        conn = await connect_asyncio(db_url)
        try:
            return await svc_keys.create_key(conn, plan=plan, account=account)
        finally:
            await conn.close()

    return run(create())


def sql(db_url: str, statement: str, *args):
    async def go():
        conn = await connect_asyncio(db_url)
        try:
            return await conn.fetch(statement, *args)
        finally:
            await conn.close()

    return run(go())


class Client:
    """The app's test client with the key sent the way a user would."""

    def __init__(self, test_client) -> None:
        self._client = test_client

    async def get(self, path: str, key: str | None = None, /, *, header: str = "bearer", headers=None, **params):
        sent = dict(headers or {})
        if key is not None:
            if header == "bearer":
                sent["Authorization"] = f"Bearer {key}"
            else:
                sent["X-API-Key"] = key
        query = {k.rstrip("_"): v for k, v in params.items()} or None  # from_ -> from
        response = await self._client.get(path, headers=sent, query_string=query)
        response.json_body = await response.get_json()
        return response

    async def request(self, method: str, path: str, key: str | None = None):
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        response = await self._client.open(path, method=method, headers=headers)
        response.json_body = await response.get_json()
        return response


@asynccontextmanager
async def app_client(db_url: str, *, cache: bool):
    from svc.assembly import create_app

    app = create_app(db_url, clock=Clock(start=NOON), pool_size=4, cache=cache)
    async with app.test_app() as test_app:
        yield Client(test_app.test_client())


WALK_MAX_PAGES = 20  # a walk stays within any plan's calls a minute, at any scale


async def walk(client, key, path, per_page, **params):
    """Follow next_cursor to the end; return every item and the first page's meta (after
    checking the walk returned as many items as meta.total announced). On a big world the
    page grows so that the walk takes at most WALK_MAX_PAGES pages (still several)."""
    r = await client.get(path, key, per_page=per_page, **params)
    assert r.status_code == 200, r.json_body
    if r.json_body["meta"]["pages"] > WALK_MAX_PAGES:
        per_page = min(200, -(-r.json_body["meta"]["total"] // WALK_MAX_PAGES))
        r = await client.get(path, key, per_page=per_page, **params)
        assert r.status_code == 200, r.json_body
    first_meta = r.json_body["meta"]
    items = list(r.json_body["data"])
    while r.json_body["meta"]["next_cursor"]:
        r = await client.get(path, key, per_page=per_page, cursor=r.json_body["meta"]["next_cursor"], **params)
        assert r.status_code == 200, r.json_body
        items += r.json_body["data"]
    assert len(items) == first_meta["total"]
    return items, first_meta


def debian_program(program: str, package: str | None = None) -> str:
    """The path of `program`, installing its Debian package on first use (the browser and reverse
    proxy tests need a program pip cannot bring; the machine reaches Debian's registry)."""
    found = shutil.which(program)
    if found is None:
        if shutil.which("apt-get") is None:
            pytest.fail(f"{program} is missing and apt-get is not here to install it")
        subprocess.run(["apt-get", "update", "-qq"], check=True, capture_output=True)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "--no-install-recommends", package or program],
            check=True,
            capture_output=True,
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
        found = shutil.which(program)
    assert found, f"{program} did not install"
    return found


def a_score_to_change(db_url: str) -> tuple[str, str, list[int], list[int]]:
    """A match in play whose game in play is far from its end (its id and its event's, as /live
    shows it), and its games after side 1 wins a rally."""
    for row in sql(db_url, "SELECT id, event_id, g1, g2 FROM matches WHERE status = 'live' ORDER BY id"):
        g1, g2 = list(row["g1"] or [0]), list(row["g2"] or [0])
        if max(g1[-1], g2[-1]) <= 18:
            g1[-1] += 1
            return row["id"], row["event_id"], g1, g2
    pytest.fail("no match in play far from a game's end")


async def change_score(db_url: str, match_id: str, g1: list[int], g2: list[int]) -> None:
    conn = await connect_asyncio(db_url)
    try:
        async with conn.transaction():
            await conn.execute("UPDATE matches SET g1 = $2, g2 = $3 WHERE id = $1", match_id, g1, g2)
            await publish(Tx(conn), match_id, "score", await conn.fetchval("SELECT now()"))
    finally:
        await conn.close()


def http_scope(path: str, headers: dict[str, str]) -> dict:
    """The ASGI scope of a GET as Hypercorn makes it (`path` may carry a query string), for a test
    that calls an app's ASGI entry itself to see its answer as sent."""
    path, _, query = path.partition("?")
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"localhost"), *((k.lower().encode(), v.encode()) for k, v in headers.items())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "extensions": {},
    }


def use_calls_today(db_url: str, key: str, used: int) -> None:
    """Sets `key`'s count of today's (and this month's) calls to `used`: what a test of a daily
    limit starts from, so that a minute boundary during it cannot change the count."""
    today = dt.datetime.now(dt.UTC).date()
    sql(
        db_url,
        "UPDATE key_usage SET day = $2, day_calls = $4, month = $3, month_calls = $4 "
        "FROM api_keys k WHERE k.id = key_usage.key_id AND k.key_hash = $1",
        svc_keys.key_hash(key),
        today,
        today.replace(day=1),
        used,
    )
