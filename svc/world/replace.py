"""Replacing the world: generate a bundle, or take one from a feed, and load it with the
derived tables in one transaction (readers see the old world or the new, never half)."""

from __future__ import annotations

import datetime as dt
import tempfile
from pathlib import Path

import asyncpg

from svc.core.progress import Progress
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx
from svc.world import derived as derive
from svc.world.generate import generate_bundle
from svc.world.load import load_bundle
from svc.world.sources.bwf import build_bundle
from svc.world.sources.import_report import Report


async def import_bundle(conn: asyncpg.Connection, path: Path, progress: Progress = None) -> None:
    async with conn.transaction():
        await load_bundle(conn, path, progress=progress)
        await derive.rebuild(conn, progress=progress)


async def generate_world(
    conn: asyncpg.Connection,
    *,
    scale: str,
    seed: int,
    as_of: dt.date,
    progress: Progress = None,
    processes: int | None = None,
) -> dict:
    """Generates the world (on `processes` processes: generate_bundle's default when None) and loads it."""
    with tempfile.TemporaryDirectory(prefix="svc-world-") as tmp:
        manifest = generate_bundle(
            Path(tmp), scale=scale, seed=seed, as_of=as_of, progress=progress, processes=processes
        )
        await import_bundle(conn, Path(tmp), progress)
    return manifest


async def world_is_empty(conn: asyncpg.Connection) -> bool:
    return not await Tx(conn).fetchval(Q.world.has_matches)


async def load_bwf_world(
    conn: asyncpg.Connection, *, source: Path | None = None, progress: Progress = None
) -> tuple[dict, Report]:
    """The real world from the public BWF files (svc.world.sources.bwf; default: the copy
    shipped with the service), loaded like any bundle; returns the manifest and the report."""
    with tempfile.TemporaryDirectory(prefix="svc-bwf-") as tmp:
        manifest, report = build_bundle(Path(tmp), source, progress)
        await import_bundle(conn, Path(tmp), progress)
    return manifest, report


async def world_source(conn: asyncpg.Connection) -> str | None:
    """What the loaded world is: `bwf` for the real one, else its scale; None when empty."""
    if await world_is_empty(conn):
        return None
    return await Tx(conn).fetchval(Q.world.source)
