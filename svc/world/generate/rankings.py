"""The world ranking: points per result by tier and round, weekly lists over a 52-week
window (best ten results), top lists from 2009, every ranked player from September 2026."""

from __future__ import annotations

import datetime as dt
import heapq
from collections import deque

from svc.core.progress import Progress
from svc.world import facts
from svc.world.bundle import BundleWriter
from svc.world.generate.calendar import DISCIPLINES, Edition
from svc.world.generate.context import Context
from svc.world.generate.draws import Event, Match
from svc.world.generate.ids import sub_rng
from svc.world.naming import compose, is_denied

RANKING_FROM = dt.date(2009, 10, 1)  # number ones counted from 1 October 2009
TOP_LISTS_UNTIL = dt.date(2026, 8, 31)  # top lists to the end of August 2026
FULL_LISTS_FROM = dt.date(2026, 9, 1)  # every ranked player from September 2026
RANKING_WINDOW = dt.timedelta(weeks=52)
RANKING_BEST = 10  # best ten tournaments count
ROUND_FACTOR = {"R128": 0.06, "R64": 0.1, "R32": 0.16, "R16": 0.3, "QF": 0.45, "SF": 0.6, "3P": 0.65, "F": 1.0}


def ranking_points(ed: Edition) -> int:
    """Winner's points by tier (a simplified modern points table)."""
    by_tier = {
        "Super 1000": 12000,
        "Super 750": 11000,
        "Super 500": 9200,
        "Super 300": 7000,
        "Super 100": 5500,
        "Superseries Premier": 11000,
        "Superseries": 9200,
        "Grand Prix Gold": 7000,
        "Grand Prix": 5500,
        "World Tour Finals": 12000,
        "Superseries Finals": 12000,
        "International": 3000,
        "International Challenge": 4000,
        "International Series": 2500,
        "Future Series": 1700,
    }
    if ed.series.kind in ("worlds", "olympics"):
        return 13000
    if ed.tier in by_tier:
        return by_tier[ed.tier]
    return 7000 if ed.series.kind in ("continental", "multi") else 4000


def results_of(ev: Event, matches: list[Match], entries: list[tuple]) -> list[tuple[dt.date, str, tuple, int]]:
    """The ranking results of one event: (date, discipline, entry, points) for each entry that played."""
    ed = ev.ed
    if ed.series.para or ed.series.level != "senior" or ed.end is None or ed.state != "past":
        return []
    if ed.end < RANKING_FROM - RANKING_WINDOW:
        return []
    top = ranking_points(ed)
    reached: dict[tuple, float] = {}
    for m in matches:
        if m.round_code is None:
            factor = 0.45
        else:
            factor = ROUND_FACTOR[m.round_code]
        for side, won in ((m.side1, m.winner == 1), (m.side2, m.winner == 2)):
            f = factor * (1.0 if won and m.round_code == "F" else 0.8 if m.round_code == "F" else 1.0)
            reached[side] = max(reached.get(side, 0.0), f)
    return [(ed.end, ev.disc, side, int(top * reached[side])) for side in entries if side in reached]


def write_rankings(
    w: BundleWriter, ctx: Context, results: list[tuple[dt.date, str, tuple, int]], progress: Progress = None
) -> None:
    """The weekly lists of every discipline from `results`, into the bundle's rankings table;
    every player on a list is marked used (written to the players table)."""
    results = sorted(results, key=lambda r: (r[0], r[1], [p.idx for p in r[2]], r[3]))
    first_week = facts.week_tuesday(RANKING_FROM)
    weeks = []
    wk = first_week
    while wk <= ctx.as_of:
        weeks.append(wk)
        wk += dt.timedelta(weeks=1)
    unmatched = unmatched_names(ctx)
    orders: dict[tuple, list[int]] = {}  # an entry's players' idx: ties broken by them every week

    def order_of(e: tuple) -> list[int]:
        got = orders.get(e)
        if got is None:
            got = orders[e] = [p.idx for p in e]
        return got

    for d in DISCIPLINES:
        rs = [r for r in results if r[1] == d]
        window: deque[tuple[dt.date, tuple, int]] = deque()
        add_i = 0
        per_entry: dict[tuple, list[tuple[dt.date, int]]] = {}
        totals: dict[tuple, int] = {}
        for week in weeks:
            changed = set()
            while add_i < len(rs) and rs[add_i][0] < week:
                date, _d, entry, pts = rs[add_i]
                per_entry.setdefault(entry, []).append((date, pts))
                window.append((date, entry, pts))
                changed.add(entry)
                add_i += 1
            cutoff = week - RANKING_WINDOW
            while window and window[0][0] < cutoff:  # results older than 52 weeks drop out
                date, entry, pts = window.popleft()
                per_entry[entry].remove((date, pts))
                changed.add(entry)
            for entry in sorted(changed, key=order_of):
                lst = per_entry.get(entry) or []
                if lst:
                    totals[entry] = sum(sorted((p for _dd, p in lst), reverse=True)[:RANKING_BEST])
                else:
                    totals.pop(entry, None)
                    per_entry.pop(entry, None)
            if not totals:
                continue
            full = week >= FULL_LISTS_FROM
            if not full and week > TOP_LISTS_UNTIL:
                continue

            def key(e: tuple, totals: dict[tuple, int] = totals) -> tuple:
                return (-totals[e], order_of(e))

            if full:
                ranked = sorted(totals, key=key)
            else:
                ranked = heapq.nsmallest(ctx.scale.ranking_top, totals, key=key)
            rows = [
                (" / ".join(p.name for p in e), e[0].id, e[1].id if len(e) > 1 else None, totals[e]) for e in ranked
            ]
            if full:
                # players the feed could not match: invented names, at the tail of the list
                low = rows[-1][3] if rows else 100
                for j, nm in enumerate(unmatched[d]):
                    rows.append((nm, None, None, max(1, low - 10 * (j + 1))))
            w.rows(
                "rankings",
                ((week, d, rank, name, p1, p2, pts, full) for rank, (name, p1, p2, pts) in enumerate(rows, 1)),
            )
            for e in ranked:
                for p in e:
                    p.used = True
        if progress:
            progress("rankings", DISCIPLINES.index(d) + 1, len(DISCIPLINES))


def unmatched_names(ctx: Context) -> dict[str, list[str]]:
    """Per discipline three names a feed could not match: invented, never a player's name."""
    rng = sub_rng(ctx.seed, "unmatched")
    taken = {p.name for p in ctx.people.all}
    out: dict[str, list[str]] = {}

    def fresh(gender: str) -> str:
        while True:
            nation = rng.choice(("ESP", "DEN", "FRA", "NGR", "PER"))
            # two given names: a clash with a generated player (mostly one given name) is rare
            name = compose(rng, nation, gender, 1990, extra_given=True)
            if name not in taken and not is_denied(name):
                taken.add(name)
                return name

    for d in DISCIPLINES:
        genders = {"MS": "M", "WS": "W", "MD": "MM", "WD": "WW", "XD": "MW"}[d]
        out[d] = [" / ".join(fresh(g) for g in genders) for _ in range(3)]
    return out
