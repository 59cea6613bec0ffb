"""The prebuilt demo world (svc/world/prebuilt.py): the checkout's dump is this code's, and a dump
restores into an empty database as the world it was made from; a broken or cut-short restore
leaves the database empty again (so serve generates), a dump of other sources is not used.

The restores here use a dump of the tiny test world, made by svc.world.prebuilt.dump as
`python -m ops.prebuilt_world` makes the demo one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from svc.core.db import connect_asyncio
from svc.world import prebuilt
from svc.world.replace import world_source
from tests.support import BASE_DB, TEST_SCALE, TEST_SEED, drop_database, new_database, run


async def table_counts(conn) -> dict[str, int] | None:
    """Every table of the public schema with its row count, None when there is none."""
    names = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
    return {r[0]: await conn.fetchval(f"SELECT count(*) FROM public.{r[0]}") for r in names} or None


def test_the_checkouts_prebuilt_world_is_made_by_this_code():
    found = prebuilt.Prebuilt.read()
    assert found is not None, "svc/world/prebuilt/ holds no dump: python -m ops.prebuilt_world makes it"
    assert (found.scale, found.seed) == ("demo", 1899)
    assert found.fingerprint == prebuilt.sources_fingerprint(), (
        "the prebuilt demo world was made by other sources than these (the generator, its fact files, the "
        "schema, the derived tables or the rating changed): make it again with python -m ops.prebuilt_world"
    )
    assert prebuilt.file_sha256(found.dump) == found.sha256, "the dump is not the file its manifest describes"


@pytest.fixture(scope="module")
def dumped(pg_server_url, template_url, tmp_path_factory):
    """The tiny world dumped, from a copy of the template (other modules copy the template itself)."""
    url = new_database(pg_server_url, "svc_prebuilt_source", template=BASE_DB)
    folder = tmp_path_factory.mktemp("prebuilt")

    async def go():
        conn = await connect_asyncio(url)
        try:
            await prebuilt.dump(conn, url, folder)
            return await table_counts(conn), await world_source(conn)
        finally:
            await conn.close()

    counts, source = run(go())
    yield folder, counts, source
    drop_database(pg_server_url, "svc_prebuilt_source")


@pytest.fixture
def empty_url(pg_server_url):
    yield new_database(pg_server_url, "svc_prebuilt_target")
    drop_database(pg_server_url, "svc_prebuilt_target")


def restore(url: str, folder: Path, *, before: str | None = None) -> tuple[bool, dict[str, int] | None, str | None]:
    """restore_into_pristine on `url` (after the statement `before`); what it said, the tables'
    row counts and the world's source after it."""

    async def go():
        conn = await connect_asyncio(url)
        try:
            if before:
                await conn.execute(before)
            done = await prebuilt.restore_into_pristine(conn, url, scale=TEST_SCALE, seed=TEST_SEED, folder=folder)
            counts = await table_counts(conn)
            return done, counts, (await world_source(conn) if counts else None)
        finally:
            await conn.close()

    return run(go())


def test_a_dump_restores_into_an_empty_database_as_its_world(dumped, empty_url):
    folder, counts, source = dumped
    done, restored, restored_source = restore(empty_url, folder)
    assert done
    assert restored == counts  # every table, the derived ones too, with as many rows
    assert restored["matches"] > 0 and restored["player_match"] > 0
    assert restored_source == source == TEST_SCALE
    # a database that holds something is left alone
    assert restore(empty_url, folder) == (False, counts, source)


def test_a_broken_dump_leaves_the_database_empty(dumped, empty_url, tmp_path):
    folder, _, _ = dumped
    shutil.copy(folder / prebuilt.MANIFEST_NAME, tmp_path)
    data = (folder / prebuilt.DUMP_NAME).read_bytes()
    cut = tmp_path / prebuilt.DUMP_NAME
    cut.write_bytes(data[: len(data) * 2 // 3])  # pg_restore fails on it part of the way through
    manifest = json.loads((tmp_path / prebuilt.MANIFEST_NAME).read_text())
    (tmp_path / prebuilt.MANIFEST_NAME).write_text(json.dumps({**manifest, "sha256": prebuilt.file_sha256(cut)}))
    assert restore(empty_url, tmp_path) == (False, None, None)  # nothing left: serve generates the world


def test_a_restore_cut_short_is_wiped_and_done_again(dumped, empty_url):
    folder, counts, source = dumped
    # what a restore killed part of the way leaves: its marker and some of the tables
    left = "CREATE TABLE prebuilt_restoring (); CREATE TABLE matches (id int); INSERT INTO matches VALUES (1)"
    assert restore(empty_url, folder, before=left) == (True, counts, source)


def test_a_dump_of_other_sources_is_not_used(dumped, empty_url, tmp_path):
    folder, _, _ = dumped
    shutil.copy(folder / prebuilt.DUMP_NAME, tmp_path)
    manifest = json.loads((folder / prebuilt.MANIFEST_NAME).read_text())
    (tmp_path / prebuilt.MANIFEST_NAME).write_text(json.dumps({**manifest, "fingerprint": "0" * 64}))
    assert restore(empty_url, tmp_path) == (False, None, None)
