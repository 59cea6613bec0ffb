"""The world into a bundle: the calendar, then edition by edition its draws (or team ties),
times of day and prices, then corrections, the weekly rankings and the players who appeared.
Each step is a piece of its own module; this one only runs them in order and writes rows."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from svc.core.progress import Progress
from svc.world import facts
from svc.world.bundle import FORMAT_VERSION, BundleWriter
from svc.world.generate import corrections, draws, rankings, timetable
from svc.world.generate.calendar import Edition, build_calendar, events_of, series_of, venue_id
from svc.world.generate.context import Context
from svc.world.generate.draws import Event, Match
from svc.world.generate.ids import sub_rng
from svc.world.generate.prices import odds_rows, priced
from svc.world.generate.scales import SCALES
from svc.world.generate.teams import TeamEvent

GENERATOR = "svc.world.generate 1"  # recorded in every bundle's manifest and world_meta
CORRECTION_POOL = 5000  # finished matches kept as candidates for a published-wrong result


class Orchestrator:
    def __init__(self, w: BundleWriter, ctx: Context, progress: Progress = None) -> None:
        self.w, self.ctx, self.progress = w, ctx, progress
        self.results: list[tuple[dt.date, str, tuple, int]] = []  # ranking results (date, disc, entry, points)
        self.finished_for_corrections: list[Match] = []
        self.odds_rng = sub_rng(ctx.seed, "odds")

    def run(self) -> dict[str, Any]:
        ctx, w = self.ctx, self.w
        series_list = series_of(ctx.scale)
        w.rows("countries", ((c, n) for c, n, _a in facts.COUNTRIES))
        w.rows("cities", ((c.id, c.name, c.country, c.elevation_m) for c in facts.CITIES))
        w.rows("venues", ((venue_id(c.name, v), v, c.id, elev) for c in facts.CITIES for v, elev in c.venues))
        w.rows("series", ((s.slug, s.name, s.level, s.para, s.team, s.first_year) for s in series_list))
        calendar = build_calendar(ctx.seed, ctx.scale, ctx.as_of, series_list)
        for i, ed in enumerate(calendar):
            w.row(
                "tournaments",
                (
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
                ),
            )
            if ed.state != "future":
                self.edition(ed)
            if self.progress and (i % 25 == 0 or i == len(calendar) - 1):
                self.progress("tournaments", i + 1, len(calendar))
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

    def edition(self, ed: Edition) -> None:
        ctx = self.ctx
        if ed.series.team:
            team = TeamEvent(ctx, ed)
            matches = team.play()
            self.w.rows("ties", team.ties_out)
        else:
            matches = []
            for disc, sport_class in events_of(ed):
                ev = Event(ctx, ed, disc, sport_class)
                played, entries = (draws.finals_event if ed.series.kind == "finals" else draws.knockout)(ctx, ev)
                self.results.extend(rankings.results_of(ev, played, entries))
                matches.extend(played)
        timetable.schedule(ctx.seed, ed, matches)
        if ed.state == "current":
            matches = timetable.split_current(ctx.now, matches)
        self.emit(ed, matches)

    def emit(self, ed: Edition, matches: list[Match]) -> None:
        w = self.w
        odds_ok = priced(ed, self.ctx.scale)
        for m in matches:
            w.row("matches", m.row())
            if odds_ok and m.outcome != "walkover":
                w.plain_rows("odds", odds_rows(self.odds_rng, m))
            if m.rallies and m.outcome != "walkover":
                w.plain_rows(
                    "rallies", ((m.id, r.game, r.rally, r.server, r.winner, r.score1, r.score2) for r in m.rallies)
                )
            if ed.state == "past" and m.outcome == "played" and len(self.finished_for_corrections) < CORRECTION_POOL:
                if sub_rng(self.ctx.seed, "corr?", m.id).random() < 0.05:
                    self.finished_for_corrections.append(m)


def generate_bundle(
    out_dir: Path,
    *,
    scale: str = "demo",
    seed: int = 1,
    as_of: dt.date | dt.datetime | None = None,
    progress: Progress = None,
) -> dict[str, Any]:
    """Generate the world into `out_dir` (one CSV per table + manifest.json); returns the manifest.

    `as_of` is the world's "now": a moment (default: now, to the minute), or a day, which stands
    for noon UTC of that day (reproducible: the same day gives the same world whenever it runs)."""
    if as_of is None:
        as_of = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")
    w = BundleWriter(Path(out_dir))
    try:
        return Orchestrator(w, Context.make(seed, SCALES[scale], as_of), progress).run()
    except BaseException:
        w.abort()
        raise
