"""The world into a bundle: the calendar, then edition by edition its draws (or team ties),
times of day and prices, then corrections, the weekly rankings and the players who appeared.
Each step is a piece of its own module; this one only runs them in order and writes rows."""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from svc.core.progress import Progress
from svc.world import facts
from svc.world.bundle import FORMAT_VERSION, BundleWriter
from svc.world.generate import chunks, corrections, rankings
from svc.world.generate.calendar import Edition, build_calendar, series_of, venue_id
from svc.world.generate.context import Context
from svc.world.generate.ids import sub_rng
from svc.world.generate.prices import odds_rows
from svc.world.generate.scales import SCALES

GENERATOR = "svc.world.generate 1"  # recorded in every bundle's manifest and world_meta


class Orchestrator:
    def __init__(self, w: BundleWriter, ctx: Context, progress: Progress = None, processes: int = 1) -> None:
        self.w, self.ctx, self.progress, self.processes = w, ctx, progress, processes
        self.results: list[tuple[dt.date, str, tuple, int]] = []  # ranking results (date, disc, entry, points)
        self.finished_for_corrections: list[chunks.Finished] = []
        self.odds_rng = sub_rng(ctx.seed, "odds")

    def run(self) -> dict[str, Any]:
        ctx, w = self.ctx, self.w
        series_list = series_of(ctx.scale)
        w.rows("countries", ((c, n) for c, n, _a in facts.COUNTRIES))
        w.rows("cities", ((c.id, c.name, c.country, c.elevation_m) for c in facts.CITIES))
        w.rows("venues", ((venue_id(c.name, v), v, c.id, elev) for c in facts.CITIES for v, elev in c.venues))
        w.rows("series", ((s.slug, s.name, s.level, s.para, s.team, s.first_year) for s in series_list))
        calendar = build_calendar(ctx.seed, ctx.scale, ctx.as_of, series_list)
        w.rows("tournaments", (tournament_row(ed) for ed in calendar))
        self.play(calendar)
        w.rows("corrections", corrections.corrections(ctx, self.finished_for_corrections))
        rankings.write_rankings(w, ctx, self.results, self.progress)
        w.rows("players", (p.row() for p in ctx.people.all if p.used))
        meta = {
            "seed": ctx.seed,
            "scale": ctx.scale.name,
            "as_of": ctx.as_of.isoformat(),
            "generator": GENERATOR,
            "now": ctx.now.isoformat(),
        }
        w.rows("world_meta", sorted((k, str(v)) for k, v in {**meta, "format": FORMAT_VERSION}.items()))
        return w.finish(meta)

    def play(self, calendar: list[Edition]) -> None:
        """Every edition played, in chunks (chunks.py): here one after another, or on `processes`
        processes; their shares are joined in calendar order either way."""
        ctx = self.ctx
        ranges = chunks.split(calendar, ctx, self.processes * chunks.CHUNKS_PER_PROCESS if self.processes > 1 else 1)
        with tempfile.TemporaryDirectory(prefix="svc-chunks-") as tmp:
            if self.processes > 1 and len(ranges) > 1:
                pool = get_context("spawn").Pool(
                    min(self.processes, len(ranges)),
                    initializer=chunks.start_worker,
                    initargs=(ctx.seed, ctx.scale.name, ctx.now),
                )
                with pool:
                    for result in pool.imap(chunks.play_in_worker, [(a, b, tmp) for a, b in ranges]):
                        self.join(result, Path(tmp), len(calendar))
            else:
                for a, b in ranges:
                    self.join(chunks.play_chunk(ctx, calendar, a, b, Path(tmp)), Path(tmp), len(calendar))

    def join(self, got: chunks.ChunkResult, tmp: Path, editions: int) -> None:
        """A chunk's share after those before it: its fragments, then the odds (one stream through
        every priced match in calendar order), correction candidates, ranking results, players."""
        ctx, w = self.ctx, self.w
        for table in chunks.FRAGMENT_TABLES:
            w.append(table, got.fragment(tmp, table), got.rows[table])
            got.fragment(tmp, table).unlink()
        for m in got.priced:
            w.plain_rows("odds", odds_rows(self.odds_rng, m))
        room = chunks.CORRECTION_POOL - len(self.finished_for_corrections)
        self.finished_for_corrections.extend(got.finished[:room])
        if got.made_through > ctx.people.made_through:  # a chunk played in another process
            ctx.people.make_through(got.made_through)
        players = ctx.people.all
        self.results.extend((day, d, tuple(players[i] for i in side), pts) for day, d, side, pts in got.results)
        for i in got.used:
            players[i].used = True
        if self.progress:
            self.progress("tournaments", got.stop, editions)


def tournament_row(ed: Edition) -> tuple:
    return (
        ed.id,
        ed.series.slug,
        ed.name,
        ed.year,
        ed.series.level,
        ed.series.para,
        ed.series.team,
        ed.tier,
        ed.start,
        ed.end,
        facts.CITY_ID[ed.city],
        ed.venue_id,
        ed.prize,
        ed.series.medals or ed.series.kind == "olympics",
        ed.draw_size,
    )


def available_cores() -> int:
    """The cores this process may run on (a container's share, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def generate_bundle(
    out_dir: Path,
    *,
    scale: str = "demo",
    seed: int = 1,
    as_of: dt.date | dt.datetime | None = None,
    progress: Progress = None,
    processes: int | None = None,
) -> dict[str, Any]:
    """Generate the world into `out_dir` (one CSV per table + manifest.json); returns the manifest.

    `as_of` is the world's "now": a moment (default: now, to the minute), or a day, which stands
    for noon UTC of that day (reproducible: the same day gives the same world whenever it runs).

    `processes`: how many processes play the editions (default: every core, but one for the tiny
    scale, whose few editions take less time than starting a process); the bundle is byte-identical
    whatever the number (svc/world/generate/chunks.py says why)."""
    if as_of is None:
        as_of = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")
    if processes is None:
        processes = 1 if scale == "tiny" else available_cores()
    w = BundleWriter(Path(out_dir))
    try:
        return Orchestrator(w, Context.make(seed, SCALES[scale], as_of), progress, max(1, processes)).run()
    except BaseException:
        w.abort()
        raise
