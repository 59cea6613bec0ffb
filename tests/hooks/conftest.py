"""Fixtures of the webhook tests: a pool on the module's world with no endpoints left by an
earlier test, a Live account to own them, and the service clock at the test world's noon."""

from __future__ import annotations

import secrets

import pytest

from svc.core.clock import Clock
from svc.core.db import Database
from tests.support import NOON, make_key, sql


@pytest.fixture
async def db(db_url):
    database = Database(db_url, pool_size=4)
    await database.open()
    sql(db_url, "DELETE FROM webhook_endpoints")  # each test sees only its own endpoints
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture(scope="module")
def live_account(db_url):
    name = f"hooks-{secrets.token_hex(3)}"
    make_key(db_url, "live", account=name)
    return name


@pytest.fixture
def clock():
    return Clock(start=NOON)
