"""Read replicas against a real streaming standby of the test's PostgreSQL (svc.core.pgserver's
make_standby: pg_basebackup, standby.signal, its own socket): the archive reads marked for replicas
are answered by the standby while counting stays on the primary; a read right after an import
(the data version moved on the primary) never shows the data before it; the standby stopped hard
in the middle of a burst costs no request anything (every answer 200, from the primary), and once
it is back it takes reads again."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
import trio
from prometheus_client import REGISTRY

from svc.assembly import create_app
from svc.core import pgserver
from svc.core.clock import Clock
from svc.core.db import connect_asyncio
from svc.core.settings import Settings
from svc.web.app import service_of
from svc.world import derived
from tests.support import NOON, Client, make_key, run, sql


def served(target: str) -> float:
    return REGISTRY.get_sample_value("svc_db_statements_total", {"target": target}) or 0.0


def fallbacks(reason: str) -> float:
    return REGISTRY.get_sample_value("svc_db_replica_fallbacks_total", {"reason": reason}) or 0.0


@pytest.fixture(scope="module")
def standby(pg_server_url, db_url):
    """A streaming standby of the test run's server, made after this module's database exists."""
    if os.environ.get("DATABASE_URL"):
        pytest.skip("needs the embedded PostgreSQL's programs and its local replication")
    socket_dir = Path(parse_qs(urlsplit(pg_server_url).query)["host"][0])
    # a fresh, short /tmp folder: the standby runs as the server's user, and a socket path is short
    folder = Path(tempfile.mkdtemp(prefix="svc-sb-"))
    node = pgserver.make_standby(socket_dir, folder)
    node.start()
    yield node
    try:
        node.stop("immediate")
    except subprocess.CalledProcessError:  # a test that failed with it stopped left it so
        pass
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
async def replicated(db_url, standby):
    """The app as `serve` makes it from its settings, the standby in DATABASE_REPLICA_URL;
    (client, the standby's URL of this module's database, the app)."""
    replica_url = standby.url(urlsplit(db_url).path.lstrip("/"))
    settings = Settings.from_env({"DATABASE_URL": db_url, "SVC_POOL_SIZE": "4", "DATABASE_REPLICA_URL": replica_url})
    app = create_app(db_url, clock=Clock(start=NOON), pool_size=4, settings=settings)
    async with app.test_app() as test_app:
        yield Client(test_app.test_client()), replica_url, app


def on(url: str, statement: str, *args):
    """One statement on its own connection (the standby's replay is paused and resumed this way)."""
    return sql(url, statement, *args)


def caught_up(db_url: str, replica_url: str) -> None:
    """Waits until the standby has replayed everything the primary had written when called."""
    lsn = on(db_url, "SELECT pg_current_wal_lsn()::text AS lsn")[0]["lsn"]
    for _ in range(200):
        if on(replica_url, "SELECT pg_last_wal_replay_lsn() >= $1::text::pg_lsn AS ok", lsn)[0]["ok"]:
            return
        time.sleep(0.05)  # blocks the test's Trio run too: nothing of it runs meanwhile
    pytest.fail("the standby did not catch up within 10 s")


def an_edition(db_url: str) -> tuple[int, str, str]:
    row = on(db_url, "SELECT year, id, name FROM search_names WHERE kind = 'tournament' ORDER BY year, id LIMIT 1")[0]
    return row["year"], row["id"], row["name"]


def names_of(answer) -> dict[str, str]:
    assert answer.status_code == 200, answer.json_body
    return {hit["id"]: hit["name"] for hit in answer.json_body["data"]}


async def test_archive_reads_come_from_the_standby_and_counting_from_the_primary(db_url, replicated):
    """With the standby's replay paused, an edition renamed on the primary (the data version
    unchanged, as between imports) still has its old name in /v1/search: the standby answered.
    The key's calls are counted all the same (X-RateLimit-Remaining goes down by one per call,
    key_usage on the primary holds them, as a block of calls claimed there): counting never
    leaves the primary."""
    client, replica_url, _app = replicated
    key = make_key(db_url, "archive")
    year, edition, name = an_edition(db_url)
    caught_up(db_url, replica_url)
    on(replica_url, "SELECT pg_wal_replay_pause()")
    try:
        on(db_url, "UPDATE search_names SET name = name || ' (renamed)' WHERE id = $1", edition)
        before, counted = served("replica"), on(db_url, "SELECT sum(minute_calls) AS n FROM key_usage")[0]["n"]
        first = await client.get("/v1/search", key, q=str(year))
        second = await client.get("/v1/search", key, q=str(year))
        assert names_of(first)[edition] == name and names_of(second)[edition] == name
        assert served("replica") == before + 2
        left = [int(r.headers["X-RateLimit-Remaining"]) for r in (first, second)]
        assert left[1] == left[0] - 1
        # the calls come from a block claimed on the primary (svc.access.allowances): counted there
        assert on(db_url, "SELECT sum(minute_calls) AS n FROM key_usage")[0]["n"] >= counted + 2
    finally:
        on(replica_url, "SELECT pg_wal_replay_resume()")
        on(db_url, "UPDATE search_names SET name = $2 WHERE id = $1", edition, name)


async def test_a_read_right_after_an_import_is_answered_by_the_primary(db_url, replicated):
    """An import moves the data version on the primary (svc.world.derived.rebuild); while the
    standby has not replayed it, reads go to the primary and show the import's data; once it has,
    the standby answers again, with the same data."""
    client, replica_url, app = replicated
    key = make_key(db_url, "archive")
    year, edition, name = an_edition(db_url)
    assert names_of(await client.get("/v1/search", key, q=str(year)))[edition] == name
    caught_up(db_url, replica_url)
    on(replica_url, "SELECT pg_wal_replay_pause()")
    try:

        async def an_import() -> None:  # the data changed and the version moved, in one transaction
            conn = await connect_asyncio(db_url)
            try:
                async with conn.transaction():
                    await conn.execute("UPDATE search_names SET name = name || ' (imported)' WHERE id = $1", edition)
                    await derived.rebuild(conn, set())  # no derived file to run: the version alone moves
            finally:
                await conn.close()

        version = service_of(app).allowances.version
        run(an_import())
        # the worker hears of the import's data version by NOTIFY (svc.access.allowances), within
        # moments; a read asked before then is the old version's, as any read an instant earlier
        for _ in range(50):
            if service_of(app).allowances.version != version:
                break
            await trio.to_thread.run_sync(time.sleep, 0.02)  # real time: the notification's way
        behind, on_replica = fallbacks("behind"), served("replica")
        after = await client.get("/v1/search", key, q=str(year))
        assert names_of(after)[edition] == f"{name} (imported)"
        assert fallbacks("behind") == behind + 1 and served("replica") == on_replica
    finally:
        on(replica_url, "SELECT pg_wal_replay_resume()")
    caught_up(db_url, replica_url)
    on_replica = served("replica")
    with trio.fail_after(10):
        while served("replica") == on_replica:  # asked again at most every RECHECK_S
            again = await client.get("/v1/search", key, q=str(year))
            assert names_of(again)[edition] == f"{name} (imported)"
            await trio.sleep(0.1)


async def test_the_standby_stopped_in_a_burst_costs_no_request_and_comes_back(db_url, standby, replicated):
    """Archive reads of several kinds, many at once, while the standby is stopped as a crash stops
    it: every answer is a 200 (the primary took over at once); started again, it answers again."""
    client, _replica_url, _app = replicated
    keys = [make_key(db_url, "live") for _ in range(3)]
    player = on(db_url, "SELECT id FROM players ORDER BY id LIMIT 1")[0]["id"]
    year = an_edition(db_url)[0]
    day = on(db_url, "SELECT max(day)::text AS d FROM matches WHERE status = 'finished'")[0]["d"]
    asks = [
        ("/v1/search", {"q": str(year)}),
        ("/v1/matches", {"player": player}),
        (f"/v1/players/{player}/matches", {}),
        ("/v1/results", {"date": day}),
    ]
    statuses: list[int] = []

    async def ask(i: int) -> None:
        path, params = asks[i % len(asks)]
        answer = await client.get(path, keys[i % len(keys)], **params)
        statuses.append(answer.status_code)

    before_failed, before_down = fallbacks("failed"), fallbacks("down")
    async with trio.open_nursery() as nursery:
        for i in range(120):
            nursery.start_soon(ask, i)
            if i == 40:
                nursery.start_soon(trio.to_thread.run_sync, standby.stop, "immediate")
            await trio.sleep(0.01)
    assert len(statuses) == 120 and set(statuses) == {200}, sorted(set(statuses))
    assert fallbacks("failed") + fallbacks("down") > before_failed + before_down

    await trio.to_thread.run_sync(standby.start)
    on_replica = served("replica")
    with trio.fail_after(15):  # the back-off (2 s) passes, the next read finds it up
        while served("replica") == on_replica:
            assert (await client.get("/v1/search", keys[0], q=str(year))).status_code == 200
            await trio.sleep(0.2)


def test_the_replica_mark_is_refused_on_a_write_and_the_urls_are_a_comma_list(tmp_path):
    """A statement marked for replicas that writes is an error at load (a standby would refuse it on
    a request); DATABASE_REPLICA_URL takes several URLs, blanks ignored."""
    from svc.core.sqlfiles import load

    (tmp_path / "things").mkdir()
    (tmp_path / "things" / "read.sql").write_text("-- name: read\n-- replica: ok\n-- All.\nSELECT 1;\n")
    assert load(tmp_path).things.read.replica
    (tmp_path / "things" / "write.sql").write_text(
        "-- name: bump\n-- replica: ok\n-- One more.\nUPDATE t SET n = n + 1;\n"
    )
    with pytest.raises(ValueError, match="things.bump .*replica: ok.* writes"):
        load(tmp_path)
    env = {"DATABASE_URL": "postgresql://p/svc", "DATABASE_REPLICA_URL": "postgresql://r1/svc, ,postgresql://r2/svc"}
    assert Settings.from_env(env).replica_urls == ("postgresql://r1/svc", "postgresql://r2/svc")
    assert Settings.from_env({"DATABASE_URL": "postgresql://p/svc"}).replica_urls == ()
