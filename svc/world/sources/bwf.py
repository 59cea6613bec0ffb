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
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from svc.core.progress import Progress
from svc.world import facts
from svc.world.bundle import FORMAT_VERSION, BundleWriter
from svc.world.generate.draws import rounds_of
from svc.world.generate.ids import fold, make_id, slugify
from svc.world.sources import bwf_calendar, bwf_ranking, bwf_tour, record_finals
from svc.world.sources.bwf_tour import TourRow
from svc.world.sources.countries import IOC, code_of
from svc.world.sources.names import Identities, family_of, initials_fit, list_name, player_id
from svc.world.sources.rows import Problem, find

SOURCE = "bwf"
GENERATOR = "svc.world.sources.bwf 1"
SHIPPED = Path(__file__).resolve().parent / "data"  # the public files, shipped compressed with their licences

# (words in the folded event name, series slug, series name); the first that matches wins.
# Sponsors, years and "(New Dates)" are not part of a series' name.
SERIES: tuple[tuple[str, str, str], ...] = (
    ("all england", "all-england", "All England Open"),
    ("world tour finals", "world-tour-finals", "World Tour Finals"),
    ("fuzhou china open", "fuzhou-china-open", "Fuzhou China Open"),
    ("china open", "china-open", "China Open"),
    ("china masters", "china-masters", "China Masters"),
    ("indonesia open", "indonesia-open", "Indonesia Open"),
    ("indonesia masters super 100", "indonesia-masters-super-100", "Indonesia Masters Super 100"),
    ("indonesia masters", "indonesia-masters", "Indonesia Masters"),
    ("malaysia open", "malaysia-open", "Malaysia Open"),
    ("malaysia masters", "malaysia-masters", "Malaysia Masters"),
    ("thailand masters", "thailand-masters", "Thailand Masters"),
    ("thailand open", "thailand-open", "Thailand Open"),
    ("japan open", "japan-open", "Japan Open"),
    ("akita masters", "akita-masters", "Akita Masters"),
    ("denmark open", "denmark-open", "Denmark Open"),
    ("french open", "french-open", "French Open"),
    ("german open", "german-open", "German Open"),
    ("swiss open", "swiss-open", "Swiss Open"),
    ("dutch open", "dutch-open", "Dutch Open"),
    ("us open", "us-open", "US Open"),
    ("canada open", "canada-open", "Canada Open"),
    ("new zealand open", "new-zealand-open", "New Zealand Open"),
    ("australian open", "australian-open", "Australian Open"),
    ("korea open", "korea-open", "Korea Open"),
    ("korea masters", "korea-masters", "Korea Masters"),
    ("hong kong open", "hong-kong-open", "Hong Kong Open"),
    ("india open", "india-open", "India Open"),
    ("syed modi", "syed-modi-international", "Syed Modi International"),
    ("hyderabad open", "hyderabad-open", "Hyderabad Open"),
    ("macau open", "macau-open", "Macau Open"),
    ("singapore open", "singapore-open", "Singapore Open"),
    ("chinese taipei open", "chinese-taipei-open", "Chinese Taipei Open"),
    ("vietnam open", "vietnam-open", "Vietnam Open"),
    ("russian open", "russian-open", "Russian Open"),
    ("saarlorlux open", "saarlorlux-open", "SaarLorLux Open"),
    ("scottish open", "scottish-open", "Scottish Open"),
    ("orleans masters", "orleans-masters", "Orléans Masters"),
    ("spain masters", "spain-masters", "Spain Masters"),
    # the calendar's World Championships is the edition the record's medallists belong to; the
    # junior and senior (veterans') championships come first, as their names hold the same words
    ("world junior mixed team championships", "world-junior-mixed-team-championships",
     "World Junior Mixed Team Championships"),
    ("world junior championships", "world-junior-championships", "World Junior Championships"),
    ("world senior championships", "world-senior-championships", "World Senior Championships"),
    ("world championships", "world-championships", "World Championships"),
)
# host city as written -> the city's name (spellings and districts of one city)
CITY_NAMES = {"gwangju metropolitan city": "Gwangju", "kowloon": "Hong Kong", "ling shui": "Lingshui",
              "macau city": "Macau", "muelheim an der ruhr": "Mülheim an der Ruhr", "odense v": "Odense",
              "orleans": "Orléans", "saarbrucken": "Saarbrücken", "taipei city": "Taipei", "vladivostock": "Vladivostok",
              "bukit jalil": "Kuala Lumpur"}
ROUND_ORDER = tuple(rounds_of(128))  # the knockout rounds, first to final
# world_meta `coverage`: every empty answer over the real world carries it as meta.note
COVERAGE = ("The real world (public BWF data) holds the World Tour matches of 2018-2020 (Super 100 to the "
            "Finals), the finals of the World Championships 1977-2025 and of the Thomas and Uber Cups 2002-2024 "
            "from the public record of medallists (who won and lost, no scores, no draws, no other rounds; no "
            "Olympics or Sudirman Cup), the monthly world ranking lists from 2022-11 to 2025-01, no odds, no "
            "live play, no seeds, no venues and no other results before 2018.")
NEW_DATES = re.compile(r"\(new dates\)", re.I)


@dataclass
class Report:
    """What the import did and could not do; printed at the end of `svc world --source bwf`."""
    matches: int = 0
    matches_with_rallies: int = 0
    editions: int = 0
    players_from_matches: int = 0
    players_from_rankings_only: int = 0
    name_variants_merged: int = 0
    partners: Counter = field(default_factory=Counter)  # exact / inferred / unknown
    retirements: Counter = field(default_factory=Counter)  # by_bracket / by_score / unresolved
    ranking_rows: Counter = field(default_factory=Counter)  # per discipline
    ranking_rows_matched: Counter = field(default_factory=Counter)  # to a player of the match files
    ranking_rows_known_person: Counter = field(default_factory=Counter)  # whose name parts are in the match files
    ranking_rows_known_matched: Counter = field(default_factory=Counter)
    unplaced_in_draw: int = 0
    calendar_editions: int = 0  # editions of the calendar file (no matches)
    calendar_cancelled: int = 0
    series_by_fallback: list[str] = field(default_factory=list)
    unknown_countries: Counter = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)  # file:line: what
    rows_refused: int = 0  # rows nothing was taken from (each in `problems`); an increment prints it
    record_counts: record_finals.RecordCounts | None = None  # the record's finals and medallists (full import)
    record_problems: list[str] = field(default_factory=list)  # the record's messy and refused rows: file:line: what

    def as_dict(self) -> dict[str, Any]:
        share = {d: round(self.ranking_rows_matched[d] / n, 4) if n else None for d, n in sorted(self.ranking_rows.items())}
        known = {d: round(self.ranking_rows_known_matched[d] / n, 4) if n else None
                 for d, n in sorted(self.ranking_rows_known_person.items())}
        return {
            "matches": self.matches, "matches_with_rallies": self.matches_with_rallies, "editions": self.editions,
            "players_from_matches": self.players_from_matches,
            "players_from_rankings_only": self.players_from_rankings_only,
            "name_variants_merged": self.name_variants_merged,
            "doubles_side_two_partner": dict(sorted(self.partners.items())),
            "retirements": dict(sorted(self.retirements.items())),
            "ranking_rows": dict(sorted(self.ranking_rows.items())),
            "ranking_rows_matched_to_match_players": dict(sorted(self.ranking_rows_matched.items())),
            "ranking_share_matched": share,
            "ranking_share_matched_of_players_in_match_data": known,
            "matches_unplaced_in_draw": self.unplaced_in_draw,
            "calendar_editions": self.calendar_editions, "calendar_cancelled": self.calendar_cancelled,
            "series_by_fallback": sorted(set(self.series_by_fallback)),
            "unknown_countries": dict(sorted(self.unknown_countries.items())),
            **({"record": self.record_counts.as_dict()} if self.record_counts else {}),
            "problems": len(self.problems) + len(self.record_problems),
        }

    def lines(self) -> list[str]:
        d = self.as_dict()
        out = [f"{k}: {v}" for k, v in d.items()]
        out += [f"  {p}" for p in self.problems[:50]]
        if len(self.problems) > 50:
            out.append(f"  ... and {len(self.problems) - 50} more (all in the manifest's import_report)")
        out += [f"  {p}" for p in self.record_problems]  # a few lines, each about the record: all shown
        return out


@dataclass
class Person:
    key: str
    id: str
    country: str | None
    spellings: Counter = field(default_factory=Counter)  # names as written in match files
    listed: str | None = None  # the name as a ranking list writes it
    genders: Counter = field(default_factory=Counter)
    in_matches: bool = False
    from_record: bool = False  # a medallist of the public record the match and ranking files do not hold

    @property
    def name(self) -> str:
        if self.listed:
            return self.listed
        return list_name(self.spellings.most_common(1)[0][0], self.country)


def gender_of(discipline: str, place: int) -> str:
    """A player's gender from the event: a mixed pair is listed man first."""
    return {"MS": "M", "MD": "M", "WS": "W", "WD": "W"}.get(discipline) or ("M" if place == 0 else "W")


def city_name(written: str) -> str:
    """A host city as written (any case, a district or another spelling) as the city's name."""
    written = written.strip()
    return CITY_NAMES.get(fold(written), written.title() if written.isupper() else written)


def series_of(event_name: str, tier: str | None, report: Report) -> tuple[str, str]:
    """(slug, name) of an event's series, whatever the year and sponsor."""
    folded = " ".join(fold(NEW_DATES.sub("", event_name)).replace("-", " ").split())
    words = set(f"{folded} {fold(tier or '')}".split())
    for pattern, slug, name in SERIES:
        if all(w in words for w in pattern.split()):
            return slug, name
    # an event this table does not know: its name less the year, the edition's number ("13th",
    # "III"), "presented by ..." and capitalised sponsor words
    name = re.sub(r"\bpresented by\b.*$", "", NEW_DATES.sub("", event_name), flags=re.I)
    plain = " ".join(w for w in name.split() if not re.fullmatch(r"(19|20)\d\d|\d+(st|nd|rd|th)|[IVX]+", w)
                     and not (w.isupper() and len(w) > 2)) or event_name
    report.series_by_fallback.append(event_name)
    return slugify(plain), plain


def tier_of(tournament_type: str) -> str | None:
    if "Finals" in tournament_type:
        return "World Tour Finals"
    m = re.search(r"Super (\d+)", tournament_type)
    return f"Super {m.group(1)}" if m else None


def year_of(event_name: str, day: dt.date) -> int:
    years = [int(w) for w in re.findall(r"\b(19\d\d|20\d\d)\b", event_name)]
    return years[-1] if years else day.year


class Builder:
    def __init__(self, source: Path, report: Report, held: list[tuple[str, str, str | None]] = (),
                 held_pairs: list[tuple[str, str, dt.date | None, list[str]]] = ()) -> None:
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
        for pid, name, country in held:
            self.identities.add(name, country)
        for pid, name, country in held:
            self.held_ids.setdefault(self.identities.key(name, country), pid)

    # -- people ---------------------------------------------------------------------------
    def person(self, name: str, country: str | None, gender: str | None, *, from_match: bool) -> Person:
        key = self.identities.key(name, country)
        p = self.people.get(key)
        if p is None:
            p = self.people[key] = Person(key=key, id=self.held_ids.get(key) or player_id(key), country=country)
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
        fits = [p for p in self.people.values() if p.country == country and not p.from_record
                and initials_fit(spelling, p.key.split("|")[0])]
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
            person = self.people.get(key) or Person(key=key, id=player_id(key), country=country, listed=spelling,
                                                    from_record=True)
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
                "id": make_id("tr_", SOURCE, slug, year), "series": slug, "days": [], "city": city,
                "country": facts.CITY_BY_NAME[city].country if city else None, "raw_names": set()}
        # named as the match files' editions are; no tier: championships and team events have none
        ed.update(series_name=series.name, name=f"{series.name} {year}", year=year, tier=None, team=team,
                  medals=medals)
        return ed

    # -- the whole world --------------------------------------------------------------------
    def read(self, tour_dir: Path, ranking_dir: Path | None, *, all_files: bool = True, strict: bool = False
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
                self.report.problems.append(f"{row.where}: a second {series_name} in {year}: "
                                            f"kept as an edition of its own (series {slug}-{row.start:%m-%d})")
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
                "id": ed_id, "series": slug, "series_name": series_name, "name": row.name, "year": year,
                "tier": tier_of(row.grade or "") or row.grade, "days": [row.start, row.end],
                "city": city_name(row.city) if row.city else None, "country": host,
                "raw_names": {row.name}, "level": "junior" if row.junior else "senior", "cancelled": row.cancelled,
                "calendar": True}

    def build(self, out_dir: Path, progress: Progress = None) -> dict[str, Any]:
        matches, rankings = self.read(self.source / "bwf-world-tour", self.source / "bwf-world-ranking")
        # the record after the files: its medallists are linked to the people the files hold
        record = self.source / "record"
        placed = record_finals.place(self, record) if record.is_dir() else record_finals.Placed()
        if progress:
            progress("read the files", len(matches), len(matches))
        return self.write(out_dir, matches, rankings, placed)

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
                    "id": make_id("tr_", SOURCE, slug, year), "series": slug, "series_name": series_name,
                    "name": f"{series_name} {year}", "year": year, "tier": tier, "days": [], "city": city,
                    "country": host, "raw_names": set()}
            ed["days"].append(row.day)
            ed["raw_names"].add(row.tournament)
            code, round_name, _qualifying = bwf_tour.ROUNDS.get(row.round, (None, row.round, False))
            side1 = self.side(row.side1, row.discipline)
            side2 = self.side(row.side2, row.discipline)
            out.append({"row": row, "edition": ed, "discipline": row.discipline, "round_code": code,
                        "round_name": round_name, "side1": side1, "side2": side2, "winner": row.winner or None})
        report.matches = len(out)
        report.matches_with_rallies = sum(1 for m in out if m["row"].rallies)
        report.editions = len(editions)
        self.pairs(out)
        self.retirements(out)
        self.draws(out)
        return out

    def pairs(self, matches: list[dict[str, Any]]) -> None:
        """Side two of a doubles match: the one player known and their partner (see the module)."""
        partner_in: dict[tuple[str, str], dict[str, Person]] = defaultdict(dict)  # (edition, disc) -> key -> partner
        seen_on_side1: dict[tuple[str, str], list[tuple[dt.date, Person]]] = defaultdict(list)  # (disc, key)
        for m in matches:
            if m["discipline"] in ("MD", "WD", "XD") and len(m["side1"]) == 2:
                a, b = m["side1"]
                ev = (m["edition"]["id"], m["discipline"])
                partner_in[ev][a.key], partner_in[ev][b.key] = b, a
                seen_on_side1[(m["discipline"], a.key)].append((m["row"].day, b))
                seen_on_side1[(m["discipline"], b.key)].append((m["row"].day, a))
        for tid, discipline, day, pair in self.held_pairs:  # what the database holds (an increment)
            if len(pair) != 2 or any(pid not in self.held_names for pid in pair):
                continue
            a, b = (self.person(*self.held_names[pid], None, from_match=False) for pid in pair)
            partner_in[(tid, discipline)].setdefault(a.key, b)
            partner_in[(tid, discipline)].setdefault(b.key, a)
            if day is not None:
                seen_on_side1[(discipline, a.key)].append((day, b))
                seen_on_side1[(discipline, b.key)].append((day, a))
        for m in matches:
            if m["discipline"] not in ("MD", "WD", "XD") or len(m["side2"]) != 1:
                continue
            known = m["side2"][0]
            ev = (m["edition"]["id"], m["discipline"])
            partner = partner_in[ev].get(known.key)
            how = "exact"
            if partner is None:
                elsewhere = seen_on_side1.get((m["discipline"], known.key))
                if elsewhere:
                    partner = min(elsewhere, key=lambda dp: (abs((dp[0] - m["row"].day).days), dp[1].key))[1]
                    how = "inferred"
            if partner is None:
                self.report.partners["unknown"] += 1
                continue
            self.report.partners[how] += 1
            m["side2"] = [known, partner]

    def retirements(self, matches: list[dict[str, Any]]) -> None:
        """A retirement's winner: who played on in the draw, else the score (see the module)."""
        later: dict[tuple[str, str], list[tuple[int, set[str]]]] = defaultdict(list)
        for m in matches:
            if m["round_code"] in ROUND_ORDER:
                keys = {p.key for p in m["side1"]} | {p.key for p in m["side2"]}
                later[(m["edition"]["id"], m["discipline"])].append((ROUND_ORDER.index(m["round_code"]), keys))
        for m in matches:
            row = m["row"]
            if row.winner != 0:
                continue
            ev = (m["edition"]["id"], m["discipline"])
            here = ROUND_ORDER.index(m["round_code"]) if m["round_code"] in ROUND_ORDER else None
            if here is not None:
                on = [n for n, side in ((1, m["side1"]), (2, m["side2"]))
                      if any(r > here and {p.key for p in side} & keys for r, keys in later[ev])]
                if len(on) == 1:
                    m["winner"] = on[0]
                    self.report.retirements["by_bracket"] += 1
                    continue
            won1 = sum(1 for a, b in row.games if a > b and (a >= 21))
            won2 = sum(1 for a, b in row.games if b > a and (b >= 21))
            last = row.games[-1] if row.games else (0, 0)
            lead = (won1, last[0]) > (won2, last[1]), (won2, last[1]) > (won1, last[0])
            if any(lead):
                m["winner"] = 1 if lead[0] else 2
                self.report.retirements["by_score"] += 1
            else:
                self.report.retirements["unresolved"] += 1

    def draws(self, matches: list[dict[str, Any]]) -> None:
        """Positions: the main draw from the final down, groups and qualifying in play order."""
        by_event: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        for m in matches:
            by_event[(m["edition"]["id"], m["discipline"])].append(m)
        for event in by_event.values():
            event.sort(key=lambda m: (m["row"].day, m["row"].where))
            main = defaultdict(list)
            for m in event:
                if m["round_code"] in ROUND_ORDER:
                    main[m["round_code"]].append(m)
            rounds = [c for c in ROUND_ORDER if c in main]
            for i, code in enumerate(reversed(rounds)):
                this = main[code]
                if i == 0:
                    for p, m in enumerate(this, 1):
                        m["position"] = p
                    continue
                after = main[rounds[len(rounds) - i]]
                taken: set[int] = set()
                for nxt in sorted(after, key=lambda m: m.get("position", 10**6)):
                    for n, side in ((1, nxt["side1"]), (2, nxt["side2"])):
                        keys = {p.key for p in side}
                        feeder = next((m for m in this if "position" not in m and m["winner"]
                                       and {p.key for p in m[f"side{m['winner']}"]} & keys), None)
                        if feeder is not None and "position" in nxt:
                            feeder["position"] = 2 * nxt["position"] - (2 - n)
                            taken.add(feeder["position"])
                free = (p for p in range(1, 2 * len(after) + len(this) + 1) if p not in taken)
                for m in this:
                    if "position" not in m:
                        m["position"] = next(free)
                        self.report.unplaced_in_draw += 1
            # the finals' group stage: two groups of four, told apart by who played whom
            group_matches = [m for m in event if m["row"].round in bwf_tour.GROUP_ROUNDS]
            groups = _groups(group_matches)
            for letter, members in zip("AB", groups):
                for p, m in enumerate([m for m in group_matches if m["side1"][0].key in members], 1):
                    m["round_name"], m["position"] = f"Group {letter}", p
            # qualifying rounds and anything else: in play order within its round
            counters: Counter = Counter()
            for m in event:
                if "position" not in m:
                    counters[m["round_name"]] += 1
                    m["position"] = counters[m["round_name"]]

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
                report.problems.append(f"{r.where}: {name} at rank {r.rank} a second time in one list: the repeat is left out")
                report.rows_refused += 1
                continue
            seen.add((r.week, r.discipline, r.rank, name))
            out.append((r.week, r.discipline, r.rank, name, ids[0], ids[1] if len(ids) > 1 else None, r.points, True))
        return out

    # -- the bundle ---------------------------------------------------------------------------
    def write(self, out_dir: Path, matches: list[dict[str, Any]], rankings: list[tuple],
              placed: record_finals.Placed | None = None) -> dict[str, Any]:
        placed = placed or record_finals.Placed()
        report = self.report
        w = BundleWriter(out_dir, optional={"tournaments": ("cancelled",)})
        try:
            people = sorted(self.people.values(), key=lambda p: p.id)
            report.players_from_matches = sum(1 for p in people if p.in_matches)
            report.players_from_rankings_only = sum(1 for p in people if not p.in_matches and not p.from_record)
            report.name_variants_merged = sum(len(p.spellings) - 1 for p in people if p.spellings)
            codes = ({p.country for p in people if p.country}
                     | {ed["country"] for ed in self.editions.values() if ed["country"]}
                     | {nation for _ed, *nations in placed.final_ties for nation in nations})
            unknown = sorted(c for c in codes if c not in IOC)
            for c in unknown:
                report.problems.append(f"country code {c}: not an IOC code; kept with its code as its name")
            w.rows("countries", sorted((c, IOC.get(c, c)) for c in codes))
            cities = sorted({(ed["city"], ed["country"]) for ed in self.editions.values() if ed["city"]},
                            key=lambda c: (c[0], c[1] or ""))
            city_id = {c: i for i, c in enumerate(cities, 1)}
            elevation = {c.name: c.elevation_m for c in facts.CITIES}
            w.rows("cities", ((i, name, country, elevation.get(name)) for (name, country), i in city_id.items()))
            w.rows("venues", ())
            known_first = {s.slug: s.first_year for s in facts.SERIES}
            series: dict[str, tuple[str, int]] = {}
            for ed in self.editions.values():
                name, first = series.get(ed["series"], (ed["series_name"], ed["year"]))
                series[ed["series"]] = (name, min(first, ed["year"]))
            junior = {ed["series"] for ed in self.editions.values() if ed.get("level") == "junior"}
            team = {ed["series"] for ed in self.editions.values() if ed.get("team")}
            w.rows("series", ((slug, name, "junior" if slug in junior else "senior", False, slug in team,
                               known_first.get(slug, first)) for slug, (name, first) in sorted(series.items())))
            # the singles main draw's size: twice the matches of its first round
            per_round: dict[str, Counter] = defaultdict(Counter)
            for m in matches:
                if m["discipline"] == "MS" and m["round_code"] in ROUND_ORDER:
                    per_round[m["edition"]["id"]][m["round_code"]] += 1
            draw_size = {ed_id: 2 * rounds[min(rounds, key=ROUND_ORDER.index)] for ed_id, rounds in per_round.items()}
            for ed in sorted(self.editions.values(), key=lambda e: (_first_day(e), e["id"])):
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
            meta = {"source": SOURCE, "scale": SOURCE, "as_of": last.isoformat(), "generator": GENERATOR,
                    "now": dt.datetime(last.year, last.month, last.day, 12, tzinfo=dt.timezone.utc).isoformat(),
                    "coverage": COVERAGE}
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
    return (ed["id"], ed["series"], ed["name"], ed["year"], ed.get("level", "senior"), False, ed.get("team", False),
            ed["tier"], first, last, city_id, None, None, ed.get("medals", False), draw_size,
            ed.get("cancelled", False))


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
    return (make_id("mt_", SOURCE, *key), make_id("ev_", SOURCE, *key), ed["id"], discipline, None, "F", "Final", 1,
            None, None, [p.id for p in gold], [p.id for p in silver], None, None, [], [], 1, "played", "finished",
            day, None, None)


def final_tie_row(ed: dict[str, Any], gold: str, silver: str) -> tuple:
    """A ties row of a Thomas or Uber Cup final on record: the winning nation team 1 and winner,
    no score (the record holds none), no matches and no day (the two Cups' finals are played on
    different days of their common dates)."""
    return (make_id("ti_", SOURCE, ed["id"], "Final"), ed["id"], "Final", "F", 1, gold, silver, None, None, 1, None,
            None)


def player_row(p: Person) -> tuple:
    return (p.id, p.name, slugify(p.name), p.country, p.genders.most_common(1)[0][0], None, None, None, None,
            None, 0.0)


def match_row(m: dict[str, Any], position: int | None = None) -> tuple:
    """A matches row; its ids derive from the edition, discipline, round and place in the draw."""
    row: TourRow = m["row"]
    key = (m["edition"]["id"], m["discipline"], m["round_name"], position or m["position"])
    return (make_id("mt_", SOURCE, *key), make_id("ev_", SOURCE, *key), m["edition"]["id"], m["discipline"], None,
            m["round_code"], m["round_name"], key[3], None, None, [p.id for p in m["side1"]],
            [p.id for p in m["side2"]], None, None, [a for a, _ in row.games], [b for _, b in row.games],
            m["winner"], "retired" if row.retired else "played", "finished", row.day, None, None)


def _groups(group_matches: list[dict[str, Any]]) -> list[set[str]]:
    """The players (by side one's first player) of each group: who played whom, joined up."""
    links: dict[str, set[str]] = defaultdict(set)
    for m in group_matches:
        a, b = m["side1"][0].key, m["side2"][0].key
        links[a].add(b)
        links[b].add(a)
    groups, seen = [], set()
    for m in group_matches:  # in play order: group A is the group of the first match played
        start = m["side1"][0].key
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            k = todo.pop()
            if k not in group:
                group.add(k)
                todo.extend(links[k])
        seen |= group
        groups.append(group)
    return groups


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


def build_bundle(out_dir: Path, source: Path | None = None, progress: Progress = None) -> tuple[dict[str, Any], Report]:
    """The bundle of the public BWF data in `source` (default: the copy shipped with the
    service); returns the manifest and the report."""
    report = Report()
    manifest = Builder(Path(source) if source else SHIPPED, report).build(Path(out_dir), progress)
    return manifest, report
