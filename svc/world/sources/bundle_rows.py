"""The real world as a bundle's rows (docs/bundle.md): the tables written from what the builder
read (svc.world.sources.bwf), each row in the bundle's order, ids derived from what the files
hold (never from row order)."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from svc.world import facts
from svc.world.bundle import FORMAT_VERSION, BundleWriter
from svc.world.generate.ids import make_id, slugify
from svc.world.sources import record_finals
from svc.world.sources.bwf_tour import ROUND_ORDER, TourRow
from svc.world.sources.countries import IOC
from svc.world.sources.import_report import Report
from svc.world.sources.persons import Person

SOURCE = "bwf"
GENERATOR = "svc.world.sources.bwf 1"
# world_meta `coverage`: every empty answer over the real world carries it as meta.note
COVERAGE = (
    "The real world (public BWF data) holds the World Tour matches of 2018-2020 (Super 100 to the "
    "Finals), the finals of the World Championships 1977-2025 and of the Thomas and Uber Cups 2002-2024 "
    "from the public record of medallists (who won and lost, no scores, no draws, no other rounds; no "
    "Olympics or Sudirman Cup), the monthly world ranking lists from 2022-11 to 2025-01, no odds, no "
    "live play, no seeds, no venues and no other results before 2018."
)


def write(
    out_dir: Path,
    people_by_key: dict[str, Person],
    editions: dict[tuple[str, int], dict[str, Any]],
    matches: list[dict[str, Any]],
    rankings: list[tuple],
    report: Report,
    placed: record_finals.Placed | None = None,
) -> dict[str, Any]:
    """The bundle (docs/bundle.md) of what the builder read: its people, editions, matches,
    ranking rows and the record's finals; returns the manifest (with the report)."""
    placed = placed or record_finals.Placed()
    w = BundleWriter(out_dir, optional={"tournaments": ("cancelled",)})
    try:
        people = sorted(people_by_key.values(), key=lambda p: p.id)
        report.players_from_matches = sum(1 for p in people if p.in_matches)
        report.players_from_rankings_only = sum(1 for p in people if not p.in_matches and not p.from_record)
        report.name_variants_merged = sum(len(p.spellings) - 1 for p in people if p.spellings)
        codes = (
            {p.country for p in people if p.country}
            | {ed["country"] for ed in editions.values() if ed["country"]}
            | {nation for _ed, *nations in placed.final_ties for nation in nations}
        )
        unknown = sorted(c for c in codes if c not in IOC)
        for c in unknown:
            report.problems.append(f"country code {c}: not an IOC code; kept with its code as its name")
        w.rows("countries", sorted((c, IOC.get(c, c)) for c in codes))
        cities = sorted(
            {(ed["city"], ed["country"]) for ed in editions.values() if ed["city"]}, key=lambda c: (c[0], c[1] or "")
        )
        city_id = {c: i for i, c in enumerate(cities, 1)}
        elevation = {c.name: c.elevation_m for c in facts.CITIES}
        w.rows("cities", ((i, name, country, elevation.get(name)) for (name, country), i in city_id.items()))
        w.rows("venues", ())
        known_first = {s.slug: s.first_year for s in facts.SERIES}
        series: dict[str, tuple[str, int]] = {}
        for ed in editions.values():
            name, first = series.get(ed["series"], (ed["series_name"], ed["year"]))
            series[ed["series"]] = (name, min(first, ed["year"]))
        junior = {ed["series"] for ed in editions.values() if ed.get("level") == "junior"}
        team = {ed["series"] for ed in editions.values() if ed.get("team")}
        w.rows(
            "series",
            (
                (
                    slug,
                    name,
                    "junior" if slug in junior else "senior",
                    False,
                    slug in team,
                    known_first.get(slug, first),
                )
                for slug, (name, first) in sorted(series.items())
            ),
        )
        # the singles main draw's size: twice the matches of its first round
        per_round: dict[str, Counter] = defaultdict(Counter)
        for m in matches:
            if m["discipline"] == "MS" and m["round_code"] in ROUND_ORDER:
                per_round[m["edition"]["id"]][m["round_code"]] += 1
        draw_size = {ed_id: 2 * rounds[min(rounds, key=ROUND_ORDER.index)] for ed_id, rounds in per_round.items()}
        for ed in sorted(editions.values(), key=lambda e: (_first_day(e), e["id"])):
            if len(ed["raw_names"]) > 1:
                report.problems.append(f"edition {ed['name']}: written as {sorted(ed['raw_names'])}")
            w.row("tournaments", edition_row(ed, city_id.get((ed["city"], ed["country"])), draw_size.get(ed["id"])))
        w.rows("players", (player_row(p) for p in people))
        w.rows("ties", (final_tie_row(ed, gold, silver) for ed, gold, silver in placed.final_ties))
        rallies = []
        for m in sorted(matches, key=lambda m: (m["edition"]["id"], m["discipline"], m["row"].where)):
            values = match_row(m)
            w.row("matches", values)
            if m["row"].rallies:
                rallies.extend(rally_rows(values[0], m["row"].rallies))
        w.rows("matches", (record_final_row(*final) for final in placed.finals))
        w.plain_rows("rallies", rallies)
        w.rows("odds", ())
        w.rows("corrections", ())
        w.rows("rankings", sorted(rankings, key=lambda r: (r[0], r[1], r[2], r[3])))
        last = max([m["row"].day for m in matches] + [r[0] for r in rankings] or [dt.date(2020, 12, 31)])
        meta = {
            "source": SOURCE,
            "scale": SOURCE,
            "as_of": last.isoformat(),
            "generator": GENERATOR,
            "now": dt.datetime(last.year, last.month, last.day, 12, tzinfo=dt.UTC).isoformat(),
            "coverage": COVERAGE,
        }
        w.rows("world_meta", sorted((k, str(v)) for k, v in {**meta, "format": FORMAT_VERSION}.items()))
        problem_list = report.problems + report.record_problems
        return w.finish({**meta, "import_report": {**report.as_dict(), "problem_list": problem_list}})
    except BaseException:
        w.abort()
        raise


def edition_row(ed: dict[str, Any], city_id: int | None, draw_size: int | None) -> tuple:
    """A tournaments row (docs/bundle.md) of an edition the files hold; an edition of the record
    without dates has none (NULL), a team event's is a team edition."""
    first, last = (min(ed["days"]), max(ed["days"])) if ed["days"] else (None, None)
    return (
        ed["id"],
        ed["series"],
        ed["name"],
        ed["year"],
        ed.get("level", "senior"),
        False,
        ed.get("team", False),
        ed["tier"],
        first,
        last,
        city_id,
        None,
        None,
        ed.get("medals", False),
        draw_size,
        ed.get("cancelled", False),
    )


def _first_day(ed: dict[str, Any]) -> dt.date:
    """Where an edition sorts among the others: its first day, else (the record's editions without
    dates) the first of its year."""
    return min(ed["days"]) if ed["days"] else dt.date(ed["year"], 1, 1)


def record_final_row(ed: dict[str, Any], discipline: str, gold: list[Person], silver: list[Person]) -> tuple:
    """A matches row of a World Championships final on record (svc.world.sources.record_finals): the
    gold side 1 and winner, no games (the record holds no score); played on the edition's last
    day, where every final of the championships is played, when its dates are known (the
    calendar's 2023 edition), else no day. Ids as the match files' finals have them."""
    key = (ed["id"], discipline, "Final", 1)
    day = max(ed["days"]) if ed["days"] else None
    return (
        make_id("mt_", SOURCE, *key),
        make_id("ev_", SOURCE, *key),
        ed["id"],
        discipline,
        None,
        "F",
        "Final",
        1,
        None,
        None,
        [p.id for p in gold],
        [p.id for p in silver],
        None,
        None,
        [],
        [],
        1,
        "played",
        "finished",
        day,
        None,
        None,
    )


def final_tie_row(ed: dict[str, Any], gold: str, silver: str) -> tuple:
    """A ties row of a Thomas or Uber Cup final on record: the winning nation team 1 and winner,
    no score (the record holds none), no matches and no day (the two Cups' finals are played on
    different days of their common dates)."""
    return (
        make_id("ti_", SOURCE, ed["id"], "Final"),
        ed["id"],
        "Final",
        "F",
        1,
        gold,
        silver,
        None,
        None,
        1,
        None,
        None,
    )


def player_row(p: Person) -> tuple:
    return (p.id, p.name, slugify(p.name), p.country, p.genders.most_common(1)[0][0], None, None, None, None, None, 0.0)


def match_row(m: dict[str, Any], position: int | None = None) -> tuple:
    """A matches row; its ids derive from the edition, discipline, round and place in the draw."""
    row: TourRow = m["row"]
    key = (m["edition"]["id"], m["discipline"], m["round_name"], position or m["position"])
    return (
        make_id("mt_", SOURCE, *key),
        make_id("ev_", SOURCE, *key),
        m["edition"]["id"],
        m["discipline"],
        None,
        m["round_code"],
        m["round_name"],
        key[3],
        None,
        None,
        [p.id for p in m["side1"]],
        [p.id for p in m["side2"]],
        None,
        None,
        [a for a, _ in row.games],
        [b for _, b in row.games],
        m["winner"],
        "retired" if row.retired else "played",
        "finished",
        row.day,
        None,
        None,
    )


def rally_rows(match_id: str, games: list[list[tuple[int, int]]]) -> list[tuple]:
    """Rallies with their server: the winner of a rally serves the next; the winner of a game
    serves first in the next; game 1's first server is not recorded (side 1 is taken)."""
    out = []
    server = 1
    for g, seq in enumerate(games, 1):
        prev = (0, 0)
        for n, (a, b) in enumerate(seq, 1):
            winner = 1 if a > prev[0] else 2
            out.append((match_id, g, n, server, winner, a, b))
            server, prev = winner, (a, b)
    return out
