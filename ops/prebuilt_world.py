"""ops/prebuilt_world: make the prebuilt demo world again (svc/world/prebuilt/). One command:

    .venv/bin/python -m ops.prebuilt_world

On a throwaway embedded server: the schema (`migrate`), the demo world generated as of now with
the demo seed (serve's), then the whole database dumped with its manifest (svc.world.prebuilt).
Run it when tests/world/test_prebuilt.py says the dump was made by other sources (a change to
the generator, its fact files, the schema, the derived tables or the rating): about two minutes
on 2 cores. The dump's world "now" is the moment it runs; a first start later plays the time
since through the live feed, so make it again now and then to keep that catch-up short.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import tempfile
import time
from pathlib import Path

from svc.access.plans import prepare_database
from svc.core import pgserver
from svc.core.db import connect_asyncio
from svc.core.progress import ProgressBar
from svc.serve import DEMO_SEED
from svc.world import prebuilt
from svc.world.replace import generate_world


async def build(url: str, folder: Path, *, scale: str, seed: int, as_of: dt.datetime) -> prebuilt.Prebuilt:
    conn = await connect_asyncio(url)
    try:
        await prepare_database(conn)
        bar = ProgressBar()
        try:
            await generate_world(conn, scale=scale, seed=seed, as_of=as_of, progress=bar)
        finally:
            bar.close()
        return await prebuilt.dump(conn, url, folder)
    finally:
        await conn.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folder", type=Path, default=prebuilt.PREBUILT_DIR, help="where the dump and manifest go")
    ap.add_argument("--scale", default="demo")
    args = ap.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="svc-prebuilt-") as tmp:
        url, server = pgserver.start_throwaway(Path(tmp))
        try:
            now = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
            made = asyncio.run(build(url, args.folder, scale=args.scale, seed=DEMO_SEED, as_of=now))
        finally:
            server.cleanup()
    size = made.dump.stat().st_size / 1e6
    print(f"{made.dump}: {size:.1f} MB, the {made.scale} world as of {made.now}, in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
