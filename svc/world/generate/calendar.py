"""The calendar: every series' editions (dates, host, hall, tier, prize money, draw size) and
which of them are past, in progress on as_of, or still to come (the live feed draws those).

Its parts, each a module of its own:
- edition_plans: an edition's dates and host (the real calendar, else the live tail, else the
  rule), no open sharing a day with a great event;
- lower_tiers: the lower-tier series (invented for the full scale, and the real calendar's latest
  lower-tier season repeated in the live tail);
- halls: the hall of each edition, under its name of that year (none where no hall of the city
  stood: an early edition whose hall is not on record);
- draw_sizes: the men's singles draw of an edition.
The tiny scale (the tests' world) keeps a fixed current week (CURRENT_WEEK) instead of the real
one, so that matches are in play at noon of any as_of."""

from __future__ import annotations

import datetime as dt

import attrs

from svc.world import facts
from svc.world.generate.draw_sizes import singles_draw
from svc.world.generate.edition_plans import Planned, clear_of_great_events, plan
from svc.world.generate.halls import HallPicker
from svc.world.generate.ids import make_id
from svc.world.generate.lower_tiers import (
    LOWER_TIER_EVENT,
    LOWER_TIER_SERIES,
    MINOR_TIER,
    extra_series,
    lower_tier_plans,
)
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


def venue_id(city: str, venue: str) -> str:
    return make_id("vn_", city, venue)


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
