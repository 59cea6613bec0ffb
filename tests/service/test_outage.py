"""PostgreSQL stopped hard and started again: the service answers 503 `unavailable` with
Retry-After meanwhile (never a 500), keeps what was committed, and reconnects by itself."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from svc.access.plans import prepare_database
from svc.assembly import create_app
from svc.core import pgserver
from svc.core.clock import Clock
from svc.core.db import connect_asyncio
from tests.support import NOON, Client, make_key, run


@pytest.fixture
def own_server():
    """A PostgreSQL of this test's own, so stopping it disturbs no other test."""
    if os.environ.get("DATABASE_URL"):
        pytest.skip("needs the embedded PostgreSQL to stop and start it")
    # a fresh /tmp folder: the server runs as its own user and must reach it (pytest's tmp_path is private)
    url, server = pgserver.start_throwaway(Path(tempfile.mkdtemp(prefix="svc-outage-")))

    async def prepare():
        conn = await connect_asyncio(url)
        try:
            await prepare_database(conn)
        finally:
            await conn.close()

    run(prepare())
    yield url, server
    server.cleanup()


async def test_outage_answers_503_then_recovers_without_restart(own_server):
    url, server = own_server
    key = make_key(url, "free")
    app = create_app(url, clock=Clock(start=NOON), pool_size=2)
    async with app.test_app() as test_app:
        client = Client(test_app.test_client())
        assert (await client.get("/v1/usage", key)).status_code == 200
        assert (await client.get("/v1/fixtures", key)).status_code == 200  # one call counted and committed

        pgserver.stop_immediately(server)
        down = await client.get("/v1/fixtures", key)
        assert down.status_code == 503
        assert down.json_body["error"]["code"] == "unavailable"
        assert int(down.headers["Retry-After"]) >= 1

        server.ensure_postgres_running()
        up = await client.get("/v1/usage", key)
        assert up.status_code == 200
        assert up.json_body["data"]["calls_today"] == 1  # the committed call survived the crash


async def test_the_hub_and_the_scheduler_come_back_with_the_database(own_server):
    """With the live hub and the webhook scheduler running: while the database is down every answer
    is a 503 within a second and /healthz says not ready; once it is back, /healthz is ready again
    and a new stream opens, without restarting anything."""
    import trio

    from svc.assembly import hooks_component, hub_component
    from svc.testing.live import Reader, running_app

    url, server = own_server
    key = make_key(url, "live")
    async with running_app(url, Clock(start=NOON), [hub_component, hooks_component]) as (_app, client):
        assert (await client.get("/healthz")).status_code == 200
        pgserver.stop_immediately(server)
        for _ in range(5):
            with trio.fail_after(1):
                down = await client.get("/v1/live", headers={"X-API-Key": key})
            assert down.status_code == 503 and down.json()["error"]["code"] == "unavailable"
            with trio.fail_after(2):
                assert (await client.get("/healthz")).status_code == 503
            await trio.sleep(0.5)
        server.ensure_postgres_running()
        with trio.fail_after(60):
            while True:
                ready = await client.get("/healthz")
                if ready.status_code == 200:
                    break
                await trio.sleep(0.5)
        assert set(ready.json()["components"].values()) == {"running"}
        reader = Reader()
        async with trio.open_nursery() as n:
            n.start_soon(reader.run, client, key)
            with trio.fail_after(30):
                await reader.opened.wait()
            assert reader.status == 200
            n.cancel_scope.cancel()


async def test_a_call_counted_as_the_database_went_away_is_taken_back_when_it_returns(own_server):
    """A call counted, then answered 503 because the database went away before its answer was made,
    is taken back once the database answers again: a 5xx is never left counted (README, "Limits")."""
    import trio

    from svc.core.sqlfiles import Q
    from svc.web.app import create_app as create_web_app
    from svc.web.endpoint import Answer, Endpoint
    from svc.web.params import NoParams
    from tests.support import sql

    url, server = own_server
    key = make_key(url, "free")

    async def the_database_goes_away(call) -> Answer:
        pgserver.stop_immediately(server)  # after the call was counted and committed
        return Answer(await call.db.fetchval(Q.world.has_matches))

    outage = Endpoint(
        path="/v1/outage",
        plan="free",
        summary="",
        description="",
        params=NoParams,
        returns=bool,
        many=False,
        handler=the_database_goes_away,
    )
    counted = (
        "SELECT u.day_calls, u.month_calls FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.account = $1"
    )
    account = sql(url, "SELECT account FROM api_keys ORDER BY id DESC LIMIT 1")[0]["account"]
    app = create_web_app(url, endpoints=[outage], clock=Clock(start=NOON), pool_size=2)
    async with app.test_app() as test_app:
        client = Client(test_app.test_client())
        down = await client.get("/v1/outage", key)
        assert down.status_code == 503 and down.json_body["error"]["code"] == "unavailable"
        server.ensure_postgres_running()
        assert tuple(sql(url, counted, account)[0]) == (1, 1)  # still counted while the database was away
        with trio.fail_after(60):
            while tuple(sql(url, counted, account)[0]) != (0, 0):
                await trio.sleep(0.2)
