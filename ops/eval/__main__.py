"""ops/eval: how well the own rating forecasts, against the market, a ranking baseline, a plain
Elo and (on the generated world) the generator's hidden truth. One command:

    .venv/bin/python -m ops.eval [--world generated|real|both] [--fit]

Each world is built once into its own database on the embedded PostgreSQL (or the server of
DATABASE_URL): `svc_eval_demo` (the demo world, seed 1899, as of 2026-11-23) and `svc_eval_bwf`
(the real BWF World Tour 2018-2020). Every forecast is rolling and never peeks: the matches of a
day are forecast from the ratings at the start of that day (svc.rating.history.rate_archive, the
code the service runs). Settings were fitted on training seasons only (svc/rating/fitted.py);
`--fit` searches them again on those seasons and prints what it finds.

Generated world: every settled match with closing prices (2005 on), and the held-out seasons
(after the training ones) apart. Methods: the own rating; "higher-ranked wins" as a logistic on
log(rank2) - log(rank1) of the weekly lists in force (from 2013; unranked = one past the list's
end), fitted on 2013-2014; the closing market's margin-free chance; the generator's own chance
from the hidden strengths (the ceiling).
Real world: the 2020 matches after training on 2018-2019, the own rating against a plain Elo (one
fixed K, fitted on 2019, no margin, no deviation, newcomers at 1500).

Prints Markdown tables (accuracy, log-loss, Brier, per discipline and overall; calibration by
tenth of the chance) and keeps them in ops/eval/out/.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import datetime as dt
import math
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from svc.access.plans import prepare_database
from svc.core import pgserver
from svc.core.db import connect_asyncio
from svc.core.progress import ProgressBar
from svc.core.settings import Settings as ServiceSettings
from svc.core.sqlfiles import Q
from svc.rating.fit import Scores, scores
from svc.rating.fitted import GENERATED, REAL
from svc.rating.history import rate_archive
from svc.rating.model import Settings, rated

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "ops" / "eval" / "out"
DISCIPLINES = ("MS", "WS", "MD", "WD", "XD")
DEMO_AS_OF = dt.date(2026, 11, 23)
MIN_DECILE = 200  # the calibration target holds for tenths with at least this many matches

Picked = list[tuple[float, bool]]


# -- worlds ------------------------------------------------------------------------------------
async def world_rows(server_url: str, world: str) -> tuple[list[Any], Any]:
    """The rated results of the world's database (built on first use) and a connection to it."""
    from svc.world.replace import generate_world, load_bwf_world, world_is_empty

    name = {"generated": "svc_eval_demo", "real": "svc_eval_bwf"}[world]
    admin = await connect_asyncio(server_url)
    try:
        if not await admin.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
            await admin.execute(f"CREATE DATABASE {name}")
    finally:
        await admin.close()
    url = _with_database(server_url, name)
    conn = await connect_asyncio(url)
    await prepare_database(conn)
    if await world_is_empty(conn):
        print(f"building the {world} world into {name} (once)", file=sys.stderr)
        bar = ProgressBar()
        try:
            if world == "generated":
                await generate_world(conn, scale="demo", seed=1899, as_of=DEMO_AS_OF, progress=bar)
            else:
                await load_bwf_world(conn, progress=bar)
        finally:
            bar.close()
    return list(await conn.fetch(Q.ratings.results.sql)), conn


def _with_database(url: str, name: str) -> str:
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


# -- measures ----------------------------------------------------------------------------------
def calibration(picked: Picked) -> list[tuple[str, int, float, float]]:
    """(tenth, matches, mean chance, share won) of side 1's chance in tenths."""
    bins: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for p, won in picked:
        bins[min(9, int(p * 10))].append((p, won))
    return [
        (f"{b / 10:.1f}-{(b + 1) / 10:.1f}", len(v), sum(p for p, _ in v) / len(v), sum(w for _, w in v) / len(v))
        for b, v in sorted(bins.items())
    ]


def worst_calibration(picked: Picked) -> float:
    """The largest gap, in percentage points, between chance and result in a tenth of 200+ matches."""
    gaps = [abs(mean - won) * 100 for _, n, mean, won in calibration(picked) if n >= MIN_DECILE]
    return max(gaps) if gaps else math.nan


def table(title: str, methods: dict[str, dict[str, Picked]]) -> str:
    lines = [
        f"### {title}",
        "",
        "| method | discipline | matches | accuracy | log-loss | Brier | worst tenth (points) |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for name, by in methods.items():
        for disc in (*DISCIPLINES, "all"):
            picked = by.get(disc, [])
            if not picked:
                continue
            s: Scores = scores(picked)
            worst = worst_calibration(picked)
            lines.append(
                f"| {name} | {disc} | {s.matches} | {s.accuracy:.4f} | {s.log_loss:.4f} | {s.brier:.4f} | "
                f"{'no tenth of 200+' if math.isnan(worst) else f'{worst:.2f}'} |"
            )
    return "\n".join(lines)


def calibration_table(title: str, methods: dict[str, dict[str, Picked]]) -> str:
    lines = [
        f"### {title}: calibration (all disciplines)",
        "",
        "| method | tenth of side 1's chance | matches | mean chance | share won | gap (points) |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for name, by in methods.items():
        for tenth, n, mean, won in calibration(by["all"]):
            lines.append(f"| {name} | {tenth} | {n} | {mean:.4f} | {won:.4f} | {abs(mean - won) * 100:.2f} |")
    return "\n".join(lines)


def by_discipline(rows: list[Any], chance: Callable[[Any], float | None]) -> dict[str, Picked]:
    out: dict[str, Picked] = defaultdict(list)
    for r in rows:
        p = chance(r)
        if p is None:
            continue
        out[r["discipline"]].append((p, r["winner"] == 1))
        out["all"].append((p, r["winner"] == 1))
    return out


def own_forecasts(settings: Settings, rows: list[Any]) -> dict[str, float]:
    return {k: f.chance for k, f in rate_archive(settings, rows).forecasts.items()}


# -- baselines -----------------------------------------------------------------------------------
def fit_logistic_slope(xs: list[tuple[float, bool]]) -> float:
    """The slope a of P(side 1) = sigmoid(a x), by Newton's method (no intercept: sides are symmetric)."""
    a = 0.0
    for _ in range(50):
        grad = hess = 0.0
        for x, won in xs:
            p = 1 / (1 + math.exp(-a * x))
            grad += (won - p) * x
            hess += p * (1 - p) * x * x
        if hess == 0:
            break
        step = grad / hess
        a += step
        if abs(step) < 1e-9:
            break
    return a


async def rank_feature(conn: Any, rows: list[Any]) -> dict[str, float]:
    """log(rank2) - log(rank1) of each match from the list in force on its day (from 2013)."""
    weeks: dict[str, list[dt.date]] = defaultdict(list)
    ranks: dict[tuple[str, dt.date], dict[frozenset, int]] = defaultdict(dict)
    ends: dict[tuple[str, dt.date], int] = defaultdict(int)
    for r in await conn.fetch(
        "SELECT discipline, week, rank, player1, player2 FROM rankings WHERE player1 IS NOT NULL "
        "ORDER BY discipline, week"
    ):
        key = (r["discipline"], r["week"])
        if not weeks[r["discipline"]] or weeks[r["discipline"]][-1] != r["week"]:
            weeks[r["discipline"]].append(r["week"])
        ranks[key][frozenset(x for x in (r["player1"], r["player2"]) if x)] = r["rank"]
        ends[key] = max(ends[key], r["rank"])
    out = {}
    for m in rows:
        w = weeks.get(m["discipline"], [])
        i = bisect.bisect_right(w, m["day"]) - 1
        if i < 0:
            continue
        key = (m["discipline"], w[i])
        unranked = ends[key] + 1
        r1 = ranks[key].get(frozenset(m["side1"]), unranked)
        r2 = ranks[key].get(frozenset(m["side2"]), unranked)
        out[m["id"]] = math.log(r2) - math.log(r1)
    return out


async def hidden_truth(conn: Any, rows: list[Any]) -> dict[str, float]:
    """The generator's own chance of side 1 (the ceiling): the hidden strengths in the match's year,
    averaged over the form on the day, under the era's rules, as its odds are made."""
    from svc.world import engine
    from svc.world.generate import SCALES
    from svc.world.generate.people import People

    # the generator's players again (it is deterministic): their strength curves are not stored
    meta = {r["key"]: r["value"] for r in await conn.fetch("SELECT key, value FROM world_meta")}
    people = People(int(meta["seed"]), SCALES[meta["scale"]])
    people.warm(dt.date.fromisoformat(meta["as_of"][:10]).year + 1)
    players = {p.id: p for p in people.all}

    def strength(pid: str, year: int) -> float | None:
        p = players.get(pid)
        return None if p is None else p.strength(year)

    out = {}
    for m in rows:
        year = m["day"].year
        s = [[strength(p, year) for p in side] for side in (m["side1"], m["side2"])]
        if any(x is None for side in s for x in side):
            continue
        rules = engine.era_rules(m["discipline"], m["day"])
        out[m["id"]] = engine.match_chance(sum(s[0]) / len(s[0]) - sum(s[1]) / len(s[1]), rules, m["discipline"])[0]
    return out


def plain_elo(rows: list[Any], k: float) -> dict[str, float]:
    """Elo with one fixed K: newcomers at 1500, no margin, no deviation, a day's matches from the
    ratings at its start."""
    rating: dict[tuple[str, str], float] = defaultdict(lambda: 1500.0)
    out = {}
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j]["day"] == rows[i]["day"]:
            j += 1
        delta: dict[tuple[str, str], float] = defaultdict(float)
        for m in rows[i:j]:
            if not rated(m["outcome"]):
                continue
            d = m["discipline"]
            r1 = sum(rating[(p, d)] for p in m["side1"]) / len(m["side1"])
            r2 = sum(rating[(p, d)] for p in m["side2"]) / len(m["side2"])
            p1 = 1 / (1 + 10 ** (-(r1 - r2) / 400))
            out[m["id"]] = p1
            s = (m["winner"] == 1) - p1
            for p in m["side1"]:
                delta[(p, d)] += k * s
            for p in m["side2"]:
                delta[(p, d)] -= k * s
        for key, v in delta.items():
            rating[key] += v
        i = j
    return out


# -- fitting ---------------------------------------------------------------------------------------
GRID = {
    "initial_deviation": (0.8, 0.9, 1.1, 1.25),
    "min_deviation": (0.75, 1.3),
    "drift": (0.8, 1.2, 1.5),
    "margin_weight": (0.0, 0.5, 1.25),
    "margin_slope": (0.7, 1.4),
    "points": (0.0, 0.5, 1.5),
    "entry_offset": (0.0, 0.5, 1.5),
    "carry": (0.0, 0.6, 1.3),
    "established": (0.5, 2.0),
}


def fit(settings: Settings, rows: list[Any], picked_ids: set[str], first: int, last: int) -> Settings:
    """Coordinate search of the settings on the matches of seasons first..last (training only)."""

    def loss(s: Settings) -> float:
        f = own_forecasts(s, rows)
        got = [
            (f[r["id"]], r["winner"] == 1)
            for r in rows
            if r["id"] in f and first <= r["day"].year <= last and (not picked_ids or r["id"] in picked_ids)
        ]
        return scores(got).log_loss

    best = loss(settings)
    print(f"fit: start {best:.5f}", file=sys.stderr)
    for name, factors in GRID.items():
        for factor in factors:
            value = getattr(settings, name) * factor
            value = round(value) if name == "established" else round(value, 3)
            if name == "established" and value < 1:
                continue
            trial = attrs.evolve(settings, **{name: value})
            got = loss(trial)
            if got < best - 1e-5:
                best, settings = got, trial
                print(f"fit: {name} = {value} -> {got:.5f}", file=sys.stderr)
    return settings


# -- the two evaluations -------------------------------------------------------------------------------
async def generated(server_url: str, refit: bool) -> str:
    rows, conn = await world_rows(server_url, "generated")
    try:
        market = {
            r["match_id"]: r["chance1"] for r in await conn.fetch("SELECT match_id, chance1 FROM backtest_matches")
        }
        settings = GENERATED
        if refit:
            settings = fit(settings, rows, set(market), 2005, GENERATED.trained_to or 2014)
            print(f"fitted: {settings}", file=sys.stderr)
        t = time.monotonic()
        own = own_forecasts(settings, rows)
        seconds = time.monotonic() - t
        priced = [r for r in rows if r["id"] in market and r["id"] in own]
        ranks = await rank_feature(conn, priced)
        train = [(ranks[r["id"]], r["winner"] == 1) for r in priced if r["id"] in ranks and r["day"].year <= 2014]
        slope = fit_logistic_slope(train)
        truth = await hidden_truth(conn, priced)
    finally:
        await conn.close()
    first_held = (settings.trained_to or 2014) + 1
    parts = [
        f"## Generated world (demo, seed 1899): {len(rows)} finished matches rated in {seconds:.1f} s; "
        f"model {settings.version}, fitted on seasons to {settings.trained_to}",
        f"Ranking baseline: P = sigmoid({slope:.3f} x (log rank2 - log rank1)), fitted on {len(train)} priced "
        f"matches of 2013-2014.",
    ]
    for label, subset in (
        (f"every season with prices ({min(r['day'].year for r in priced)} on)", priced),
        (f"held-out seasons ({first_held} on)", [r for r in priced if r["day"].year >= first_held]),
    ):
        ranked = [r for r in subset if r["id"] in ranks]
        methods = {
            "own rating": by_discipline(subset, lambda r: own[r["id"]]),
            "closing market": by_discipline(subset, lambda r: market[r["id"]]),
            "hidden truth": by_discipline(subset, lambda r: truth.get(r["id"])),
        }
        parts.append(table(label, methods))
        both = {
            "own rating": by_discipline(ranked, lambda r: own[r["id"]]),
            "ranking baseline": by_discipline(ranked, lambda r: 1 / (1 + math.exp(-slope * ranks[r["id"]]))),
            "closing market": by_discipline(ranked, lambda r: market[r["id"]]),
        }
        parts.append(table(f"{label}, matches with a list in force (2013 on)", both))
        parts.append(calibration_table(label, methods))
    return "\n\n".join(parts)


async def real(server_url: str, refit: bool) -> str:
    rows, conn = await world_rows(server_url, "real")
    await conn.close()
    settings = REAL
    if refit:
        settings = fit(settings, rows, set(), 2019, 2019)
        print(f"fitted: {settings}", file=sys.stderr)
    own = own_forecasts(settings, rows)
    # the plain Elo's K, fitted like the own settings on 2019 (after 2018 as a run-in)
    best_k, best = 0.0, math.inf
    for k in (8, 12, 16, 24, 32, 48, 64, 80, 96, 128, 160):
        f = plain_elo(rows, k)
        got = scores([(f[r["id"]], r["winner"] == 1) for r in rows if r["id"] in f and r["day"].year == 2019]).log_loss
        if got < best:
            best_k, best = k, got
    elo = plain_elo(rows, best_k)
    test = [r for r in rows if r["day"].year == 2020 and r["id"] in own and r["id"] in elo]
    methods = {
        "own rating": by_discipline(test, lambda r: own[r["id"]]),
        f"plain Elo (K {best_k:g})": by_discipline(test, lambda r: elo[r["id"]]),
    }
    return "\n\n".join(
        [
            f"## Real world (BWF World Tour): the 2020 matches after training on 2018-2019; model {settings.version}",
            table("2020", methods),
            calibration_table("2020", methods),
        ]
    )


async def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m ops.eval", description=__doc__.split("\n\n")[0])
    ap.add_argument("--world", choices=("generated", "real", "both"), default="both")
    ap.add_argument("--fit", action="store_true", help="search the settings again on the training seasons")
    args = ap.parse_args(argv)
    settings = ServiceSettings.from_env()
    server_url = settings.database_url or pgserver.start(settings.home)
    parts = ["# Rating evaluation, " + dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")]
    if args.world in ("generated", "both"):
        parts.append(await generated(server_url, args.fit))
    if args.world in ("real", "both"):
        parts.append(await real(server_url, args.fit))
    text = "\n\n".join(parts) + "\n"
    print(text)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"eval-{dt.date.today().isoformat()}.md").write_text(text)


if __name__ == "__main__":
    asyncio.run(main())
