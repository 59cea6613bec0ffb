"""Keys shared by the API tests of a module, a fresh Live key per test (`key`; a module may
make its own), and the busiest player of the world (`busiest`)."""

from __future__ import annotations

import pytest

from tests.api.player_history_support import busiest_player
from tests.support import make_key


@pytest.fixture(scope="module")
def free(db_url):
    return make_key(db_url, "live")  # a Live key: every Free endpoint, and room for many calls


@pytest.fixture(scope="module")
def free_only(db_url):
    return make_key(db_url, "free")


@pytest.fixture
def key(db_url):
    """A fresh Live key per test (Live includes Archive): every test starts with its own minute's allowance."""
    return make_key(db_url, "live")


@pytest.fixture(scope="module")
def busiest(db_url):
    return busiest_player(db_url)
