"""Derives svc/world/data/nation_disciplines.csv: each nation's strength in each discipline by
era, from the public record and the real World Tour.

    python -m ops.facts.nation_disciplines [--record DIR] [--tour DIR]

The generated world's people are invented; the nations' fortunes are not (issue "A history a fan
believes"). A nation's strength in a discipline and era is its share of the era's honours there,
against the most honoured nation's: World Championships medals (1977-2025, by discipline: gold 4,
silver 3, bronze 2), Olympic golds (4), Thomas Cup titles (men's singles and doubles, 3), Uber Cup
titles (women's, 3), Sudirman Cup titles (every discipline, 1.5); from 2017 on, the era whose
players won the real World Tour of 2018-2020, three quarters of the share is the nation's share of
those finals. Mixed doubles before the
World Championships (1949-1976) take the mean of the men's and women's shares. The strongest
nation of a discipline and era has 0.95; another FLOOR + (0.95 - FLOOR) * sqrt(share / strongest
share): a nation with honours has contenders (the strongest nation's edge is its depth, which its
many players give it, more than its mean), one with a twentieth of the strongest's still 0.48.
"""

from __future__ import annotations

import argparse
import csv
import gzip
from collections import defaultdict
from pathlib import Path

from svc.world.sources.record import WORLDS, read_medals
from svc.world.sources.rows import Problem

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "svc" / "world" / "sources" / "data" / "record"  # the record as the package ships it
TOUR = ROOT / "svc" / "world" / "sources" / "data" / "bwf-world-tour"  # the real files, compressed
OUT = ROOT / "svc" / "world" / "data" / "nation_disciplines.csv"

ERAS = ((1949, 1976), (1977, 1988), (1989, 2000), (2001, 2008), (2009, 2016), (2017, 2100))
DISCIPLINES = ("MS", "WS", "MD", "WD", "XD")
MEDAL_POINTS = {"gold": 4.0, "silver": 3.0, "bronze": 2.0}
OLYMPIC_GOLD = 4.0
TEAM_TITLE = {"thomas-cup": (("MS", "MD"), 3.0), "uber-cup": (("WS", "WD"), 3.0), "sudirman-cup": (DISCIPLINES, 1.5)}
TOUR_FROM_ERA = 2017  # the era the real World Tour of 2018-2020 speaks for
TOUR_WEIGHT = 1.0  # ... and how much: the record of those years is a few medals, the Tour some 80 finals
TOP = 0.8  # the strongest nation of a discipline and era: the level the era table gives the strongest
SHARE_POWER = 0.35  # flatter than a square root: a nation of a third of the strongest's honours is 0.68 of the way up
FLOOR = 0.3  # the strength a nation with the least honour of an era in a discipline would have


def era_of(year: int) -> tuple[int, int] | None:
    return next((e for e in ERAS if e[0] <= year <= e[1]), None)


def record_points(record: Path) -> dict[tuple[tuple[int, int], str], dict[str, float]]:
    """(era, discipline) -> nation -> points of honour."""
    points: dict[tuple[tuple[int, int], str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    problems: list[Problem] = []
    for medal in read_medals(record / WORLDS, problems):
        era = era_of(medal.year)
        if era:
            points[(era, medal.discipline)][medal.country] += MEDAL_POINTS[medal.medal]
    if problems:
        raise SystemExit("the record does not read: " + "; ".join(str(p) for p in problems))
    with open(record / "champion-nations.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            era = era_of(int(row["edition"]))
            if era is None:
                continue
            if row["event"] == "olympic-games":
                points[(era, row["discipline"])][row["nation"]] += OLYMPIC_GOLD
            else:
                discs, value = TEAM_TITLE[row["event"]]
                for d in discs:
                    points[(era, d)][row["nation"]] += value
    return points


def tour_titles(tour: Path) -> dict[str, dict[str, float]]:
    """discipline -> nation -> finals won on the real World Tour 2018-2020."""
    out: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for d in DISCIPLINES:
        with gzip.open(tour / f"{d.lower()}.csv.gz", "rt", newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                if row["round"] != "Final" or row["winner"] not in ("1", "2"):
                    continue
                side = "one" if row["winner"] == "1" else "two"
                column = f"team_{side}_nationalities" if d in ("MS", "WS") else f"team_{side}_player_one_nationality"
                out[d][row[column]] += 1.0
    return out


def shares(points: dict[str, float]) -> dict[str, float]:
    total = sum(points.values())
    return {n: v / total for n, v in points.items()} if total else {}


def strengths(record: Path, tour: Path) -> list[tuple[str, str, tuple[int, int], float]]:
    """(nation, discipline, era, strength) for every nation with honours there."""
    points = record_points(record)
    titles = tour_titles(tour)
    out = []
    for era in ERAS:
        for d in DISCIPLINES:
            share = shares(points.get((era, d), {}))
            if d == "XD" and not share:  # before mixed doubles had a world title: the men's and women's
                men = shares(
                    {
                        n: sum(points.get((era, x), {}).get(n, 0.0) for x in ("MS", "MD"))
                        for n in {n for x in ("MS", "MD") for n in points.get((era, x), {})}
                    }
                )
                women = shares(
                    {
                        n: sum(points.get((era, x), {}).get(n, 0.0) for x in ("WS", "WD"))
                        for n in {n for x in ("WS", "WD") for n in points.get((era, x), {})}
                    }
                )
                share = {n: (men.get(n, 0.0) + women.get(n, 0.0)) / 2 for n in set(men) | set(women)}
            if era[0] == TOUR_FROM_ERA:
                real = shares(titles.get(d, {}))
                share = {
                    n: (1 - TOUR_WEIGHT) * share.get(n, 0.0) + TOUR_WEIGHT * real.get(n, 0.0)
                    for n in set(share) | set(real)
                }
            if not share:
                continue
            best = max(share.values())
            for nation in sorted(share, key=lambda n: (-share[n], n)):
                out.append((nation, d, era, round(FLOOR + (TOP - FLOOR) * (share[nation] / best) ** SHARE_POWER, 2)))
    return out


HEADER = """\
# Each nation's strength (0..1) in each discipline by era: the share of the era's honours it won
# there, against the most honoured nation's (0.95): strength = 0.35 + 0.6 * sqrt(share / strongest share).
# A nation not listed for a discipline and era keeps its overall strength of the era
# (nation_strengths.csv) less a third. Made by ops/facts/nation_disciplines.py (its docstring gives
# the points of each honour); do not edit by hand, run it again.
# source: ../shared/data/record/ (World Championships medallists 1977-2025, CC BY-SA 4.0 "Wikipedia
# contributors, via V0latix/DataSport"; champion nations of the Thomas, Uber and Sudirman Cups and
# Olympic golds: public record); the real World Tour finals 2018-2020 (bwf-world-tour, CC0), three
# quarters of the era from 2017.
"""


def main() -> int:
    ap = argparse.ArgumentParser(prog="python -m ops.facts.nation_disciplines")
    ap.add_argument("--record", type=Path, default=RECORD)
    ap.add_argument("--tour", type=Path, default=TOUR)
    args = ap.parse_args()
    rows = strengths(args.record, args.tour)
    with open(OUT, "w", newline="", encoding="utf-8") as f:
        f.write(HEADER)
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["nation", "discipline", "from_year", "to_year", "strength"])
        for nation, d, (first, last), s in rows:
            w.writerow([nation, d, first, last, f"{s:.2f}"])
    print(f"{len(rows)} rows written to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
