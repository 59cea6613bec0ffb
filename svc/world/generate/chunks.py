"""The editions of a calendar played in chunks, each chunk's tables written to files of its own,
so that chunks can run in separate processes and the orchestrator joins them in calendar order.

What one edition's draws depend on from the editions before it is the players' bookings (the days
and the starting week of each edition they entered) and their season's count of editions and
draws (by play year). A chunk therefore begins at a play year where no edition before it shares
a day or a starting week with any edition from there on: the editions on each side then see
exactly what they would see in one pass, and the bundle is byte-identical whatever the number
of processes. Everything else an edition draws comes from `sub_rng` streams keyed by its ids,
or from the players (made in one order wherever they are made). The odds, whose one stream runs
through every priced match in turn, and the correction candidates are left to the orchestrator:
a chunk hands over what they need, in order."""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

import attrs

from svc.world.bundle import cell
from svc.world.engine import Rules
from svc.world.generate import draws, rankings, timetable
from svc.world.generate.calendar import Edition, build_calendar, events_of, series_of
from svc.world.generate.context import Context
from svc.world.generate.draws import Event, Match
from svc.world.generate.ids import sub_rng
from svc.world.generate.prices import priced
from svc.world.generate.scales import SCALES
from svc.world.generate.teams import TeamEvent

FRAGMENT_TABLES = ("ties", "matches", "rallies")  # the tables chunks write; the orchestrator the rest
CORRECTION_POOL = 5000  # finished matches kept as candidates for a published-wrong result
CHUNKS_PER_PROCESS = 4  # more chunks than processes: a process that finishes early takes the next


class Priced(NamedTuple):
    """What the odds of one priced match are made from (prices.odds_rows)."""

    id: str
    s1: float
    s2: float
    rules: Rules
    disc: str
    status: str


class Finished(NamedTuple):
    """A finished match that may have been published wrong at first (corrections.corrections)."""

    id: str
    g1: list[int]
    g2: list[int]
    winner: int | None
    end_at: dt.datetime | None
    day: dt.date | None


@attrs.define
class ChunkResult:
    """A chunk's share of the bundle: its fragment files and rows, and what the orchestrator needs."""

    first: int
    stop: int
    rows: dict[str, int]
    priced: list[Priced]
    finished: list[Finished]
    results: list[tuple[dt.date, str, tuple[int, ...], int]]  # ranking results, entries by player idx
    used: list[int]  # players (idx) who played
    made_through: int  # the players' cohorts made, by birth year

    def fragment(self, out_dir: Path, table: str) -> Path:
        return fragment_path(out_dir, table, self.first)


def fragment_path(out_dir: Path, table: str, first: int) -> Path:
    return Path(out_dir) / f"{table}.{first:06d}.csv"


def play_chunk(ctx: Context, calendar: list[Edition], first: int, stop: int, out_dir: Path) -> ChunkResult:
    """Plays the editions calendar[first:stop] that are not still to come, into fragments in `out_dir`."""
    out = _ChunkOut(out_dir, first)
    try:
        for ed in calendar[first:stop]:
            if ed.state != "future":
                _edition(ctx, ed, out)
    finally:
        out.close()
    return ChunkResult(
        first,
        stop,
        out.counts,
        out.priced,
        out.finished,
        out.results,
        [p.idx for p in ctx.people.all if p.used],
        ctx.people.made_through,
    )


class _ChunkOut:
    def __init__(self, out_dir: Path, first: int) -> None:
        self.files = {
            t: open(fragment_path(out_dir, t, first), "w", encoding="utf-8", newline="") for t in FRAGMENT_TABLES
        }
        self.writers = {t: csv.writer(f, lineterminator="\n") for t, f in self.files.items()}
        self.counts = dict.fromkeys(FRAGMENT_TABLES, 0)
        self.priced: list[Priced] = []
        self.finished: list[Finished] = []
        self.results: list[tuple[dt.date, str, tuple[int, ...], int]] = []

    def rows(self, table: str, rows: Iterable[Iterable[Any]]) -> None:
        """Rows as BundleWriter writes them."""
        w = self.writers[table]
        n = 0
        for values in rows:
            w.writerow([cell(v) for v in values])
            n += 1
        self.counts[table] += n

    def close(self) -> None:
        for f in self.files.values():
            f.close()


def _edition(ctx: Context, ed: Edition, out: _ChunkOut) -> None:
    if ed.series.team:
        team = TeamEvent(ctx, ed)
        matches = team.play()
        out.rows("ties", team.ties_out)
    else:
        matches = []
        for disc, sport_class in events_of(ed):
            ev = Event(ctx, ed, disc, sport_class)
            played, entries = (draws.finals_event if ed.series.kind == "finals" else draws.knockout)(ctx, ev)
            out.results.extend(
                (day, d, tuple(p.idx for p in side), points)
                for day, d, side, points in rankings.results_of(ev, played, entries)
            )
            matches.extend(played)
    timetable.schedule(ctx.seed, ed, matches)
    if ed.state == "current":
        matches = timetable.split_current(ctx.now, matches)
    _emit(ctx, ed, matches, out)


def _emit(ctx: Context, ed: Edition, matches: list[Match], out: _ChunkOut) -> None:
    odds_ok = priced(ed, ctx.scale)
    for m in matches:
        out.rows("matches", (m.row(),))
        if odds_ok and m.outcome != "walkover":
            out.priced.append(Priced(m.id, m.s1, m.s2, m.rules, m.disc, m.status))
        if m.rallies and m.outcome != "walkover":
            mid = m.id  # a rally is (game, rally, server, winner, score1, score2): the table's order
            out.writers["rallies"].writerows([(mid, *r) for r in m.rallies])
            out.counts["rallies"] += len(m.rallies)
        if ed.state == "past" and m.outcome == "played" and len(out.finished) < CORRECTION_POOL:
            if sub_rng(ctx.seed, "corr?", m.id).random() < 0.05:
                out.finished.append(Finished(m.id, list(m.g1), list(m.g2), m.winner, m.end_at, m.day))


# --------------------------------------------------------------------------- splitting


def split(calendar: list[Edition], ctx: Context, chunks: int) -> list[tuple[int, int]]:
    """[first, stop) ranges of the calendar, in order, about `chunks` of them of about equal work,
    each beginning where the editions on either side cannot see each other (the module's note)."""
    if chunks <= 1 or not calendar:
        return [(0, len(calendar))]
    played = [ed.state != "future" for ed in calendar]
    dated = [ed.start is not None and ed.end is not None and p for ed, p in zip(calendar, played)]
    # every edition before index i: the last day and the last starting week any of them booked
    last_day: list[dt.date | None] = [None]
    last_week: list[tuple[int, int] | None] = [None]
    for ed, d in zip(calendar, dated):
        day, week = last_day[-1], last_week[-1]
        if d:
            assert ed.start is not None and ed.end is not None
            day = max(day, ed.end) if day else ed.end
            wk = ed.start.isocalendar()[:2]
            week = max(week, wk) if week else wk
        last_day.append(day)
        last_week.append(week)
    # every edition from index i on: the first day and the first starting week
    first_day: list[dt.date | None] = [None] * (len(calendar) + 1)
    first_week: list[tuple[int, int] | None] = [None] * (len(calendar) + 1)
    for i in range(len(calendar) - 1, -1, -1):
        ed, day, week = calendar[i], first_day[i + 1], first_week[i + 1]
        if dated[i]:
            assert ed.start is not None
            day = min(day, ed.start) if day else ed.start
            wk = ed.start.isocalendar()[:2]
            week = min(week, wk) if week else wk
        first_day[i], first_week[i] = day, week

    def clean(i: int) -> bool:
        if calendar[i - 1].play_year == calendar[i].play_year:
            return False  # a season's count of editions and draws runs through its year
        a_day, b_day, a_week, b_week = last_day[i], first_day[i], last_week[i], first_week[i]
        return (a_day is None or b_day is None or a_day < b_day) and (
            a_week is None or b_week is None or a_week < b_week
        )

    weights = [_work(ed, ctx) if p else 0.0 for ed, p in zip(calendar, played)]
    total = sum(weights)
    out: list[tuple[int, int]] = []
    first, done = 0, 0.0
    for i in range(1, len(calendar)):
        done += weights[i - 1]
        if done >= total * (len(out) + 1) / chunks and clean(i):
            out.append((first, i))
            first = i
    out.append((first, len(calendar)))
    return out


def _work(ed: Edition, ctx: Context) -> float:
    """A rough measure of an edition's work: its draws' sizes, more where rallies are played out."""
    size = ed.draw_size or 32
    rallies = 3.0 if ed.end is not None and ed.end >= ctx.rally_from else 1.0
    return len(events_of(ed)) * size * rallies


# --------------------------------------------------------------------------- worker processes

_worker: tuple[Context, list[Edition]] | None = None  # a worker process's world, made once


def start_worker(seed: int, scale: str, now: dt.datetime) -> None:
    """A pool's initializer: the context and calendar of the world, kept for the process's chunks
    (the players' bookings carry over from one chunk to a later one, as in one pass)."""
    global _worker
    ctx = Context.make(seed, SCALES[scale], now)
    _worker = (ctx, build_calendar(ctx.seed, ctx.scale, ctx.as_of, series_of(ctx.scale)))


def play_in_worker(task: tuple[int, int, str]) -> ChunkResult:
    assert _worker is not None, "start_worker first"
    first, stop, out_dir = task
    ctx, calendar = _worker
    return play_chunk(ctx, calendar, first, stop, Path(out_dir))
