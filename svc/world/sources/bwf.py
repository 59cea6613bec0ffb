"""The public BWF data as a world bundle (docs/bundle.md), loaded by the one importer.

Source folder (a copy of ../shared/data/real/, the files plain or gzip-compressed):
  bwf-world-tour/{ms,ws,md,wd,xd}.csv     every World Tour match 2018-2020 (svc.world.sources.bwf_tour)
  bwf-world-ranking/<YYYY-MM-DD>/*.csv    monthly full world ranking lists (svc.world.sources.bwf_ranking)
  record/                                 the public record of the great events, where the folder
                                          holds it: World Championships medallists 1977-2025, Thomas
                                          and Uber Cup podiums 2002-2024 (svc.world.sources.record,
                                          placed by svc.world.sources.record_finals)

What the importer rebuilds, because the files do not hold it:
- series: one slug per event across years and sponsor names (SERIES below);
- players: one id per person (svc.world.sources.names: name parts in any order and case, with
  the country), the display name from a ranking list where the person is on one;
- doubles side two (the files lost its second player): the partner the player has on side one
  in the same event (exact), else in the nearest other event of the discipline (inferred),
  else unknown (the side holds the one player known);
- a retirement's winner: who played the next round of the draw, else who led on games and then
  points when play stopped, else unknown (no winner);
- the draw: positions from the final down (the winner of position p plays at ceil(p/2) of the
  next round); matches a walkover left without a place get the free places of their round;
- rallies: the server of each rally (the winner of a rally serves the next; the winner of a game
  serves first in the next). Who served first in game 1 is not recorded: side 1 is taken.

Everything that cannot be mapped is counted in the report (`Report`), never dropped silently.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from importlib.resources import files
from pathlib import Path
from typing import Any

from svc.core.progress import Progress
from svc.world import facts
from svc.world.generate.ids import make_id
from svc.world.sources import (
    bundle_rows,
    bwf_calendar,
    bwf_ranking,
    bwf_tour,
    doubles_partners,
    draw_positions,
    record_finals,
    retirements,
)
from svc.world.sources.bundle_rows import SOURCE
from svc.world.sources.bwf_tour import TourRow
from svc.world.sources.countries import code_of
from svc.world.sources.import_report import Report
from svc.world.sources.names import Identities, family_of, initials_fit
from svc.world.sources.persons import Person
from svc.world.sources.rows import Problem, find
from svc.world.sources.series_names import city_name, gender_of, series_of, tier_of, year_of

# the public files, shipped compressed with their licences: package data, found through the package
# (svc.world: this folder has no __init__.py) wherever it is installed
SHIPPED = files("svc.world") / "sources" / "data"


class Builder:
    def __init__(
        self,
        source: Path,
        report: Report,
        held: list[tuple[str, str, str | None]] = (),
        held_pairs: list[tuple[str, str, dt.date | None, list[str]]] = (),
    ) -> None:
        """`held`: (id, name, country) of players a database already holds (an increment): a
        spelling of the same person gets that id, whatever the id its own name would give.
        `held_pairs`: (edition id, discipline, day, [id, id]) of the doubles pairs it holds, where
        a side two finds its partner when the increment's own rows do not show it."""
        self.source, self.report = source, report
        self.held_names = {pid: (name, country) for pid, name, country in held}
        self.held_pairs = held_pairs
        self.people: dict[str, Person] = {}
        self.identities = Identities()
        self.held_ids: dict[str, str] = {}  # person group key -> the id already held
        for _pid, name, country in held:
            self.identities.add(name, country)
        for pid, name, country in held:
            self.held_ids.setdefault(self.identities.key(name, country), pid)

    # -- people ---------------------------------------------------------------------------
    def person(self, name: str, country: str | None, gender: str | None, *, from_match: bool) -> Person:
        key = self.identities.key(name, country)
        p = self.people.get(key)
        if p is None:
            pid = self.held_ids.get(key) or self.identities.id_of(name, country)
            p = self.people[key] = Person(key=key, id=pid, country=country)
        if from_match:
            p.spellings[name] += 1
            p.in_matches = True
        if gender:
            p.genders[gender] += 1
        return p

    def host(self, country: str) -> str | None:
        """The IOC code of a host country as the files write it; an unknown one is reported."""
        code = code_of(country)
        if code is None:
            self.report.unknown_countries[country] += 1
        return code

    def side(self, players: list[tuple[str, str]], discipline: str) -> list[Person]:
        out = []
        for i, (name, nat) in enumerate(players):
            out.append(self.person(name, nat or None, gender_of(discipline, i), from_match=True))
        return out

    def known_person(self, spelling: str, country: str | None) -> Person | None:
        """The person of the files (or of the record, once placed) this spelling is, by the same
        folding and matching as theirs (svc.world.sources.names); None for someone not held."""
        key = self.identities.known(spelling, country)
        return self.people.get(key) if key is not None else None

    def person_by_initials(self, spelling: str, country: str | None) -> Person | None:
        """The one person of the files of this country whose name a name with initials fits
        ("P. V. Sindhu" is "PUSARLA V. Sindhu": names.initials_fit); None when none or several do."""
        fits = [
            p
            for p in self.people.values()
            if p.country == country and not p.from_record and initials_fit(spelling, p.key.split("|")[0])
        ]
        return fits[0] if len(fits) == 1 else None

    def record_person(self, spelling: str, country: str, gender: str, person: Person | None) -> Person:
        """A medallist of the public record: `person`, the person of the files the record's name
        was linked to (known_person, person_by_initials), else a player of the record, whose id
        derives from the name as the files' people's do. The spelling (family name in capitals,
        names.family_marked) is their name where the files give none. Adding a new person never
        merges two people of the files, so their ids stay as the files alone give them."""
        if person is None:
            self.identities.add(spelling, country)  # a new group: neither of its keys was known
            key = self.identities.key(spelling, country)
            person = self.people.get(key) or Person(
                key=key, id=self.identities.id_of(spelling, country), country=country, listed=spelling, from_record=True
            )
            self.people[key] = person
        person.genders[gender] += 1
        return person

    def record_edition(self, slug: str, year: int, *, team: bool, medals: bool) -> dict[str, Any]:
        """The edition of a great event the record holds: the calendar's edition where the files
        have it (its dates and host), else one with the host on record in the world's facts and
        no dates."""
        series = facts.SERIES_BY_SLUG[slug]
        ed = self.editions.get((slug, year))
        if ed is None:
            city = facts.host_of(series, year)
            ed = self.editions[(slug, year)] = {
                "id": make_id("tr_", SOURCE, slug, year),
                "series": slug,
                "days": [],
                "city": city,
                "country": facts.CITY_BY_NAME[city].country if city else None,
                "raw_names": set(),
            }
        # named as the match files' editions are; no tier: championships and team events have none
        ed.update(series_name=series.name, name=f"{series.name} {year}", year=year, tier=None, team=team, medals=medals)
        return ed

    # -- the whole world --------------------------------------------------------------------
    def read(
        self, tour_dir: Path, ranking_dir: Path | None, *, all_files: bool = True, strict: bool = False
    ) -> tuple[list[dict[str, Any]], list[tuple]]:
        """The matches (as match dicts) and ranking rows of the files under the folders; with
        all_files False (an increment), a discipline's file that is not there is no problem.
        `strict` (an increment): a row with any fault is refused, not kept with what is certain
        (svc.world.sources.rows); a refused row never reaches the people, editions or matches."""
        problems: list[Problem] = []
        rows: list[TourRow] = []
        for d in bwf_tour.DISCIPLINES:
            path = find(tour_dir, d.lower())
            if path is None:
                if all_files:
                    problems.append(Problem(f"{tour_dir.name}/{d.lower()}.csv", "missing"))
                continue
            rows.extend(bwf_tour.read(path, problems, strict=strict))
        lists = ranking_dir is not None and ranking_dir.is_dir()
        ranking_rows = list(bwf_ranking.read(ranking_dir, problems, strict=strict)) if lists else []
        calendar_rows = list(bwf_calendar.read(ranking_dir, problems, strict=strict)) if lists else []
        self.report.rows_refused += len({p.where for p in problems if p.refused})
        for row in rows:  # every spelling first, so that a person's id never depends on row order
            for name, nat in row.side1 + row.side2:
                self.identities.add(name, nat or None)
        for r in ranking_rows:
            for rp in r.players:
                self.identities.add(rp.name, code_of(rp.country))
        matches = self.matches(rows)
        self.calendar(calendar_rows)
        rankings = self.rankings(ranking_rows)
        self.report.problems.extend(str(p) for p in problems)
        return matches, rankings

    def calendar(self, rows: list[bwf_calendar.CalendarRow]) -> None:
        """The calendar's events as editions without matches (their series, grade, level, host
        and dates; cancelled ones marked), beside the editions the match files hold."""
        for row in rows:
            slug, series_name = series_of(row.name, tier_of(row.grade or ""), self.report)
            year = year_of(row.name, row.start)
            held = self.editions.get((slug, year))
            if held is not None and not held.get("calendar"):
                continue  # the match files hold this edition already, with its days
            if held is not None:
                # a second event of one series in one year (a team and an individual event ...):
                # an edition of its own, told apart by its first day
                self.report.problems.append(
                    f"{row.where}: a second {series_name} in {year}: "
                    f"kept as an edition of its own (series {slug}-{row.start:%m-%d})"
                )
                slug = base = f"{slug}-{row.start:%m-%d}"
                n = 1
                while (slug, year) in self.editions:
                    n += 1
                    slug = f"{base}-{n}"
            ed_id = make_id("tr_", SOURCE, slug, year)
            host = self.host(row.country)
            self.report.calendar_editions += 1
            self.report.calendar_cancelled += row.cancelled
            self.editions[(slug, year)] = {
                "id": ed_id,
                "series": slug,
                "series_name": series_name,
                "name": row.name,
                "year": year,
                "tier": tier_of(row.grade or "") or row.grade,
                "days": [row.start, row.end],
                "city": city_name(row.city) if row.city else None,
                "country": host,
                "raw_names": {row.name},
                "level": "junior" if row.junior else "senior",
                "cancelled": row.cancelled,
                "calendar": True,
            }

    def build(self, out_dir: Path, progress: Progress = None) -> dict[str, Any]:
        matches, rankings = self.read(self.source / "bwf-world-tour", self.source / "bwf-world-ranking")
        # the record after the files: its medallists are linked to the people the files hold
        record = self.source / "record"
        placed = record_finals.place(self, record) if record.is_dir() else record_finals.Placed()
        if progress:
            progress("read the files", len(matches), len(matches))
        return bundle_rows.write(out_dir, self.people, self.editions, matches, rankings, self.report, placed)

    # -- matches ------------------------------------------------------------------------------
    def matches(self, rows: list[TourRow]) -> list[dict[str, Any]]:
        report = self.report
        editions: dict[tuple[str, int], dict[str, Any]] = {}
        self.editions = editions
        out = []
        for row in rows:
            tier = tier_of(row.tournament_type)
            slug, series_name = series_of(row.tournament, tier, report)
            year = year_of(row.tournament, row.day)
            ed = editions.get((slug, year))
            if ed is None:
                host = self.host(row.country)
                city = city_name(row.city)
                ed = editions[(slug, year)] = {
                    "id": make_id("tr_", SOURCE, slug, year),
                    "series": slug,
                    "series_name": series_name,
                    "name": f"{series_name} {year}",
                    "year": year,
                    "tier": tier,
                    "days": [],
                    "city": city,
                    "country": host,
                    "raw_names": set(),
                }
            ed["days"].append(row.day)
            ed["raw_names"].add(row.tournament)
            code, round_name, _qualifying = bwf_tour.ROUNDS.get(row.round, (None, row.round, False))
            side1 = self.side(row.side1, row.discipline)
            side2 = self.side(row.side2, row.discipline)
            out.append(
                {
                    "row": row,
                    "edition": ed,
                    "discipline": row.discipline,
                    "round_code": code,
                    "round_name": round_name,
                    "side1": side1,
                    "side2": side2,
                    "winner": row.winner or None,
                }
            )
        report.matches = len(out)
        report.matches_with_rallies = sum(1 for m in out if m["row"].rallies)
        report.editions = len(editions)
        doubles_partners.rebuild(out, self.held_pair_people(), report)
        retirements.settle(out, report)
        draw_positions.place(out, report)
        return out

    def held_pair_people(self) -> list[tuple[str, str, dt.date | None, Person, Person]]:
        """The doubles pairs the database holds (an increment), as the people of this import."""
        out = []
        for tid, discipline, day, pair in self.held_pairs:
            if len(pair) != 2 or any(pid not in self.held_names for pid in pair):
                continue
            a, b = (self.person(*self.held_names[pid], None, from_match=False) for pid in pair)
            out.append((tid, discipline, day, a, b))
        return out

    # -- rankings -----------------------------------------------------------------------------
    def rankings(self, rows: list[bwf_ranking.RankingRow]) -> list[tuple]:
        report = self.report
        by_parts: dict[str, list[Person]] = defaultdict(list)  # name parts (any country) -> players
        for p in self.people.values():
            if p.in_matches:
                by_parts[p.key.split("|")[0]].append(p)
        out = []
        seen: set[tuple] = set()
        for r in rows:
            report.ranking_rows[r.discipline] += 1
            ids = []
            matched_all, known_all = True, True
            for i, rp in enumerate(r.players):
                country = code_of(rp.country)
                if country is None:
                    report.unknown_countries[rp.country] += 1
                gender = gender_of(r.discipline, i)
                key = self.identities.key(rp.name, country)
                p = self.people.get(key)
                if p is None or not p.in_matches:
                    matched_all = False
                    if not by_parts.get(key.split("|")[0]):
                        known_all = False
                p = self.person(rp.name, country, gender, from_match=False)
                if p.listed is None or family_of(rp.name) and not family_of(p.listed):
                    p.listed = rp.name  # as published, preferring a spelling that marks the family name
                ids.append(p.id)
            if matched_all:
                report.ranking_rows_matched[r.discipline] += 1
            if known_all:
                report.ranking_rows_known_person[r.discipline] += 1
                if matched_all:
                    report.ranking_rows_known_matched[r.discipline] += 1
            name = " / ".join(rp.name for rp in r.players)
            if (r.week, r.discipline, r.rank, name) in seen:
                report.problems.append(
                    f"{r.where}: {name} at rank {r.rank} a second time in one list: the repeat is left out"
                )
                report.rows_refused += 1
                continue
            seen.add((r.week, r.discipline, r.rank, name))
            out.append((r.week, r.discipline, r.rank, name, ids[0], ids[1] if len(ids) > 1 else None, r.points, True))
        return out


def build_bundle(out_dir: Path, source: Path | None = None, progress: Progress = None) -> tuple[dict[str, Any], Report]:
    """The bundle of the public BWF data in `source` (default: the copy shipped with the
    service); returns the manifest and the report."""
    report = Report()
    manifest = Builder(Path(source) if source else SHIPPED, report).build(Path(out_dir), progress)
    return manifest, report
