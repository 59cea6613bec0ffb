"""One PostgreSQL per test run (embedded unless DATABASE_URL is set), a `tiny` world
loaded once into a template database, and a fresh copy of it for each test module.

The app under test runs in-process on Trio's clock: `Clock` anchors wall time to
trio.current_time(), so a test that takes the `mock_clock` fixture moves minutes and days
with `mock_clock.jump(...)`."""

from __future__ import annotations

import itertools
import os
import tempfile
from pathlib import Path

import pytest

from svc.access.plans import prepare_database
from svc.core import pgserver
from svc.core.db import connect_asyncio
from tests.support import (
    BASE_DB,
    TEST_SCALE,
    TEST_SEED,
    TODAY,
    app_client,
    drop_database,
    make_key,
    new_database,
    run,
    with_database,
)

_counter = itertools.count()


@pytest.fixture(scope="session")
def pg_server_url():
    if os.environ.get("DATABASE_URL"):
        yield os.environ["DATABASE_URL"]
        return
    tmp = Path(tempfile.mkdtemp(prefix="svc-test-pg-"))
    url, server = pgserver.start_throwaway(tmp)
    yield url
    server.cleanup()


@pytest.fixture(scope="session")
def template_url(pg_server_url):
    """A database holding the schema and the tiny world; modules copy it."""
    from svc.world.replace import generate_world

    url = new_database(pg_server_url, BASE_DB)

    async def build():
        conn = await connect_asyncio(url)
        try:
            await prepare_database(conn)
            await generate_world(conn, scale=TEST_SCALE, seed=TEST_SEED, as_of=TODAY)
        finally:
            await conn.close()

    run(build())
    return with_database(pg_server_url, BASE_DB)


@pytest.fixture(scope="module")
def db_url(pg_server_url, template_url):
    """A fresh copy of the tiny world for this test module."""
    name = f"svc_test_{os.getpid()}_{next(_counter)}"
    yield new_database(pg_server_url, name, template=BASE_DB)
    drop_database(pg_server_url, name)


@pytest.fixture(scope="module")
def plan_keys(db_url):
    """One key per plan (each its own account), shared by a module's read-only tests."""
    return {plan: make_key(db_url, plan) for plan in ("free", "archive", "odds", "live")}


@pytest.fixture
async def client(db_url):
    """The app in-process on Trio's clock, without the answer cache: every answer from SQL."""
    async with app_client(db_url, cache=False) as c:
        yield c


@pytest.fixture
async def cached_client(db_url):
    """Like `client`, with the answer cache on, as `serve` runs."""
    async with app_client(db_url, cache=True) as c:
        yield c
