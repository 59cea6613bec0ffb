"""ops/realism.history: the shape of the loaded world's history above the match, as a fan reads it,
beside the real data and the public record (issue 25). One command:

    .venv/bin/python -m ops.realism.history [--url DATABASE_URL] [--rebuild] [--keep history.md]

Measures the demo world (seed 1899, as of 2026-11-23) that ops/eval builds once into `svc_eval_demo`
on the server of DATABASE_URL or the embedded one (`--rebuild` drops it first, so that the generator
as it is now builds it again), or any loaded world with `--url`; the real BWF data in `svc_eval_bwf`
(built once, as ops/realism and ops/eval do) and the record as the package ships it
(svc/world/sources/data/record/, `--record`).
Prints a Markdown table per section, each figure with its target and PASS or MISS, and the match
level's summary from ops/realism; keeps the report in ops/realism/out/ (`--keep` names the file).

A sibling of ops/realism rather than a flag of it: the match level compares play statistics of one
tier and era, this compares careers, calendars and champions across the whole history; each runs
alone, and this one reuses the other's statistics for its summary line.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from ops.eval.__main__ import _with_database, world_rows
from ops.realism import __main__ as match_level
from ops.realism import careers, dates, great_events, venues, winners
from ops.realism.figures import Figure, Section, markdown, tally
from ops.realism.record import FOLDER as RECORD_FOLDER
from svc.core import pgserver
from svc.core.db import connect_asyncio
from svc.core.settings import Settings as ServiceSettings

OUT = Path(__file__).resolve().parent / "out"
DEMO, REAL = "svc_eval_demo", "svc_eval_bwf"  # the databases ops/eval builds (ops.eval.__main__.world_rows)
MATCH_LEVEL_YEARS = (2018, 2020)  # the real World Tour
# This world's matches of every rally-point season from the World Tour on, for a sample big enough
# that noise stays under a point (as the README runs ops.realism: --ours-years 2018-2026).
MATCH_LEVEL_OURS = (2018, 2026)


async def built_world(server_url: str, world: str) -> str:
    """The URL of ops/eval's database of `world` ("generated" or "real"), built on first use."""
    _rows, conn = await world_rows(server_url, world)
    await conn.close()
    return _with_database(server_url, DEMO if world == "generated" else REAL)


async def drop_demo(server_url: str) -> None:
    """Drop the demo world's database, so that the next build is the generator's of today. Fails
    while anyone is connected to it, rather than cutting them off."""
    admin = await connect_asyncio(server_url)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {DEMO}")
    finally:
        await admin.close()


async def match_level_section(world, real) -> Section:
    ours, theirs, rally_years = await match_level.compared(world, real, *MATCH_LEVEL_YEARS, MATCH_LEVEL_OURS)
    within, compared, gap, where = match_level.largest_gap(ours, theirs)
    (first, last), (a, b) = MATCH_LEVEL_YEARS, MATCH_LEVEL_OURS
    limit = match_level.GAP_LIMIT
    return Section(
        f"Match level (python -m ops.realism --ours-years {a}-{b}: this world's World Tour "
        f"{a}-{b}, the real {first}-{last})",
        (
            Figure(
                f"shares within {limit:g} points of the real World Tour",
                f"{within} of {compared}",
                "-",
                "all",
                within == compared,
            ),
            Figure("largest gap", f"{gap:.1f} points ({where})", "-", f"≤ {limit:g} points", gap <= limit),
        ),
        notes=(
            f"- Shares: three games, the first game's winner winning, margins, deuce games, the server's "
            f"share (rallies of {rally_years[0]}-{rally_years[1]}); the full table: python -m ops.realism.",
        ),
    )


async def header(world) -> list[str]:
    meta = {r["key"]: r["value"] for r in await world.fetch("SELECT key, value FROM world_meta")}
    described = ", ".join(f"{k} {meta[k]}" for k in ("source", "generator", "scale", "seed", "as_of") if k in meta)
    return [
        "# History: the world above the match, beside the real data and the record",
        "",
        f"World: {described or 'no world_meta'}.",
    ]


async def report(world_url: str, real_url: str, record_folder: Path) -> str:
    world, real = await connect_asyncio(world_url), await connect_asyncio(real_url)
    try:
        sections = [
            await careers.careers(world, real),
            await careers.top_20s(world, real),
            await great_events.top_players_present(world),
            await great_events.clash_section(world, real),
            await winners.two_nations(world, real),
            await winners.world_tour_titles(world, real),
            await dates.real_weeks(world, real),
            await venues.venue_runs(world),
            await dates.outside_dates(world, real),
            await dates.scoring_eras(world, real),
            await great_events.record_section(world, record_folder),
            await match_level_section(world, real),
        ]
        lines = await header(world)
    finally:
        await world.close()
        await real.close()
    lines += [f"Targets: issue 25, 'Done when'. {tally(sections)}.", ""]
    return "\n\n".join(["\n".join(lines), *(markdown(s) for s in sections)]) + "\n"


async def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m ops.realism.history", description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="the loaded world to measure (default: the demo world in svc_eval_demo)")
    ap.add_argument("--rebuild", action="store_true", help="drop svc_eval_demo and generate the demo world again")
    ap.add_argument("--record", type=Path, default=RECORD_FOLDER, help="the public record's folder")
    ap.add_argument("--keep", default="history.md", help="the file in ops/realism/out/ the report is kept in")
    args = ap.parse_args(argv)
    settings = ServiceSettings.from_env()
    server_url = settings.database_url or pgserver.start(settings.home)
    if args.rebuild and not args.url:
        await drop_demo(server_url)
    world_url = args.url or await built_world(server_url, "generated")
    text = await report(world_url, await built_world(server_url, "real"), args.record)
    print(text)
    OUT.mkdir(exist_ok=True)
    (OUT / args.keep).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
