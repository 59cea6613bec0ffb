"""The importer: replaces every world table with a bundle's contents, in one transaction.

Works for any bundle in the documented format (docs/bundle.md), generated or converted
from a real feed. Only the tables of svc/sql/schema/002_world.sql are touched; platform tables
(accounts, api_keys, key_usage) are never truncated.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg

from svc.core.progress import Progress
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx
from svc.world.bundle import COLUMNS, TABLE_NAMES, BundleError, header_of, read_manifest


async def load_bundle(conn: asyncpg.Connection, path: Path, progress: Progress = None) -> None:
    """Validate the bundle in `path`, then truncate and reload every world table, then ANALYZE."""
    path = Path(path)
    manifest = read_manifest(path)
    files = {}
    for table in TABLE_NAMES:
        file = path / manifest["tables"][table]["file"]
        header = header_of(file)
        known = COLUMNS[table]
        # A column added at the end of a table (allowed by the format) is accepted by name;
        # every documented column must be present.
        missing = [c for c in known if c not in header]
        if missing:
            raise BundleError(f"{file.name}: missing columns {missing}")
        files[table] = (file, header)
    total = sum(manifest["tables"][t]["rows"] for t in TABLE_NAMES)
    done = 0
    async with conn.transaction():
        # CASCADE would reach only tables that reference these, which are all world tables.
        await conn.execute("TRUNCATE " + ", ".join(TABLE_NAMES) + " CASCADE")
        async with Tx(conn).indexes_built_after(TABLE_NAMES), keys_checked_after(conn, TABLE_NAMES):
            for table in TABLE_NAMES:  # FK-safe order
                file, header = files[table]
                await conn.copy_to_table(table, source=file, format="csv", header=True, columns=header)
                done += manifest["tables"][table]["rows"]
                if progress:
                    progress(f"load {table}", done, total)
        if progress:
            progress("indexes", total, total)
    for table in TABLE_NAMES:
        await conn.execute(f"ANALYZE {table}")
    if progress:
        progress("analyze", total, total)


@asynccontextmanager
async def keys_checked_after(conn: asyncpg.Connection, tables: Iterable[str]) -> AsyncIterator[None]:
    """A bulk load into `tables` with their keys dropped for the block and added again after it, as
    PostgreSQL advises for bulk loads: a foreign key checked row by row costs a lookup per row
    (measured on the demo bundle: most of odds' and matches' COPY), added after it is one join; a
    primary key's index is built by one sort. Inside the caller's transaction: a row that breaks a
    key still fails the import, and a failed load leaves the keys as they were."""
    keys = await Tx(conn).fetch(Q.world.keys, tables=list(tables))
    for key in keys:  # foreign keys first: they lean on the primary keys
        await conn.execute(f"ALTER TABLE {key['tbl']} DROP CONSTRAINT {key['name']}")
    yield
    for key in reversed(keys):
        await conn.execute(f"ALTER TABLE {key['tbl']} ADD CONSTRAINT {key['name']} {key['ddl']}")
