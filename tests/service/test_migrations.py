"""A database made before the migrations were renamed for what they hold migrates cleanly:
nothing runs twice, the renamed files are recorded under their new names, and its schema is
the one a new database gets. The old database is a pg_dump kept in tests/service/data/."""

from __future__ import annotations

import os
from pathlib import Path

import asyncpg
import pytest

from svc.access.plans import prepare_database
from svc.core.schema import RENAMED, SCHEMA_DIR
from tests.support import drop_database, new_database, run

DUMP = Path(__file__).with_name("data") / "schema-before-rename.sql"

SHAPE_SQL = """
SELECT 'column' AS kind, table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable AS what
FROM information_schema.columns WHERE table_schema = 'public'
UNION ALL
SELECT 'index', indexdef FROM pg_indexes WHERE schemaname = 'public'
UNION ALL
SELECT 'function', p.proname || '(' || pg_get_function_arguments(p.oid) || ')'
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
UNION ALL
SELECT 'view', viewname || ': ' || definition FROM pg_views WHERE schemaname = 'public'
ORDER BY 1, 2
"""


@pytest.fixture
def fresh_databases(pg_server_url):
    """Two empty databases (old, new) for this test, dropped after it."""
    names = [f"svc_migrate_{os.getpid()}_{tag}" for tag in ("old", "new")]
    yield [new_database(pg_server_url, n) for n in names]
    for n in names:
        drop_database(pg_server_url, n)


def test_a_database_from_before_the_rename_migrates_to_todays_schema(fresh_databases):
    old_url, new_url = fresh_databases

    async def go():
        old = await asyncpg.connect(old_url)
        new = await asyncpg.connect(new_url)
        try:
            await old.execute(DUMP.read_text())
            await old.execute("SET search_path TO public")  # the dump emptied it for its own session
            recorded_before = {r["name"] for r in await old.fetch("SELECT name FROM schema_migrations")}
            applied = await prepare_database(old)
            await prepare_database(new)
            recorded = [r["name"] for r in await old.fetch("SELECT name FROM schema_migrations ORDER BY name")]
            return recorded_before, applied, recorded, await old.fetch(SHAPE_SQL), await new.fetch(SHAPE_SQL)
        finally:
            await old.close()
            await new.close()

    recorded_before, applied, recorded, old_shape, new_shape = run(go())
    assert set(RENAMED) <= recorded_before  # the dump is truly from before the rename
    # Every file of the old database had been applied: none runs again, and files added
    # since (if any) are the only ones applied now.
    assert all(
        name in {RENAMED.get(n, n) for n in recorded_before} or name in applied
        for name in (p.name for p in SCHEMA_DIR.glob("*.sql"))
    )
    assert not set(applied) & {RENAMED.get(n, n) for n in recorded_before}
    assert recorded == sorted(p.name for p in SCHEMA_DIR.glob("*.sql"))
    assert [tuple(r) for r in old_shape] == [tuple(r) for r in new_shape]
