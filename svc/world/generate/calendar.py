"""The calendar: editions of every series by era (dates, hosts, tiers, prize money), the
current week's editions in progress on as_of, and the calendar after it, with the tour
(TOUR_BANDS): lower-tier stops in four time-zone bands so that after the current week some
match is in play at every hour (UTC)."""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass

from svc.world import facts
from svc.world.generate.ids import digest, make_id, slugify, sub_rng
from svc.world.generate.scales import Scale

DISCIPLINES = ("MS", "WS", "MD", "WD", "XD")
BIG_TIERS = {"Super 1000", "Super 750", "Super 500", "Superseries Premier", "Superseries",
             "World Tour Finals", "Superseries Finals"}

# The current week's editions: series, host city, the day of the edition that as_of falls on.
# Hosts in Asia, Europe and the Americas so that play covers all 24 hours (UTC).
# At noon UTC (as_of given as a day) it is afternoon in New Delhi and Paris (matches live), before
# dawn in the Americas (their day's matches still to come, last night's finished after midnight UTC).
CURRENT_WEEK = (("india-open", "New Delhi", 2), ("french-open", "Paris", 3), ("us-open", "Los Angeles", 2),
                ("canada-open", "Calgary", 4))


@dataclass
class Edition:
    id: str
    series: facts.Series
    year: int
    name: str
    tier: str | None
    start: dt.date | None
    end: dt.date | None
    city: str
    venue_id: str
    venue_name: str
    prize: int | None
    draw_size: int | None
    state: str            # past | current | future
    as_of_day: int = 0    # current editions: the day index as_of falls on

    @property
    def play_year(self) -> int:
        return self.start.year if self.start else self.year


def venue_id(city: str, venue: str) -> str:
    return make_id("vn_", city, venue)


def pick_venue(series: facts.Series, year: int, city: str, rng: random.Random) -> str:
    venues = facts.CITY_BY_NAME[city].venues
    if series.slug == "all-england" and city == "London":
        # Wembley Arena 1957-1993 (world-facts); the Royal Horticultural Hall before it
        return venues[1][0] if year >= 1957 else venues[0][0]
    return venues[rng.randrange(len(venues))][0]


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


def edition_dates(series: facts.Series, year: int, rng: random.Random) -> tuple[dt.date | None, dt.date | None]:
    if year < 1915 and rng.random() < 0.25:
        return None, None  # a few very old editions have no dates on record
    play_year = facts.PLAYED_LATE.get((series.slug, year), year)
    first = dt.date(play_year, facts.PLAYED_IN_MONTH.get((series.slug, year), series.month), 1)
    tuesday = first + dt.timedelta(days=(1 - first.weekday()) % 7)
    start = tuesday + dt.timedelta(weeks=rng.randrange(3))
    days = series.days if year >= 1960 else min(series.days, 4)
    return start, start + dt.timedelta(days=days - 1)


# Invented lower tiers of the full scale: (name suffix, years after the nation's first), each
# level no earlier than its real-world introduction.
MINOR_LEVELS = (("International", 0), ("International Challenge", 25), ("International Series", 35),
                ("Future Series", 45))
MINOR_FIRST = {"International Challenge": 1990, "International Series": 2000, "Future Series": 2008}
MINOR_TIER: dict[str, str] = {}
MINOR_LAST_START = 2024   # a level that would start later is left out


def extra_series(scale: Scale) -> tuple[facts.Series, ...]:
    """Invented lower-tier internationals (full scale only): four levels in every host country
    with a city, and a Masters in every host city."""
    out = []
    seen = set()
    for c in facts.CITIES:
        if c.country in seen or len(out) >= scale.extra_series:
            continue
        seen.add(c.country)
        name = dict((k, v) for k, v, _a in facts.COUNTRIES)[c.country]
        first = 1965 + int.from_bytes(digest("extra", c.country)[:2], "big") % 30
        for suffix, add in MINOR_LEVELS:
            start = max(first + add, MINOR_FIRST.get(suffix, 0))
            if start > MINOR_LAST_START:
                continue
            slug = slugify(f"{name} {suffix}")
            MINOR_TIER[slug] = suffix
            out.append(facts.Series(slug, f"{name} {suffix}", start, "minor",
                                    1 + int.from_bytes(digest("month", c.country, suffix)[:1], "big") % 12,
                                    ((start, (c.name,)),), days=5))
    # and a Masters in every host city (Orléans Masters style), from the 1990s, where the city has
    # no real one already (facts: the Orléans and Akita Masters of the World Tour)
    for c in facts.CITIES:
        start = 1990 + int.from_bytes(digest("masters", c.name)[:2], "big") % 15
        slug = slugify(f"{c.name} Masters")
        if slug in facts.SERIES_BY_SLUG:
            continue
        MINOR_TIER[slug] = "International Challenge"
        out.append(facts.Series(slug, f"{c.name} Masters", start, "minor",
                                1 + int.from_bytes(digest("month", c.name, "masters")[:1], "big") % 12,
                                ((start, (c.name,)),), days=5))
    return tuple(out[: scale.extra_series])


# The tour: after the current week, lower-tier stops (International Challenge level) keep
# play going at every hour (UTC) on every day, as the current week's editions do on as_of.
# Four bands of hosts about six hours apart (UTC+9, +3, -3, -8/-7); a day's play runs from
# 10:00 local for 4-10 hours (more on the early days of a draw, most on the first), so in
# each band two lanes of 5-day stops run two days apart: every day one of them is in its
# first three days (7 hours of play or more), and the bands' hours join up around the clock.
# Stops run from the day after as_of (the current week thins out from then) to the end
# of the calendar; each is drawn by the live feed on its first day like any future edition.
TOUR_BANDS = (("east-asia-challenge", "East Asia Challenge", ("Tokyo", "Seoul", "Osaka", "Hiroshima")),
              ("east-challenge", "Eastern Challenge", ("Nairobi", "Tehran", "Addis Ababa", "Kampala")),
              ("south-america-challenge", "South America Challenge", ("São Paulo", "Rio de Janeiro")),
              ("pacific-challenge", "Pacific Challenge", ("Los Angeles", "Calgary", "Denver")))
TOUR_DAYS = 5                       # one round a day: a 32 draw (R32 to F) in five days
TOUR_LANES = (1, 3)                 # days after as_of each band's two lanes begin (a first match: 01:00 UTC the next day at the earliest)
TOUR_FIRST_YEAR = 2026
TOUR_TIER = "International Challenge"
TOUR_SERIES = tuple(facts.Series(slug, name, TOUR_FIRST_YEAR, "minor", 1, ((TOUR_FIRST_YEAR, cities),), days=TOUR_DAYS)
                    for slug, name, cities in TOUR_BANDS)
MINOR_TIER.update({s.slug: TOUR_TIER for s in TOUR_SERIES})


def tour_stops(seed: int, scale: Scale, as_of: dt.date) -> list[Edition]:
    """The tour's stops from as_of to the end of the calendar (see TOUR_BANDS)."""
    last = dt.date(as_of.year + 1, 12, 31)
    out = []
    for s in TOUR_SERIES:
        cities = s.hosts[0][1]
        for lane, first in enumerate(TOUR_LANES):
            start = as_of + dt.timedelta(days=first)
            n = 0
            while start + dt.timedelta(days=TOUR_DAYS - 1) <= last:
                city = cities[(2 * n + lane) % len(cities)]
                rng = sub_rng(seed, s.slug, start)
                venue = pick_venue(s, start.year, city, rng)
                out.append(Edition(
                    id=make_id("tr_", s.slug, start), series=s, year=start.year,
                    name=f"{s.name} {start.year}, {city} {start.day} {start:%b}", tier=TOUR_TIER,
                    start=start, end=start + dt.timedelta(days=TOUR_DAYS - 1), city=city,
                    venue_id=venue_id(city, venue), venue_name=venue,
                    prize=facts.prize_money(s, start.year, TOUR_TIER), draw_size=singles_draw(s, start.year, scale),
                    state="future"))
                start += dt.timedelta(days=TOUR_DAYS)
                n += 1
    return out


def build_calendar(seed: int, scale: Scale, as_of: dt.date, series_list: tuple[facts.Series, ...]) -> list[Edition]:
    last_year = as_of.year + 1
    current = {slug: (city, day) for slug, city, day in CURRENT_WEEK[: scale.current_week]}
    out: list[Edition] = []
    tour = {s.slug for s in TOUR_SERIES}
    for s in series_list:
        if s.slug in tour:
            continue
        years = facts.edition_years(s, last_year)
        if scale.years is not None:
            wanted = set(scale.years.get(s.slug, ()))
            years = [y for y in years if y in wanted or y >= as_of.year]
        if s.slug in current and as_of.year not in years:
            years = sorted(set(years) | {as_of.year})
        for year in years:
            # series held together (Thomas and Uber Cups since 1984) draw their days from one stream
            rng = sub_rng(seed, facts.dates_key(s, year), year)
            start, end = edition_dates(s, year, rng)
            pool = facts.host_pool(s, year)
            city = pool[(year - s.first_year) % len(pool)] if s.kind not in ("open",) else pool[rng.randrange(len(pool))]
            city = facts.host_of(s, year) or city
            state = "past"
            as_of_day = 0
            if year == as_of.year and s.slug in current:
                city, as_of_day = current[s.slug]
                start = as_of - dt.timedelta(days=as_of_day)
                end = start + dt.timedelta(days=5)
                state = "current"
            elif start is not None and end is not None and end >= as_of:
                if start <= as_of + dt.timedelta(days=1):
                    # overlapping the current week: moved a fortnight on, to keep the week's set fixed
                    start += dt.timedelta(days=14)
                    end += dt.timedelta(days=14)
                state = "future"
            elif start is None and year >= as_of.year:
                state = "future"
            if state == "future" and year < as_of.year:
                continue
            venue = pick_venue(s, year, city, rng)
            t = MINOR_TIER.get(s.slug) if s.kind == "minor" else facts.tier(s, year)
            out.append(Edition(
                id=make_id("tr_", s.slug, year), series=s, year=year, name=f"{s.name} {year}", tier=t,
                start=start, end=end, city=city, venue_id=venue_id(city, venue), venue_name=venue,
                prize=facts.prize_money(s, year, t),
                # the current week's draws are full size at every scale: one round a day, so
                # that as_of falls in the middle of play (finished, live and scheduled rounds)
                draw_size=max(32, singles_draw(s, year, scale)) if state == "current" else singles_draw(s, year, scale) or None,
                state=state, as_of_day=as_of_day))
    if tour & {s.slug for s in series_list}:
        out.extend(tour_stops(seed, scale, as_of))
    out.sort(key=lambda e: (e.start or dt.date(e.year, 1, 1), e.series.slug, e.id))
    return out


def utc_offset(ed: Edition) -> dt.timedelta:
    """The host city's offset from UTC (its local day and sessions)."""
    return dt.timedelta(hours=facts.CITY_BY_NAME[ed.city].utc_offset)


def series_of(scale: Scale) -> tuple[facts.Series, ...]:
    """The series a world of `scale` holds."""
    series_list = facts.SERIES + extra_series(scale)
    if scale.series is not None:
        series_list = tuple(s for s in series_list if s.slug in scale.series)
    return series_list + TOUR_SERIES


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
