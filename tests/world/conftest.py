"""Fixtures of the world's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from svc.world.sources import bwf


@pytest.fixture(scope="session")
def shipped_bwf_bundle(tmp_path_factory) -> Path:
    """The bundle of the real world built from the files shipped with the service, once per session
    (about 15 s): the tests that load it and the test that compares it with the first fold's share it."""
    out = tmp_path_factory.mktemp("bwf-shipped")
    bwf.build_bundle(out)
    return out
