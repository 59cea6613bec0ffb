"""Keys shared by the API tests of a module."""

from __future__ import annotations

import pytest

from tests.support import make_key


@pytest.fixture(scope="module")
def free(db_url):
    return make_key(db_url, "live")  # a Live key: every Free endpoint, and room for many calls


@pytest.fixture(scope="module")
def free_only(db_url):
    return make_key(db_url, "free")
