"""An edition's dates and host, the first that applies:
- the real calendar (facts.CALENDAR): the World Tour of 2018-2020 and 2022-11 to 2024 from the
  public files shipped with the service, the great events of other years from public records;
- the live tail: from facts.CALENDAR_TAIL_FROM (2025) on, a series repeats the week (the same ISO
  week and weekday) and the host of its latest edition on record (the lower tier's tail is
  lower_tiers.lower_tier_plans);
- else the rule: the series' usual month, a Tuesday of its first three weeks; hosts on record
  (hosts.csv), else the series' host pool: rotating for championships and team events, in runs of
  HOST_RUN_YEARS for an open (a national open moves rarely).
No open (World Tour, Grand Prix, Superseries, any other open or lower-tier event, the season's
finals) shares a day with a great event (World Championships, Olympics, Thomas, Uber or Sudirman
Cup): where the dates above would clash, the open moves to the nearest free week
(clear_of_great_events). The real calendars never clash."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

import attrs

from svc.world import facts
from svc.world.factfiles.events import CalendarEdition
from svc.world.generate.ids import digest, sub_rng

# The great events: no open shares a day with one (the real calendar never lets it).
GREAT_KINDS = ("worlds", "olympics")
GREAT_TEAM_EVENTS = ("thomas-cup", "uber-cup", "sudirman-cup")
YIELDING_KINDS = ("open", "finals", "minor")  # opens of every tier and the season's finals
CLEAR_WEEKS = 8  # the farthest an open moves, in weeks either way, to clear a great event

# An open with several host cities in an era stays in one for this many years (its first run is
# shorter by a stable offset, so that opens do not all move in the same year).
HOST_RUN_YEARS = 10


@attrs.define
class Planned:
    """An edition's series, year, dates and host, before its state and hall are settled."""

    series: facts.Series
    year: int
    start: dt.date | None
    end: dt.date | None
    city: str
    on_record: bool  # dates and host from the real calendar (not the tail, not the rule)


TAIL_KINDS = ("open", "finals")  # the yearly series; the great events keep their hosts on record and the rule


def latest_on_record() -> dict[str, CalendarEdition]:
    """Each yearly series' latest edition of the real calendar's last two World Tour seasons: the one
    its tail repeats (the calendar file lacks some events of its last year: their year before stands in)."""
    out: dict[str, CalendarEdition] = {}
    for e in facts.CALENDAR.values():
        if (
            facts.SERIES_BY_SLUG[e.series].kind in TAIL_KINDS
            and facts.CALENDAR_TAIL_FROM - 2 <= e.year < facts.CALENDAR_TAIL_FROM
        ):
            if e.series not in out or e.year > out[e.series].year:
                out[e.series] = e
    return out


LATEST_ON_RECORD = latest_on_record()


def same_week(day: dt.date, year: int) -> dt.date:
    """The day of `year` in the same ISO week and on the same weekday as `day` (week 53 falls back
    to 52 in a year without one)."""
    _y, week, weekday = day.isocalendar()
    weeks = dt.date(year, 12, 28).isocalendar()[1]
    return dt.date.fromisocalendar(year, min(week, weeks), weekday)


def rule_dates(series: facts.Series, year: int, rng: random.Random) -> tuple[dt.date | None, dt.date | None]:
    """The rule: a Tuesday of the first three weeks of the series' usual month (or the month of a
    moved edition), the series' length (four days at most before 1960)."""
    if year < 1915 and rng.random() < 0.25:
        return None, None  # a few very old editions have no dates on record
    play_year = facts.PLAYED_LATE.get((series.slug, year), year)
    first = dt.date(play_year, facts.PLAYED_IN_MONTH.get((series.slug, year), series.month), 1)
    tuesday = first + dt.timedelta(days=(1 - first.weekday()) % 7)
    start = tuesday + dt.timedelta(weeks=rng.randrange(3))
    days = series.days if year >= 1960 else min(series.days, 4)
    return start, start + dt.timedelta(days=days - 1)


def rule_host(series: facts.Series, year: int) -> str:
    """A host on record (hosts.csv), else the host pool: an open's runs of HOST_RUN_YEARS, the
    others' rotation edition by edition."""
    on_record = facts.host_of(series, year)
    if on_record:
        return on_record
    pool = facts.host_pool(series, year)
    if series.kind != "open":
        return pool[(year - series.first_year) % len(pool)]
    era_from = max([first for first, _cities in series.hosts if first <= year] or [series.hosts[0][0]])
    offset = int.from_bytes(digest("host-run", series.slug, era_from)[:2], "big") % HOST_RUN_YEARS
    return pool[((year - era_from + offset) // HOST_RUN_YEARS) % len(pool)]


def plan(seed: int, series: facts.Series, year: int) -> Planned:
    """An edition's dates and host: the real calendar, else the tail, else the rule."""
    real = facts.CALENDAR.get((series.slug, year))
    if real is not None:
        return Planned(series, year, real.start, real.end, real.city, on_record=True)
    latest = LATEST_ON_RECORD.get(series.slug)
    if latest is not None and year >= facts.CALENDAR_TAIL_FROM:
        start = same_week(latest.start, latest.start.year + year - latest.year)
        return Planned(series, year, start, start + (latest.end - latest.start), latest.city, on_record=False)
    # series held together (Thomas and Uber Cups since 1984) draw their days from one stream
    rng = sub_rng(seed, facts.dates_key(series, year), year)
    first, last = rule_dates(series, year, rng)
    return Planned(series, year, first, last, rule_host(series, year), on_record=False)


def great(series: facts.Series) -> bool:
    return series.kind in GREAT_KINDS or series.slug in GREAT_TEAM_EVENTS


def clear_of_great_events(planned: list[Planned]) -> int:
    """Move every open that shares a day with a great event to the nearest free week (one week on,
    one week back, two weeks on ...); returns how many moved."""
    busy: set[dt.date] = set()
    for p in planned:
        if great(p.series) and p.start is not None and p.end is not None:
            busy.update(days_of(p.start, p.end))
    moved = 0
    for p in planned:
        if p.series.kind not in YIELDING_KINDS or p.start is None or p.end is None:
            continue
        if busy.isdisjoint(days_of(p.start, p.end)):
            continue
        for weeks in (w * sign for w in range(1, CLEAR_WEEKS + 1) for sign in (1, -1)):
            shift = dt.timedelta(weeks=weeks)
            if busy.isdisjoint(days_of(p.start + shift, p.end + shift)):
                p.start, p.end = p.start + shift, p.end + shift
                moved += 1
                break
    return moved


def days_of(start: dt.date, end: dt.date) -> Iterator[dt.date]:
    return (start + dt.timedelta(days=d) for d in range((end - start).days + 1))
