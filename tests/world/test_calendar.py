"""The generated world's calendar keeps to the real one: the World Tour editions of the shipped
files start on their real days, no open shares a day with a great event, the live tail repeats
the latest season week for week, and halls stand, carry the name of their year and stay with a
series for runs of years. Checked on the demo scale's calendar alone (build_calendar, no
matches: a fraction of a second); the same rules on the tiny world's bundle are in test_rules."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

import pytest

from svc.world import facts
from svc.world.generate.calendar import Edition, build_calendar, series_of
from svc.world.generate.edition_plans import LATEST_ON_RECORD, great, same_week
from svc.world.generate.lower_tiers import LOWER_TIER_EVENT
from svc.world.generate.scales import SCALES

SEED = 7
AS_OF = dt.date(2026, 11, 24)
ON_RECORD_YEARS = (2018, 2019, 2020, 2023, 2024)  # the years the shipped files cover in full
FLIP_YEARS = 10  # a series that leaves its hall for another comes back no sooner


def calendar_of(scale: str = "demo", as_of: dt.date = AS_OF) -> list[Edition]:
    sc = SCALES[scale]
    return build_calendar(SEED, sc, as_of, series_of(sc))


@pytest.fixture(scope="module")
def demo() -> list[Edition]:
    return calendar_of()


def days(ed: Edition) -> set[dt.date]:
    return {ed.start + dt.timedelta(days=d) for d in range((ed.end - ed.start).days + 1)}


def clashes(calendar: list[Edition]) -> list[str]:
    """Opens (every tier, and the season's finals) sharing a day with a great event."""
    busy: dict[dt.date, str] = {}
    for ed in calendar:
        if great(ed.series) and ed.start is not None:
            busy.update((d, ed.name) for d in days(ed))
    return [
        f"{ed.name} ({ed.start}..{ed.end}) and {busy[min(days(ed) & busy.keys())]}"
        for ed in calendar
        if ed.series.kind in ("open", "finals", "minor") and ed.start is not None and days(ed) & busy.keys()
    ]


def test_no_open_shares_a_day_with_a_great_event(demo) -> None:
    assert clashes(demo) == []
    assert clashes(calendar_of("tiny", dt.date(2026, 11, 18))) == []


def test_world_tour_editions_start_on_their_real_days(demo) -> None:
    by_key = {(ed.series.slug, ed.year): ed for ed in demo}
    on_record = [
        e
        for e in facts.CALENDAR.values()
        if facts.SERIES_BY_SLUG[e.series].kind in ("open", "finals") and e.year in ON_RECORD_YEARS
    ]
    assert len(on_record) > 140  # 2018-2020 and 2023-2024, from the match files and the calendar file
    wrong = [
        (e.series, e.year, by_key[(e.series, e.year)].start, e.start)
        for e in on_record
        if (e.series, e.year) not in by_key or by_key[(e.series, e.year)].start != e.start
    ]
    assert wrong == []
    hosts = [(e.series, e.year) for e in on_record if by_key[(e.series, e.year)].city != e.city]
    assert hosts == []
    # the great events on record too (the 2023 World Championships, Paris 2024 ...)
    for e in facts.CALENDAR.values():
        if great(facts.SERIES_BY_SLUG[e.series]) and (e.series, e.year) in by_key:
            assert (by_key[(e.series, e.year)].start, by_key[(e.series, e.year)].end) == (e.start, e.end), e


def test_the_tail_repeats_the_latest_season_week_for_week(demo) -> None:
    by_key = {(ed.series.slug, ed.year): ed for ed in demo}
    checked = moved = 0
    for slug, latest in LATEST_ON_RECORD.items():
        for year in range(facts.CALENDAR_TAIL_FROM, AS_OF.year + 2):
            ed = by_key.get((slug, year))
            if ed is None or (slug, year) in facts.CALENDAR:
                continue
            want = same_week(latest.start, latest.start.year + year - latest.year)
            checked += 1
            if ed.start != want:  # only a clash with a great event moves it, by whole weeks
                moved += 1
                assert (ed.start - want).days % 7 == 0, (slug, year)
            assert ed.city == latest.city, (slug, year)
    assert checked > 80 and moved <= checked // 10


def test_the_week_of_as_of_holds_the_real_weeks_events(demo) -> None:
    """No invented current week at the demo scale: in progress on as_of is what the latest season
    held that week (the Syed Modi International and the Welsh International in 2024's week 48),
    beside the lower tier; the lower tier has no archive (nothing of it before as_of's week)."""
    current = {ed.series.slug for ed in demo if ed.state == "current"}
    assert {"syed-modi-international", "welsh-international-open"} <= current
    assert not current & {"india-open", "french-open", "us-open", "canada-open"}
    lower = [ed for ed in demo if ed.series.slug in LOWER_TIER_EVENT]
    assert lower and all(ed.end >= AS_OF for ed in lower)
    assert len({ed.city for ed in lower if ed.start <= AS_OF + dt.timedelta(days=60)}) >= 5


def hall_periods() -> dict[tuple[str, str], list[tuple[int | None, int | None, str]]]:
    """(city, venue name) -> the periods of the hall that name belongs to."""
    halls: dict[tuple[str, str], list] = defaultdict(list)
    for h in facts.HALL_NAMES:
        halls[(h.city, h.hall)].append((h.from_year, h.to_year, h.name))
    return {(h.city, h.name): halls[(h.city, h.hall)] for h in facts.HALL_NAMES}


def name_in(periods: list[tuple[int | None, int | None, str]], year: int) -> str | None:
    for first, last, name in periods:
        if (first is None or first <= year) and (last is None or year <= last):
            return name
    return None


def test_every_edition_is_in_a_hall_standing_that_year_under_its_name_of_that_year(demo) -> None:
    periods = hall_periods()
    used = 0
    for ed in demo:
        if ed.venue_name is None:
            continue
        used += 1
        hall = periods[(ed.city, ed.venue_name)]
        assert name_in(hall, ed.year) == ed.venue_name, (ed.name, ed.city, ed.venue_name, hall)
    assert used > 1000
    named = {ed.year: ed.venue_name for ed in demo if ed.series.slug == "all-england"}
    assert (named[1899], named[1930], named[1970], named[1985]) == (
        "London Scottish Drill Hall",
        "Royal Horticultural Hall",
        "Empire Pool",
        "Wembley Arena",
    )
    assert (named[1994], named[2016], named[2019], named[2024]) == (
        "National Indoor Arena",
        "Barclaycard Arena",
        "Arena Birmingham",
        "Utilita Arena Birmingham",
    )


def test_no_series_flips_to_another_hall_and_back_within_ten_years(demo) -> None:
    """An open keeps its hall for runs of years. Real events move for a year now and then (the
    French Open in Rennes in 2023): an interlude whose host is on record is allowed."""
    periods = hall_periods()
    runs: dict[str, list[list]] = defaultdict(list)  # series -> [hall, first year, last year, on record]
    for ed in sorted(demo, key=lambda e: e.year):
        if ed.series.kind != "open" or ed.venue_name is None:
            continue
        hall = (ed.city, periods[(ed.city, ed.venue_name)][0][2])
        on_record = (ed.series.slug, ed.year) in facts.CALENDAR or any(
            sh.series == ed.series.slug and sh.from_year <= ed.year <= (sh.to_year or ed.year)
            for sh in facts.SERIES_HALLS
        )
        series_runs = runs[ed.series.slug]
        if series_runs and series_runs[-1][0] == hall:
            series_runs[-1][2] = ed.year
            series_runs[-1][3] = series_runs[-1][3] or on_record
        else:
            series_runs.append([hall, ed.year, ed.year, on_record])
    flips = [
        (slug, a[0], a[2], b[0], b[1], b[2])
        for slug, rs in runs.items()
        for a, b, c in zip(rs, rs[1:], rs[2:])
        if a[0] == c[0] and c[1] - a[2] <= FLIP_YEARS and not b[3]
    ]
    assert flips == []


# --------------------------------------------------------------------------- the tiny world's bundle


@pytest.fixture(scope="module")
def tiny_bundle(tmp_path_factory) -> dict[str, list[dict[str, str]]]:
    """The tiny world's tournaments, venues and cities as the bundle writes them."""
    import csv

    from svc.world.generate import generate_bundle

    path = tmp_path_factory.mktemp("tiny-calendar")
    generate_bundle(path, scale="tiny", seed=SEED, as_of=dt.date(2026, 11, 18))
    tables = {}
    for table in ("tournaments", "venues", "cities"):
        with open(path / f"{table}.csv", encoding="utf-8", newline="") as fh:
            tables[table] = list(csv.DictReader(fh))
    return tables


def bundle_days(t: dict[str, str]) -> set[dt.date]:
    start, end = dt.date.fromisoformat(t["start_date"]), dt.date.fromisoformat(t["end_date"])
    return {start + dt.timedelta(days=d) for d in range((end - start).days + 1)}


def test_the_tiny_world_has_no_open_on_a_great_events_day(tiny_bundle) -> None:
    dated = [t for t in tiny_bundle["tournaments"] if t["start_date"]]
    kind = {t["series"]: facts.SERIES_BY_SLUG[t["series"]] for t in dated}
    busy = set().union(*(bundle_days(t) for t in dated if great(kind[t["series"]])))
    opens = [t for t in dated if kind[t["series"]].kind in ("open", "finals", "minor")]
    assert busy and opens
    assert [t["name"] for t in opens if bundle_days(t) & busy] == []


def test_the_tiny_worlds_halls_stand_and_carry_the_name_of_their_year(tiny_bundle) -> None:
    periods = hall_periods()
    city_name = {c["id"]: c["name"] for c in tiny_bundle["cities"]}
    venue = {v["id"]: (city_name[v["city_id"]], v["name"]) for v in tiny_bundle["venues"]}
    held = [t for t in tiny_bundle["tournaments"] if t["venue_id"]]
    assert held
    for t in held:
        city, name = venue[t["venue_id"]]
        assert name_in(periods[(city, name)], int(t["year"])) == name, (t["name"], city, name)
