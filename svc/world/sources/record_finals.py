"""The public record in the real world: the World Championships' finals 1977-2025 and the Thomas
and Uber Cup finals 2002-2024 (read by svc.world.sources.record), placed beside what the BWF
files hold, with their medallists linked to the files' people.

How the record is represented, in the bundle's own tables (docs/bundle.md), no table of its own:
- an edition per event and year (tournaments): "World Championships 2017" (with medals), "Thomas
  Cup 2020" (a team event); its host city the one on record in the world's facts (hosts.csv); no
  dates (the record's `event_date` is a placeholder), except where the BWF calendar file holds the
  edition (the World Championships 2023): then it is that edition, with its dates and host.
- each World Championships final as a match of that edition: round F, the gold side 1 and winner,
  the silver side 2, finished, outcome played, no games (g1 and g2 empty: the record holds no
  score); its day the edition's last day where the dates are known, else none.
- each Thomas and Uber Cup final as the edition's final tie: the gold nation team 1 and winner,
  the silver nation team 2, no score and no matches.
Why matches and ties rather than a table of the record: a roll-of-honour entry names its edition
(tr_ id) and a /titles row names its final (mt_ id), ids that /v1/tournaments/{id} and
/v1/matches/{id} answer; the rolls, a player's titles, the countries' titles and head to head all
read finals from matches and ties, so they answer from the record with their own statements, and
an answer holding a final without its score says so in `meta.note` (svc.api).
Bronze medallists (the losing semi-finalists; the two nations third in a Cup) are podium facts,
not matches: the record does not say whom they lost to, and no table holds a podium place
without its match. They are linked and counted in the report, not loaded.

People: a medallist is the person of the match and ranking files with that name and country,
folded and matched as the importer matches them (svc.world.sources.names), or, for a name written
with initials ("P. V. Sindhu"), the one person of that country they fit (reported); else a player
of the record, with an id derived from the name as the importer derives ids.

Messy rows are kept with what is certain and reported with their file and line: a pair of two
nations, whose row gives one country (each player's own nation is data, two-nation-pairs.csv); an
edition played after its label year (the 2020 Cups, in 2021: kept under the label, as the service
labels editions); a name on record for two nations (two players, as the importer tells people
apart by name and country); a podium without one gold and one silver (no final is made of it).
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from svc.world import facts
from svc.world.generate.ids import fold
from svc.world.sources import record
from svc.world.sources.countries import IOC
from svc.world.sources.names import family_marked
from svc.world.sources.record import GENDERS, Medal, PairNation, TeamPlace, line_of
from svc.world.sources.rows import Problem

if TYPE_CHECKING:  # the builder calls this module; its types are named only
    from svc.world.sources.bwf import Builder
    from svc.world.sources.persons import Person

WORLDS_SERIES = "world-championships"


@attrs.define
class RecordCounts:
    """What the import made of the record, for the report."""

    editions: int = 0
    finals: int = 0  # World Championships finals, as matches
    final_ties: int = 0  # Thomas and Uber Cup finals, as ties
    finalists_linked: int = 0  # people of the match or ranking files
    finalists_new: int = 0  # players of the record
    bronze_linked: int = 0  # bronze medallists who are people of the files or finalists
    bronze_not_loaded: int = 0  # bronze medallists only on record: a podium fact without a match
    podium_nations_not_loaded: int = 0  # the Cups' third places

    def as_dict(self) -> dict[str, int]:
        return attrs.asdict(self)


@attrs.define
class Placed:
    """The record's finals and final ties, in editions the builder holds."""

    # (edition, discipline, gold side, silver side)
    finals: list[tuple[dict, str, list[Person], list[Person]]] = attrs.field(factory=list)
    # (edition, gold nation, silver nation)
    final_ties: list[tuple[dict, str, str]] = attrs.field(factory=list)


def place(builder: Builder, folder: Path) -> Placed:
    """Read the record in `folder` and place it in the builder's world (see the module); every
    messy or refused row goes into the builder's report with its file and line."""
    problems: list[Problem] = []
    worlds, cups = folder / record.WORLDS, folder / record.CUPS
    medals = list(record.read_medals(worlds, problems)) if worlds.is_file() else []
    places = list(record.read_team_places(cups, problems)) if cups.is_file() else []
    pair_nations = record.read_two_nation_pairs(folder / record.TWO_NATION_PAIRS, problems)
    record.names_of_the_time([*medals, *places], problems)
    counts, placed = RecordCounts(), Placed()
    _worlds(builder, medals, pair_nations, counts, placed, problems)
    _cups(builder, places, counts, placed, problems)
    builder.report.record_counts = counts
    builder.report.rows_refused += len({p.where for p in problems if p.refused})
    builder.report.record_problems.extend(str(p) for p in problems)
    return placed


def _worlds(
    builder: Builder,
    medals: list[Medal],
    pair_nations: dict[tuple[int, str, str], PairNation],
    counts: RecordCounts,
    placed: Placed,
    problems: list[Problem],
) -> None:
    by_event: dict[tuple[int, str], dict[int, list[Medal]]] = defaultdict(lambda: defaultdict(list))
    for m in medals:
        by_event[(m.year, m.discipline)][m.place].append(m)
    nations = _Nations(pair_nations, problems)
    for (year, discipline), podium in sorted(by_event.items()):
        gold, silver = podium.get(1, []), podium.get(2, [])
        if len(gold) != 1 or len(silver) != 1:
            problems.append(
                Problem(
                    _first(podium).where,
                    f"{discipline} {year}: {len(gold)} gold and {len(silver)} "
                    "silver on record, not one of each: no final is made of it",
                )
            )
            continue
        edition = builder.record_edition(WORLDS_SERIES, year, team=False, medals=True)
        sides = [
            [
                builder.record_person(
                    family_marked(name, country), country, gender, _linked(builder, name, country, m.where, problems)
                )
                for name, country, gender in zip(m.names, nations.of(m), GENDERS[discipline])
            ]
            for m in (gold[0], silver[0])
        ]
        placed.finals.append((edition, discipline, *sides))
        _played_late(WORLDS_SERIES, year, _first(podium).where, problems)
    finalists = {p.id: p for _edition, _discipline, gold, silver in placed.finals for p in gold + silver}
    counts.finals = len(placed.finals)
    counts.editions += len({edition["id"] for edition, *_sides in placed.finals})
    counts.finalists_linked = sum(1 for p in finalists.values() if not p.from_record)
    counts.finalists_new = sum(1 for p in finalists.values() if p.from_record)
    # bronze after the finals: a bronze medallist who reached a final in another year is that finalist
    linked, not_loaded = set(), set()
    for (_year, _discipline), podium in sorted(by_event.items()):
        for m in podium.get(3, []):
            for name, country in zip(m.names, nations.of(m)):
                person = _linked(builder, name, country, m.where, problems)
                if person is None:
                    not_loaded.add((fold(name), country))
                else:
                    linked.add(person.id)
    counts.bronze_linked, counts.bronze_not_loaded = len(linked), len(not_loaded)
    nations.report()


class _Nations:
    """Each medallist's nation: the row's, but the own nation of a player of a two-nation pair
    (two-nation-pairs.csv); reports such rows, data rows that match no medallist, and a name on
    record for two nations."""

    def __init__(self, pair_nations: dict[tuple[int, str, str], PairNation], problems: list[Problem]) -> None:
        self.pair_nations, self.problems = pair_nations, problems
        self.applied: set[tuple[int, str, str]] = set()
        self.rows_of_name: dict[str, dict[str, str]] = defaultdict(dict)  # folded name -> nation -> first row
        self.written: dict[str, str] = {}  # folded name -> as first written

    def of(self, m: Medal) -> list[str]:
        keys = [(m.year, m.discipline, fold(name)) for name in m.names]
        out = [self.pair_nations[k].country if k in self.pair_nations else m.country for k in keys]
        self.applied.update(k for k in keys if k in self.pair_nations)
        for name, nation in zip(m.names, out):
            self.rows_of_name[fold(name)].setdefault(nation, m.where)
            self.written.setdefault(fold(name), name)
        if any(nation != m.country for nation in out):
            players = " and ".join(f"{name} of {IOC.get(nation, nation)}" for name, nation in zip(m.names, out))
            sources = ", ".join(self.pair_nations[k].where for k in keys if k in self.pair_nations)
            self.problems.append(
                Problem(
                    m.where,
                    f"{m.discipline} {m.year} {m.medal}: a pair of two nations, {players} "
                    f"({sources}); the row gives the pair one country, "
                    f"{m.country_written!r}: each player is counted for their own",
                )
            )
        return out

    def report(self) -> None:
        for key, pair_nation in sorted(self.pair_nations.items()):
            if key not in self.applied:
                self.problems.append(
                    Problem(pair_nation.where, f"{key[2]!r} is not on the {key[1]} podium of {key[0]}: not applied")
                )
        for name, rows in sorted(self.rows_of_name.items()):
            if len(rows) > 1:
                (c1, w1), (c2, w2) = sorted(rows.items(), key=lambda kv: line_of(kv[1]))[:2]
                self.problems.append(
                    Problem(
                        w2,
                        f"{self.written[name]!r} for {IOC.get(c2, c2)}, for {IOC.get(c1, c1)} "
                        f"at {w1}: two players (the importer tells people apart by name and "
                        "country)",
                    )
                )


def _linked(builder: Builder, name: str, country: str, where: str, problems: list[Problem]) -> Person | None:
    """The person of the files (or a finalist of the record already placed) a record's name is:
    by the importer's own folding and matching, else, for a name written with initials, the one
    person of that country the initials fit (an inference, reported once); None for someone new."""
    spelling = family_marked(name, country)
    person = builder.known_person(spelling, country)
    if person is None and any(len(w) == 1 for w in name.replace(".", " ").split()):
        person = builder.person_by_initials(spelling, country)
        what = f"{name!r} taken for {person.name} ({country}) of the files: the initials fit" if person else None
        if what and not any(p.what == what for p in problems):  # said once, at the name's first row
            problems.append(Problem(where, what))
    return person


def _cups(
    builder: Builder, places: list[TeamPlace], counts: RecordCounts, placed: Placed, problems: list[Problem]
) -> None:
    by_edition: dict[tuple[str, int], dict[int, list[TeamPlace]]] = defaultdict(lambda: defaultdict(list))
    for p in places:
        by_edition[(p.series, p.year)][p.place].append(p)
    for (series, year), podium in sorted(by_edition.items()):
        gold, silver = podium.get(1, []), podium.get(2, [])
        if len(gold) != 1 or len(silver) != 1:
            problems.append(
                Problem(
                    _first(podium).where,
                    f"{series} {year}: {len(gold)} winner and {len(silver)} "
                    "runner-up on record, not one of each: no final tie is made",
                )
            )
            continue
        edition = builder.record_edition(series, year, team=True, medals=False)
        placed.final_ties.append((edition, gold[0].country, silver[0].country))
        counts.final_ties += 1
        counts.editions += 1
        counts.podium_nations_not_loaded += len(podium.get(3, []))
        _played_late(series, year, _first(podium).where, problems)


def _first(podium: dict[int, list[Medal | TeamPlace]]) -> Medal | TeamPlace:
    """The podium's first row in its file, where a line about the edition points."""
    return min((r for rows in podium.values() for r in rows), key=lambda r: line_of(r.where))


def _played_late(series: str, year: int, where: str, problems: list[Problem]) -> None:
    """An edition played after its label year (the world's facts, svc/world/data/edition_changes.csv):
    kept under its label, as every edition is (Tokyo 2020 is 2020)."""
    played = facts.PLAYED_LATE.get((series, year))
    if played is not None and played != year:
        name = facts.SERIES_BY_SLUG[series].name
        problems.append(
            Problem(
                where,
                f"{name} {year} was played in {played} (svc/world/data/edition_changes.csv): "
                f"kept as the edition of {year}, as editions are labelled (Tokyo 2020 is 2020)",
            )
        )
