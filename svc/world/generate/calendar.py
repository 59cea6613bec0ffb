"""The calendar: every series' editions (dates, host, hall, tier, prize money, draw size) and
which of them are past, in progress on as_of, or still to come (the live feed draws those).

An edition's dates and host, the first that applies:
- the real calendar (facts.CALENDAR): the World Tour of 2018-2020 and 2022-11 to 2024 from the
  public files shipped with the service, the great events of other years from public records;
- the live tail: from facts.CALENDAR_TAIL_FROM (2025) on, a series repeats the week (the same ISO
  week and weekday) and the host of its latest edition on record; the lower tier of that latest
  season (facts.LOWER_TIER_CALENDAR: International Challenges, Series, Future Series) is repeated
  too, each a series of its own, played live only: the archive holds none of its editions, the
  first is the one in progress in the week of as_of or the next;
- else the rule: the series' usual month, a Tuesday of its first three weeks; hosts on record
  (hosts.csv), else the series' host pool: rotating for championships and team events, in runs of
  HOST_RUN_YEARS for an open (a national open moves rarely).
No open (World Tour, Grand Prix, Superseries, any other open or lower-tier event, the season's
finals) shares a day with a great event (World Championships, Olympics, Thomas, Uber or Sudirman
Cup): where the dates above would clash, the open moves to the nearest free week
(clear_of_great_events). The real calendars never clash.
Halls (pick_hall): a series' hall on record (series_halls.csv), else the one it used the year
before while that hall stands, else one of the host city's halls standing that year; an edition
shows the hall under its name of that year (venues.csv), and none where no hall of the city
stood (an early edition whose hall is not on record).
The tiny scale (the tests' world) keeps a fixed current week (CURRENT_WEEK) instead of the real
one, so that matches are in play at noon of any as_of."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

import attrs

from svc.world import facts
from svc.world.factfiles.events import CalendarEdition
from svc.world.generate.ids import digest, make_id, slugify, sub_rng
from svc.world.generate.scales import Scale

DISCIPLINES = ("MS", "WS", "MD", "WD", "XD")
BIG_TIERS = {
    "Super 1000",
    "Super 750",
    "Super 500",
    "Superseries Premier",
    "Superseries",
    "World Tour Finals",
    "Superseries Finals",
}

# The tiny scale's current week: series, host city, the day of the edition that as_of falls on.
# Hosts in Asia, Europe and the Americas so that play covers all 24 hours (UTC).
# At noon UTC (as_of given as a day) it is afternoon in New Delhi and Paris (matches live), before
# dawn in the Americas (their day's matches still to come, last night's finished after midnight UTC).
CURRENT_WEEK = (
    ("india-open", "New Delhi", 2),
    ("french-open", "Paris", 3),
    ("us-open", "Los Angeles", 2),
    ("canada-open", "Calgary", 4),
)

# The great events: no open shares a day with one (the real calendar never lets it).
GREAT_KINDS = ("worlds", "olympics")
GREAT_TEAM_EVENTS = ("thomas-cup", "uber-cup", "sudirman-cup")
YIELDING_KINDS = ("open", "finals", "minor")  # opens of every tier and the season's finals
CLEAR_WEEKS = 8  # the farthest an open moves, in weeks either way, to clear a great event

# An open with several host cities in an era stays in one for this many years (its first run is
# shorter by a stable offset, so that opens do not all move in the same year).
HOST_RUN_YEARS = 10


@attrs.define
class Edition:
    id: str
    series: facts.Series
    year: int
    name: str
    tier: str | None
    start: dt.date | None
    end: dt.date | None
    city: str
    venue_id: str | None
    venue_name: str | None
    prize: int | None
    draw_size: int | None
    state: str  # past | current | future
    as_of_day: int = 0  # current editions: the day index as_of falls on

    @property
    def play_year(self) -> int:
        return self.start.year if self.start else self.year


@attrs.define
class Planned:
    """An edition's series, year, dates and host, before its state and hall are settled."""

    series: facts.Series
    year: int
    start: dt.date | None
    end: dt.date | None
    city: str
    on_record: bool  # dates and host from the real calendar (not the tail, not the rule)


def venue_id(city: str, venue: str) -> str:
    return make_id("vn_", city, venue)


# --------------------------------------------------------------------------- draws

# Series whose draws keep their real size at every scale but tiny.
FULL_DRAW_SERIES = {"all-england", "world-championships", "olympic-games", "world-tour-finals"}


def singles_draw(series: facts.Series, year: int, scale: Scale) -> int:
    """The men's singles draw of an edition (knockout_draw sizes the other disciplines from it).
    The World Tour of 2018 on keeps its real sizes at every scale but tiny."""
    world_tour = facts.tier(series, year) if series.kind == "open" and year >= 2018 else None
    if series.kind in ("team",):
        return 0
    if series.kind == "finals":
        return 8
    if series.kind == "para":
        size = 8
    elif series.kind == "olympics":
        size = 32
    elif year < 1930:
        size = 16
    elif year < 1960:
        size = 32
    elif series.slug in ("all-england", "world-championships") and year < 2018 and year >= 1980:
        size = 128 if scale.draw_cap >= 128 and series.slug == "all-england" else 64
    elif series.kind == "minor" and year >= 1985:
        size = 32 if series.name.endswith("Masters") else 64  # open entry fills big draws
    elif series.kind == "open" and year < 2018 and year >= 1985:
        size = 64
    elif world_tour:
        size = 64 if world_tour == "Super 100" else 32  # Super 100: men's singles 64, the rest 32
    else:
        size = 32
    size = min(size, scale.draw_cap)
    if (series.slug not in FULL_DRAW_SERIES and not world_tour) or scale.draw_cap < 32:
        size //= scale.draw_div
    return max(8 if series.kind != "para" else 4, size)


# --------------------------------------------------------------------------- dates and hosts

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
    start, end = rule_dates(series, year, rng)
    return Planned(series, year, start, end, rule_host(series, year), on_record=False)


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


# --------------------------------------------------------------------------- halls


@attrs.frozen
class Hall:
    city: str
    hall: str
    periods: tuple[tuple[int | None, int | None, str], ...]  # (from year, to year, name), in order

    def stands(self, year: int) -> bool:
        return self.name_in(year) is not None

    def name_in(self, year: int) -> str | None:
        for first, last, name in self.periods:
            if (first is None or first <= year) and (last is None or year <= last):
                return name
        return None


def halls_by_city() -> dict[str, list[Hall]]:
    periods: dict[tuple[str, str], list[tuple[int | None, int | None, str]]] = {}
    for h in facts.HALL_NAMES:
        periods.setdefault((h.city, h.hall), []).append((h.from_year, h.to_year, h.name))
    out: dict[str, list[Hall]] = {}
    for (city, hall), ps in periods.items():
        out.setdefault(city, []).append(Hall(city, hall, tuple(ps)))
    return out


HALLS = halls_by_city()


class HallPicker:
    """Each series' hall, year by year (editions are asked for in order of year): its hall on
    record, else the one it had the year before while that hall stands (no flipping to another
    and back), else one of the city's halls standing that year."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.last: dict[tuple[str, str], Hall] = {}

    def pick(self, series: facts.Series, year: int, city: str) -> Hall | None:
        halls = HALLS.get(city, [])
        for sh in facts.SERIES_HALLS:
            if sh.series == series.slug and sh.city == city and sh.from_year <= year <= (sh.to_year or year):
                hall = next(h for h in halls if h.hall == sh.hall)
                self.last[(series.slug, city)] = hall
                return hall
        kept = self.last.get((series.slug, city))
        if kept is not None and kept.stands(year):
            return kept
        standing = [h for h in halls if h.stands(year)]
        if not standing:
            return None
        hall = standing[sub_rng(self.seed, "hall", series.slug, city, year).randrange(len(standing))]
        self.last[(series.slug, city)] = hall
        return hall


# --------------------------------------------------------------------------- lower tiers

# Invented lower tiers of the full scale: (name suffix, years after the nation's first), each
# level no earlier than its real-world introduction.
MINOR_LEVELS = (
    ("International", 0),
    ("International Challenge", 25),
    ("International Series", 35),
    ("Future Series", 45),
)
MINOR_FIRST = {"International Challenge": 1990, "International Series": 2000, "Future Series": 2008}
MINOR_TIER: dict[str, str] = {}
MINOR_LAST_START = 2024  # a level that would start later is left out

# The real calendar's lower tier, each event a series of its own (kind "minor"), from the season
# it is on record for; its editions are the tail's (LOWER_TIER_CALENDAR, lower_tier_plans).
LOWER_TIER_SERIES = tuple(
    facts.Series(
        e.slug,
        e.name,
        facts.CALENDAR_TAIL_FROM - 1,
        "minor",
        e.start.month,
        ((facts.CALENDAR_TAIL_FROM - 1, (e.city,)),),
        days=(e.end - e.start).days + 1,
    )
    for e in facts.LOWER_TIER_CALENDAR
)
MINOR_TIER.update({e.slug: e.grade for e in facts.LOWER_TIER_CALENDAR})
LOWER_TIER_EVENT = {e.slug: e for e in facts.LOWER_TIER_CALENDAR}


def extra_series(scale: Scale) -> tuple[facts.Series, ...]:
    """Invented lower-tier internationals (full scale only): four levels in every host country
    with a city, and a Masters in every host city."""
    out = []
    seen = set()
    taken = set(facts.SERIES_BY_SLUG) | set(LOWER_TIER_EVENT)  # never the slug of a real series
    for c in facts.CITIES:
        if c.country in seen or len(out) >= scale.extra_series:
            continue
        seen.add(c.country)
        name = dict((k, v) for k, v, _a in facts.COUNTRIES)[c.country]
        first = 1965 + int.from_bytes(digest("extra", c.country)[:2], "big") % 30
        for suffix, add in MINOR_LEVELS:
            start = max(first + add, MINOR_FIRST.get(suffix, 0))
            slug = slugify(f"{name} {suffix}")
            if start > MINOR_LAST_START or slug in taken:
                continue
            MINOR_TIER[slug] = suffix
            out.append(
                facts.Series(
                    slug,
                    f"{name} {suffix}",
                    start,
                    "minor",
                    1 + int.from_bytes(digest("month", c.country, suffix)[:1], "big") % 12,
                    ((start, (c.name,)),),
                    days=5,
                )
            )
    # and a Masters in every host city (Orléans Masters style), from the 1990s, where the city has
    # no real one already (facts: the Orléans and Akita Masters of the World Tour)
    for c in facts.CITIES:
        start = 1990 + int.from_bytes(digest("masters", c.name)[:2], "big") % 15
        slug = slugify(f"{c.name} Masters")
        if slug in taken:
            continue
        MINOR_TIER[slug] = "International Challenge"
        out.append(
            facts.Series(
                slug,
                f"{c.name} Masters",
                start,
                "minor",
                1 + int.from_bytes(digest("month", c.name, "masters")[:1], "big") % 12,
                ((start, (c.name,)),),
                days=5,
            )
        )
    return tuple(out[: scale.extra_series])


def lower_tier_plans(series: facts.Series, as_of: dt.date, last_year: int) -> list[Planned]:
    """A lower-tier event's editions in the tail that are not over by as_of: its week of the
    latest season repeated in each year (played live only: the archive holds none)."""
    event = LOWER_TIER_EVENT[series.slug]
    out = []
    for year in range(max(facts.CALENDAR_TAIL_FROM, as_of.year - 1), last_year + 1):
        start = same_week(event.start, event.start.year + year - facts.CALENDAR_TAIL_FROM + 1)
        end = start + (event.end - event.start)
        if end >= as_of:
            out.append(Planned(series, year, start, end, event.city, on_record=False))
    return out


# --------------------------------------------------------------------------- the calendar


def edition_years(series: facts.Series, scale: Scale, as_of: dt.date, last_year: int) -> list[int]:
    years = facts.edition_years(series, last_year)
    if scale.years is not None:
        wanted = set(scale.years.get(series.slug, ()))
        years = [y for y in years if y in wanted or y >= as_of.year]
    if series.slug in dict((s, c) for s, c, _d in CURRENT_WEEK[: scale.current_week]) and as_of.year not in years:
        years = sorted(set(years) | {as_of.year})
    return years


def build_calendar(seed: int, scale: Scale, as_of: dt.date, series_list: tuple[facts.Series, ...]) -> list[Edition]:
    """Every edition of the series, in order of first day: past (before as_of), current (as_of
    within its days) or future (drawn by the live feed on its first day)."""
    last_year = as_of.year + 1
    planned: list[Planned] = []
    for s in series_list:
        if s.slug in LOWER_TIER_EVENT:
            planned.extend(lower_tier_plans(s, as_of, last_year))
        else:
            planned.extend(plan(seed, s, year) for year in edition_years(s, scale, as_of, last_year))
    clear_of_great_events(planned)
    forced = {slug: (city, day) for slug, city, day in CURRENT_WEEK[: scale.current_week]}
    halls = HallPicker(seed)
    out: list[Edition] = []
    for p in planned:  # series by series, years in order (the hall picker's order)
        s, year, start, end, city = p.series, p.year, p.start, p.end, p.city
        state, as_of_day = "past", 0
        if year == as_of.year and s.slug in forced:
            city, as_of_day = forced[s.slug]
            start = as_of - dt.timedelta(days=as_of_day)
            end = start + dt.timedelta(days=5)
            state = "current"
        elif start is None or end is None:
            state = "future" if year >= as_of.year else "past"
        elif end < as_of:
            state = "past"
        elif start <= as_of and not forced:
            state, as_of_day = "current", (as_of - start).days
        else:
            if forced and start <= as_of + dt.timedelta(days=1):
                # the tiny scale: an edition overlapping its fixed current week moves a fortnight on
                start += dt.timedelta(days=14)
                end += dt.timedelta(days=14)
            state = "future"
        if state == "future" and year < as_of.year:
            continue
        hall = halls.pick(s, year, city)
        hall_name = hall.name_in(year) if hall is not None else None
        t = MINOR_TIER.get(s.slug) if s.kind == "minor" else facts.tier(s, year)
        out.append(
            Edition(
                id=make_id("tr_", s.slug, year),
                series=s,
                year=year,
                name=f"{s.name} {year}",
                tier=t,
                start=start,
                end=end,
                city=city,
                venue_id=venue_id(city, hall_name) if hall_name else None,
                venue_name=hall_name,
                prize=facts.prize_money(s, year, t),
                # the current week's draws are full size at every scale: one round a day, so
                # that as_of falls in the middle of play (finished, live and scheduled rounds)
                draw_size=max(32, singles_draw(s, year, scale))
                if state == "current"
                else singles_draw(s, year, scale) or None,
                state=state,
                as_of_day=as_of_day,
            )
        )
    out.sort(key=lambda e: (e.start or dt.date(e.year, 1, 1), e.series.slug, e.id))
    return out


def utc_offset(ed: Edition) -> dt.timedelta:
    """The host city's offset from UTC (its local day and sessions)."""
    return dt.timedelta(hours=facts.CITY_BY_NAME[ed.city].utc_offset)


def series_of(scale: Scale) -> tuple[facts.Series, ...]:
    """The series a world of `scale` holds: the tiny scale's own list, else every series of the
    facts, the full scale's invented lower tiers, and the real calendar's lower tier (the tail)."""
    series_list = facts.SERIES + extra_series(scale)
    if scale.series is not None:
        return tuple(s for s in series_list if s.slug in scale.series)
    return series_list + LOWER_TIER_SERIES


def events_of(ed: Edition) -> list[tuple[str, str | None]]:
    """The draws of an edition: (discipline, sport class)."""
    s = ed.series
    if s.para:
        return [(d, c) for d, c in facts.PARA_EVENTS]
    if s.slug == "all-england" and ed.year == 1899:
        return [("MD", None), ("WD", None), ("XD", None)]  # 1899: doubles only
    if s.kind == "olympics" and ed.year < 1996:
        return [(d, None) for d in ("MS", "WS", "MD", "WD")]  # mixed doubles from 1996
    return [(d, None) for d in DISCIPLINES]
