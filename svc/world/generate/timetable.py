"""Times of day: each match's day, start and end in the host's local sessions on a few courts
(from 2000, and for the current week and after); the timetable the live feed plans an edition
by before play; and the current week cut at the world's now into finished, live and scheduled."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

from svc.world import engine
from svc.world.generate.calendar import DISCIPLINES, Edition, utc_offset
from svc.world.generate.context import Context
from svc.world.generate.draws import ROUND_NAMES, Event, Match, edition_days, round_days, rounds_of
from svc.world.generate.ids import sub_rng

TIMES_FROM = 2000  # start/end times of day are recorded from 2000
PLANNED_MIN = 50  # a match's length in a timetable made before play (the engine's matches: ~30-80 min)
NEXT_ROUND_GAP = dt.timedelta(minutes=30)  # from the later feeder's end to its next-round match, at the least


def on_five(at: dt.datetime) -> dt.datetime:
    """The next whole five minutes after `at` (start times are on the five)."""
    return at.replace(second=0, microsecond=0) + dt.timedelta(minutes=5 - at.minute % 5)


def schedule(
    seed: int, ed: Edition, matches: list[Match], minutes_of: Callable[[Match, random.Random], int] | None = None
) -> None:
    """Give each match its day; from 2000 (and in the current week and after) also start and
    end. `minutes_of` gives a match's length (default: from its result)."""
    if ed.start is None:
        return
    timed = ed.play_year >= TIMES_FROM or ed.state != "past"
    if not timed:
        return
    offset = utc_offset(ed)
    rng = sub_rng(seed, "schedule", ed.id)
    by_day: dict[int, list[Match]] = {}
    for m in matches:
        by_day.setdefault(m.day_index, []).append(m)
    order = {c: i for i, c in enumerate(("R128", "R64", "R32", "R16", "QF", "SF", "3P", "F"))}
    for d in sorted(by_day):
        day_matches = sorted(
            by_day[d],
            key=lambda m: (
                order.get(m.round_code, -1) if m.tie_id is None else 0,
                m.tie_id or "",
                m.tie_order or 0,
                DISCIPLINES.index(m.disc),
                m.position,
            ),
        )
        courts = 8 if len(day_matches) > 40 else 5 if len(day_matches) > 20 else 3 if len(day_matches) > 6 else 1
        if ed.series.team:
            courts = 3
        day = ed.start + dt.timedelta(days=d)
        session = dt.datetime(day.year, day.month, day.day, 13 if len(day_matches) <= 5 else 10, tzinfo=dt.UTC) - offset
        free = [session] * courts
        tie_free: dict[str, dt.datetime] = {}
        for m in day_matches:
            c = min(range(courts), key=lambda i: (free[i], i))
            start = free[c]
            for f in m.feeders:
                if f.end_at is not None:
                    start = max(start, f.end_at + NEXT_ROUND_GAP)
            if m.tie_id:
                start = max(start, tie_free.get(m.tie_id, start))
            start = on_five(start)
            if minutes_of is not None:
                minutes = minutes_of(m, rng)
            elif m.outcome == "walkover":
                minutes = 0
            elif m.rallies is not None:
                minutes = max(25, min(90, round(len(m.rallies) * 0.55 + rng.uniform(-4, 6))))
                if m.outcome == "retired":
                    minutes = max(10, minutes)
            else:
                minutes = engine.match_minutes(m.g1, m.g2, m.rules, rng)
            m.start_at = start
            m.end_at = start + dt.timedelta(minutes=minutes)
            m.day = (start + offset).date()
            if minutes:
                free[c] = m.end_at + dt.timedelta(minutes=10)
            if m.tie_id:
                tie_free[m.tie_id] = m.end_at + dt.timedelta(minutes=15)


def timetable(ctx: Context, ed: Edition, events: list[tuple[str, str | None, int]]) -> dict[str, Match]:
    """Every match of an edition's knockout draws as planned (id -> match with start_at, day), made
    before any is played: rounds on their days, the host's local sessions, courts as
    `schedule` gives them, every match planned to last PLANNED_MIN. `events`: (discipline,
    sport class, draw size). The live feed starts first rounds at these times and later
    rounds at them or 30 minutes after both feeders, whichever is later."""
    matches: list[Match] = []
    for disc, sport_class, size in events:
        ev = Event(ctx, ed, disc, sport_class)
        rounds = rounds_of(size)
        day_of = round_days(rounds, edition_days(ed))
        prev: list[Match] = []
        for r, code in enumerate(rounds):
            this = []
            for p in range(1, (len(prev) if prev else size) // 2 + 1):
                m = ev.new_match(code, ROUND_NAMES[code], p, (), ())
                m.day_index = day_of[r]
                if prev:
                    m.feeders = (prev[2 * p - 2], prev[2 * p - 1])
                this.append(m)
            matches.extend(this)
            if code == "SF" and ed.series.bronze_match and len(this) == 2:
                m = ev.new_match("3P", ROUND_NAMES["3P"], 1, (), ())
                m.day_index, m.feeders = day_of[r + 1], tuple(this)
                matches.append(m)
            prev = this
    schedule(ctx.seed, ed, matches, minutes_of=lambda m, rng: PLANNED_MIN)
    return {m.id: m for m in matches}


def split_current(now: dt.datetime, matches: list[Match]) -> list[Match]:
    """As of noon UTC: finished before now, live across now, scheduled after; unknown sides dropped."""
    keep = []
    state: dict[int, str] = {}
    for m in sorted(matches, key=lambda m: m.start_at):
        if any(state.get(id(f)) != "finished" for f in m.feeders):
            state[id(m)] = "absent"
            continue
        if m.tie_id and any(
            state.get(id(x)) == "absent" for x in matches if x.tie_id == m.tie_id and x.tie_order < m.tie_order
        ):
            state[id(m)] = "absent"
            continue
        if m.end_at <= now:
            state[id(m)] = "finished"
        elif m.start_at <= now and m.outcome != "walkover":
            state[id(m)] = "live"
            f = (now - m.start_at) / (m.end_at - m.start_at)
            cut = max(1, int(len(m.rallies) * f))
            if cut < len(m.rallies) and m.rallies[cut].game != m.rallies[cut - 1].game:
                cut += 1  # never stop exactly at a game's end: the current game has begun
            m.rallies = m.rallies[:cut]
            m.g1, m.g2 = engine.games_of(m.rallies)
            m.status, m.winner, m.outcome, m.end_at = "live", None, None, None
        else:
            state[id(m)] = "scheduled"
            m.status, m.winner, m.outcome, m.end_at = "scheduled", None, None, None
            m.g1, m.g2, m.rallies = [], [], None
        keep.append(m)
    keep_ids = {id(m) for m in keep}
    return [m for m in matches if id(m) in keep_ids]
