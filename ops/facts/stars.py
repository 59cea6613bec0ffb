"""Derives svc/world/data/stars.csv: the great players of the public record and of the real World
Tour 2018-2020, each as a discipline, a nation and the years of their honours, without their names.

    python -m ops.facts.stars

The generated world gives each of them an invented counterpart: a player of the same nation and
discipline at their best in the same years (svc.world.generate.people). The world's best then come
from the nations the real best came from, in their eras -- the level at which the world is real --
while its people stay invented. Honours: World Championships medals 1977-2025 (gold 4, silver 3,
bronze 2; both players of a pair, each with their own nation where the pair was of two) and the
real World Tour's finals won 2018-2020 (1 each; in doubles the players the files name -- side two
of a doubles row lost its second player). One person's spellings are one star (the importer's own
identities: "Shi Yuqi" is "Yu Qi Shi").
"""

from __future__ import annotations

import csv
import gzip
import hashlib
from collections import defaultdict
from pathlib import Path

from svc.world.generate.ids import fold
from svc.world.sources.names import Identities
from svc.world.sources.record import TWO_NATION_PAIRS, WORLDS, read_medals, read_two_nation_pairs
from svc.world.sources.rows import Problem

ROOT = Path(__file__).resolve().parents[2]
RECORD = ROOT / "svc" / "world" / "sources" / "data" / "record"
TOUR = ROOT / "svc" / "world" / "sources" / "data" / "bwf-world-tour"
OUT = ROOT / "svc" / "world" / "data" / "stars.csv"

MEDAL_POINTS = {1: 4, 2: 3, 3: 2}
TOUR_TITLE = 1
DISCIPLINES = ("MS", "WS", "MD", "WD", "XD")
GENDERS = {"MS": "MM", "WS": "WW", "MD": "MM", "WD": "WW", "XD": "MW"}  # of the names of a row, in order


def honours() -> list[tuple[str, str, str, str, int]]:
    """(name, nation, discipline, gender, year, points) for every honour: medals and titles."""
    problems: list[Problem] = []
    own = read_two_nation_pairs(RECORD / TWO_NATION_PAIRS, problems)
    out = []
    for medal in read_medals(RECORD / WORLDS, problems):
        for i, name in enumerate(medal.names):
            nation = own.get((medal.year, medal.discipline, fold(name)))
            out.append(
                (
                    name,
                    nation.country if nation else medal.country,
                    medal.discipline,
                    GENDERS[medal.discipline][i],
                    medal.year,
                    MEDAL_POINTS[medal.place],
                )
            )
    if problems:
        raise SystemExit("the record does not read: " + "; ".join(str(p) for p in problems))
    for d in DISCIPLINES:
        with gzip.open(TOUR / f"{d.lower()}.csv.gz", "rt", newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                if row["round"] != "Final" or row["winner"] not in ("1", "2"):
                    continue
                side = "one" if row["winner"] == "1" else "two"
                year = int(row["date"][-4:])
                if d in ("MS", "WS"):
                    players = [(row[f"team_{side}_players"], row[f"team_{side}_nationalities"])]
                else:  # side two's second player is lost in the files (their README)
                    seats = ("player_one", "player_two") if side == "one" else ("player_one",)
                    players = [(row[f"team_{side}_{s}"], row[f"team_{side}_{s}_nationality"]) for s in seats]
                for i, (name, nation) in enumerate(players):
                    out.append((name, nation, d, GENDERS[d][i], year, TOUR_TITLE))
    return out


def stars() -> list[tuple[str, str, str, str, int, int, int]]:
    """(star, discipline, nation, gender, first year, last year, honours) per person and discipline."""
    rows = honours()
    people = Identities()
    for name, nation, *_ in rows:
        people.add(name, nation)
    grouped: dict[tuple[str, str], list[tuple[str, str, int, int]]] = defaultdict(list)
    for name, nation, d, gender, year, points in rows:
        grouped[(people.key(name, nation), d)].append((nation, gender, year, points))
    out = []
    for (person, d), got in grouped.items():
        nation = max({n for n, *_ in got}, key=lambda n: (sum(1 for g in got if g[0] == n), n))
        gender = got[0][1]
        years = [y for *_, y, _p in got]
        star = hashlib.blake2b(person.encode(), digest_size=5).hexdigest()  # the person, never their name
        out.append((star, d, nation, gender, min(years), max(years), sum(p for *_, p in got)))
    out.sort(key=lambda r: (r[4], r[1], r[0]))
    return out


HEADER = """\
# The great players of the public record and of the real World Tour 2018-2020, without their names:
# one row per person and discipline, with their nation, the first and last year of their honours
# and the honours' points (World Championships medals 1977-2025: gold 4, silver 3, bronze 2; World
# Tour finals won 2018-2020: 1 each). The generated world gives each an invented counterpart of the
# same nation and discipline at their best in those years (svc/world/generate/people.py). `star` is
# a hash of the person's identity, so that one person is one row. Made by ops/facts/stars.py; do not
# edit by hand, run it again.
# source: ../shared/data/record/ (World Championships medallists, CC BY-SA 4.0 "Wikipedia
# contributors, via V0latix/DataSport"), svc/world/sources/data/record/two-nation-pairs.csv, the real
# World Tour finals 2018-2020 (bwf-world-tour, CC0).
"""


def main() -> int:
    rows = stars()
    with open(OUT, "w", newline="", encoding="utf-8") as f:
        f.write(HEADER)
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["star", "discipline", "nation", "gender", "first_year", "last_year", "honours"])
        w.writerows(rows)
    print(f"{len(rows)} stars written to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
