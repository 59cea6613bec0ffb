"""ops/real_calendar: the real calendar as the generated world's data files. One command:

    .venv/bin/python -m ops.real_calendar

Reads the public files shipped in svc/world/sources/data/ and writes two fact files:

- svc/world/data/calendar.csv: the first and last day and the host city of each edition of the
  generated world's series that the files show. The World Tour of 2018-2020 from the match files
  (bwf-world-tour/*.csv, CC0 1.0): an edition's first and last day are the first and last day
  its matches were played. 2022-11 to 2024 from the BWF calendar (bwf-world-ranking/
  tournaments.csv, MIT): the World Tour, the Finals and the great events (World Championships,
  Olympics, Thomas & Uber Cup, Sudirman Cup), and any other grade of an event the world holds as
  a series (the Dutch Open of 2024 was an International Challenge). Rows with another source are
  public facts entered by hand (each names its source); the script keeps them as they are.
- svc/world/data/lower_tier_calendar.csv: the International Challenges, Series and Future Series
  of the calendar's latest year, in the nations the generated world holds, each a series of its
  own: the generator repeats them in the live tail, week for week, around the World Tour.

Event names map to the world's series as the importer maps them (svc.world.sources.bwf
.series_of), after ALIASES for the names the importer's table leaves to its fallback or maps to
a series the world splits; host cities as the importer writes them (series_names.city_name), then
CITY_ALIASES. An event left out (cancelled, a junior or senior grade, a second edition of a
series in one year, a host city or country the world does not hold) is listed in the report
printed at the end, so that a city missing from cities.csv shows up there.
"""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from svc.world import facts
from svc.world.factfiles.reading import DATA
from svc.world.generate.ids import fold, slugify
from svc.world.sources import bwf, bwf_calendar, series_names
from svc.world.sources.countries import code_of
from svc.world.sources.import_report import Report as ImportReport
from svc.world.sources.rows import Problem

SHIPPED = bwf.SHIPPED
MATCH_FILES = ("ms", "ws", "md", "wd", "xd")
SOURCE_MATCHES = "bwf-world-tour"  # the match files (CC0 1.0)
SOURCE_CALENDAR = "bwf-world-ranking"  # tournaments.csv (MIT)
DERIVED = (SOURCE_MATCHES, SOURCE_CALENDAR)
LOWER_GRADES = ("International Challenge", "International Series", "Future Series")

# (words in the folded event name, series slugs): names the importer's table maps elsewhere or
# not at all. The Thomas & Uber Cup Finals are two series of the world; the Super 100 China
# Masters of 2024 (Ruichang, Baoji) and a second Indonesia Masters Super 100 in a year are not
# series of the world (None: left out, reported).
ALIASES: tuple[tuple[str, tuple[str, ...] | None], ...] = (
    ("thomas uber cup", ("thomas-cup", "uber-cup")),
    ("sudirman cup", ("sudirman-cup",)),
    ("olympic games", ("olympic-games",)),
    ("world junior championships", None),
    ("world senior championships", None),
    ("world championships", ("world-championships",)),
    ("taipei open", ("chinese-taipei-open",)),
    ("hylo open", ("saarlorlux-open",)),
    ("arctic open", ("arctic-open",)),
    ("kumamoto masters", ("japan-masters",)),
    ("kaohsiung masters", ("kaohsiung-masters",)),
    ("guwahati masters", ("guwahati-masters",)),
    ("odisha masters", ("odisha-masters",)),
    ("malaysia super 100", ("malaysia-super-100",)),
    ("ruichang china masters", None),
    ("baoji china masters", None),
    ("indonesia masters ii", None),
    ("macau open", None),  # "Sands China Ltd. Macau Open": not the China Open; Macau is no nation of the world
)
# host city as the files write it (after series_names.city_name, folded) -> the world's city
CITY_ALIASES = {
    "mulheim": "Mülheim an der Ruhr",
    "yokohama kanagawa": "Yokohama",
    "iksan city": "Iksan",
    "texas": "Fort Worth",  # the US Open 2024: Fort Worth, Texas (its Wikipedia article)
    "assam": "Guwahati",
    "odisha": "Cuttack",  # the Odisha Masters: Jawaharlal Nehru Indoor Stadium, Cuttack
    "alger": "Algiers",
    "guatemala": "Guatemala City",
    "tripureshwor": "Kathmandu",
    "johor": "Johor Bahru",
    "sao paulo": "São Paulo",
    "reze": "Rezé",
    "'s-hertogenbosch": "'s-Hertogenbosch",
}
# lower-tier events whose published name (folded, less its year), stripped of sponsors by rule,
# would not say what and where the event is
LOWER_NAMES = {
    "nmdc - telangana international challenge": "Telangana International Challenge",
    "toyota international challenge": "Thailand International Challenge",
    "i feel slovenia li-ning open": "Slovenia Open",
    "wondr by bni indonesia international challenge": "Indonesia International Challenge",
    "vl guatemala future series": "Guatemala Future Series",
}

CALENDAR_HEADER = """\
# The real calendar: the first and last day and the host city (cities.csv) of editions of the
# generated world's series (series.toml) as they were, by the edition's label year (Tokyo 2020 was
# played in 2021). The generator takes these editions' dates and hosts from here, and repeats each
# series' latest edition here, week for week, in the years after (svc/world/generate/edition_plans.py).
# Rows with source bwf-world-tour or bwf-world-ranking are written by `python -m ops.real_calendar`
# from the public files shipped in svc/world/sources/data/: bwf-world-tour/*.csv (CC0 1.0: the days
# of each World Tour edition's matches, 2018-2020) and bwf-world-ranking/tournaments.csv (MIT, see
# its LICENSE.md: the BWF calendar of 2022-11 to 2024). Every other row is a public fact entered by
# hand with its source; the script keeps those rows as they are.
"""
LOWER_HEADER = """\
# The lower tier of the real calendar's latest year: the International Challenges, Series and Future
# Series of 2024 held in the generated world's nations (cancelled ones left out), each a series of its
# own that the generator repeats, week for week (the same ISO week and weekday), in the live tail
# (svc/world/generate/lower_tiers.py). Name without sponsors, grade, first and last day, host city
# (cities.csv). Written by `python -m ops.real_calendar` from bwf-world-ranking/tournaments.csv
# (MIT, see its LICENSE.md), shipped in svc/world/sources/data/.
"""


@dataclass(frozen=True)
class Edition:
    series: str
    year: int
    start: dt.date
    end: dt.date
    city: str
    source: str


@dataclass
class Report:
    """What the script left out, printed at the end."""

    left_out: Counter = field(default_factory=Counter)  # what -> how many times
    unknown_cities: Counter = field(default_factory=Counter)  # host cities cities.csv lacks


def series_of(name: str, grade: str | None) -> tuple[str, ...] | None:
    """The world's series an event is an edition of; () when it is none of them, None when it is
    one the world leaves out."""
    words = set(" ".join(fold(name).replace("&", " ").replace("-", " ").split()).split())
    for pattern, slugs in ALIASES:
        if all(w in words for w in pattern.split()):
            return slugs
    slug, _name = series_names.series_of(name, series_names.tier_of(grade or ""), ImportReport())
    return (slug,) if slug in facts.SERIES_BY_SLUG else ()


def city_of(written: str | None, report: Report) -> str | None:
    if not written:
        return None
    city = series_names.city_name(written)
    city = CITY_ALIASES.get(fold(city), city)
    if city not in facts.CITY_ID:
        report.unknown_cities[city] += 1
        return None
    return city


def from_matches(report: Report) -> list[Edition]:
    """Each World Tour edition of 2018-2020: the first and last day of its matches."""
    days: dict[tuple[str, str, str], list[dt.date]] = defaultdict(list)
    for stem in MATCH_FILES:
        with io.TextIOWrapper(gzip.open(SHIPPED / "bwf-world-tour" / f"{stem}.csv.gz"), encoding="utf-8") as fh:
            for r in csv.DictReader(fh):
                day = dt.datetime.strptime(r["date"].strip(), "%d-%m-%Y").date()
                days[(r["tournament"].strip(), r["city"].strip(), r["tournament_type"].strip())].append(day)
    out = []
    for (name, city, grade), ds in days.items():
        slugs = series_of(name, grade)
        if not slugs:
            report.left_out[f"{name}: a World Tour event of no series of the world"] += 1
            continue
        host = city_of(city, report)
        if host is None:
            report.left_out[f"{name}: host city {city!r}"] += 1
            continue
        year = series_names.year_of(name, min(ds))
        out.extend(Edition(s, year, min(ds), max(ds), host, SOURCE_MATCHES) for s in slugs)
    return out


def from_calendar(report: Report) -> tuple[list[Edition], list[tuple]]:
    """The calendar file's editions of the world's series, and the lower-tier events of its
    latest year (slug, name, grade, start, end, city)."""
    problems: list[Problem] = []
    rows = list(bwf_calendar.read(SHIPPED / "bwf-world-ranking", problems))
    latest = max(r.start.year for r in rows)
    known_nations = {code for code, _name, _continent in facts.COUNTRIES}
    editions, lower = [], []
    for r in rows:
        label = f"{r.name} ({r.start:%Y-%m-%d})"
        if r.cancelled or r.junior:
            continue
        slugs = series_of(r.name, r.grade)
        if slugs is None:
            report.left_out[f"{label}: not a series of the world"] += 1
            continue
        if slugs:
            host = city_of(r.city, report)
            if host is None:
                report.left_out[f"{label}: host city {r.city!r}"] += 1
                continue
            year = series_names.year_of(r.name, r.start)
            editions.extend(Edition(s, year, r.start, r.end, host, SOURCE_CALENDAR) for s in slugs)
        elif r.grade and "World Tour" in r.grade or "Super 100" in (r.grade or ""):
            report.left_out[f"{label}: a World Tour event of no series of the world"] += 1
        elif r.grade in LOWER_GRADES and r.start.year == latest:
            if code_of(r.country) not in known_nations:
                report.left_out[f"{label}: {r.country} is not a nation of the world"] += 1
                continue
            host = city_of(r.city, report)
            if host is None:
                report.left_out[f"{label}: host city {r.city!r}"] += 1
                continue
            name = lower_name(r.name)
            lower.append((slugify(name), name, r.grade, r.start, r.end, host))
    return editions, lower


def lower_name(published: str) -> str:
    """An event's name less its year, its edition's number and its sponsors (words in capitals)."""
    key = " ".join(fold(re.sub(r"\b(19|20)\d\d\b", " ", published)).split())
    if key in LOWER_NAMES:
        return LOWER_NAMES[key]
    plain = re.sub(r"\bpresented by\b.*$", "", published, flags=re.I)
    words = [
        w
        for w in plain.replace(" - ", " ").split()
        if not re.fullmatch(r"(19|20)\d\d|\d+(st|nd|rd|th)?|[IVXL]+|\(.*\)?", w)
    ]
    return " ".join(w for w in words if not (w.isupper() and len(w) > 1))


def one_a_year(editions: list[Edition], report: Report) -> list[Edition]:
    """One edition per series and year (the world's ids are series + year): the first by date."""
    out: dict[tuple[str, int], Edition] = {}
    for e in sorted(editions, key=lambda e: (e.start, e.series)):
        if (e.series, e.year) in out:
            report.left_out[f"{e.series} {e.year} from {e.start}: a second edition in the year"] += 1
            continue
        out[(e.series, e.year)] = e
    return list(out.values())


def unique_slugs(lower: list[tuple]) -> list[tuple]:
    """Lower-tier events of one name in a year (two Bahrain International Series) told apart by host."""
    count = Counter(slug for slug, *_ in lower)
    out = []
    seen: Counter = Counter()
    for slug, name, grade, start, end, city in sorted(lower, key=lambda r: (r[3], r[0])):
        if count[slug] > 1:
            seen[slug] += 1
            if seen[slug] > 1:
                name = f"{name} {city}" if fold(city) not in fold(name) else f"{name} {seen[slug]}"
                slug = slugify(name)
        out.append((slug, name, grade, start, end, city))
    return out


def hand_rows(path: Path) -> list[list[str]]:
    """The rows of the calendar file that are not the script's (public facts entered by hand)."""
    if not path.exists():
        return []
    lines = [
        line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")
    ]
    rows = list(csv.reader(lines))
    return [r for r in rows[1:] if r[-1] not in DERIVED]


def write(report: Report) -> tuple[int, int, int]:
    editions, lower = from_calendar(report)
    editions = one_a_year(from_matches(report) + editions, report)
    path = DATA / "calendar.csv"
    kept = hand_rows(path)
    ours = {(e.series, str(e.year)) for e in editions}
    kept = [r for r in kept if (r[0], r[1]) not in ours]
    rows = [[e.series, str(e.year), e.start.isoformat(), e.end.isoformat(), e.city, e.source] for e in editions] + kept
    rows.sort(key=lambda r: (r[2], r[0]))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["series", "year", "start", "end", "city", "source"])
    w.writerows(rows)
    path.write_text(CALENDAR_HEADER + buf.getvalue(), encoding="utf-8")
    lower = unique_slugs(lower)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["slug", "name", "grade", "start", "end", "city"])
    w.writerows(
        [slug, name, grade, start.isoformat(), end.isoformat(), city] for slug, name, grade, start, end, city in lower
    )
    (DATA / "lower_tier_calendar.csv").write_text(LOWER_HEADER + buf.getvalue(), encoding="utf-8")
    return len(editions), len(kept), len(lower)


def main() -> int:
    report = Report()
    derived, kept, lower = write(report)
    print(f"calendar.csv: {derived} editions from the shipped files, {kept} entered by hand kept")
    print(f"lower_tier_calendar.csv: {lower} events")
    if report.unknown_cities:
        print(
            "host cities cities.csv does not hold:",
            ", ".join(f"{c} ({n})" for c, n in report.unknown_cities.most_common()),
        )
    for what, n in sorted(report.left_out.items()):
        print(f"  left out: {what}" + (f" x{n}" if n > 1 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
