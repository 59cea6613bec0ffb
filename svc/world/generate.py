"""Deterministic generator of the badminton world -> a bundle directory (docs/bundle.md).

Same seed + as_of + scale give byte-identical files: every random stream is a `random.Random`
seeded from a sha256 of a descriptive string (never Python's hash()), every iteration runs
over tuples or sorted keys. as_of is the world's "now": a moment (recorded in world_meta
`now`), or a day, which stands for noon UTC of it.

The pieces, in the order they run:
  calendar   editions of every series by era (dates, hosts, tiers, prize money), the
             current week's editions in progress on as_of, and the calendar after it,
             with the tour (TOUR_BANDS): lower-tier stops in four time-zone bands so
             that after the current week some match is in play at every hour (UTC);
  people     birth cohorts of players whose strength rises, peaks and falls with age,
             nations strong by era, doubles partnerships that persist and break;
  draws      knockout brackets with seeds, team ties with groups then knockout, the
             finals' groups; results from svc.world.engine;
  extras     times of day, odds, rally-by-rally data, corrections, weekly rankings.
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import heapq
from collections import deque
import math
import random
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from svc.world import engine, facts
from svc.world.bundle import BundleWriter, FORMAT_VERSION

Progress = Callable[[str, int, int], None] | None
GENERATOR = "svc.world.generate 1"

# --------------------------------------------------------------------------- determinism


def digest(*parts: object) -> bytes:
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()


def sub_rng(*parts: object) -> random.Random:
    """An independent random stream named by `parts` (e.g. seed, series, year)."""
    return random.Random(int.from_bytes(digest(*parts)[:8], "big"))


def make_id(prefix: str, *parts: object) -> str:
    """prefix + 12 lowercase base32 characters of a hash of stable inputs (60 bits)."""
    return prefix + base64.b32encode(digest(*parts)[:10]).decode().lower()[:12]


def slugify(name: str) -> str:
    s = name.replace("ø", "o").replace("Ø", "O").replace("æ", "ae").replace("Æ", "AE").replace("ß", "ss")
    s = unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()
    return "-".join("".join(c if c.isalnum() else " " for c in s).split())


# --------------------------------------------------------------------------- scales


@dataclass(frozen=True)
class Scale:
    name: str
    series: tuple[str, ...] | None          # None: every series in facts
    years: dict[str, tuple[int, ...]] | None  # explicit years (tiny), else every edition
    draw_cap: int                            # largest singles draw
    draw_div: int                            # divides the era's draw sizes
    cohort: int                              # players born per year and gender (modern era)
    para_cohort: int
    current_week: int                        # editions in progress on as_of
    ranking_top: int                         # places in the weekly top lists
    odds_tiers_only: bool                    # odds only for the big events
    rally_share: float                       # share of last-12-months matches with rallies
    extra_series: int                        # invented lower-tier internationals (full scale)
    corrections: int


TINY_YEARS = {
    "all-england": (1899, 1900, 1934, 1966, 1985, 2003, 2005, 2010, 2024, 2025, 2026),
    "world-championships": (1977, 2006, 2019, 2025),
    "olympic-games": (2016, 2024),
    "thomas-cup": (1952, 2024),
    "uber-cup": (2024,),
    "sudirman-cup": (1989, 2025),
    "world-tour-finals": (2025,),
    "world-junior-championships": (2025,),
    "para-world-championships": (2024,),
    "paralympic-games": (2024,),
    "india-open": (), "french-open": (), "us-open": (), "canada-open": (),
}

SCALES = {
    "tiny": Scale("tiny", tuple(TINY_YEARS), TINY_YEARS, draw_cap=16, draw_div=4, cohort=7, para_cohort=3,
                  current_week=3, ranking_top=10, odds_tiers_only=False, rally_share=1.0, extra_series=0,
                  corrections=2),
    "demo": Scale("demo", None, None, draw_cap=64, draw_div=2, cohort=36, para_cohort=8, current_week=4,
                  ranking_top=25, odds_tiers_only=True, rally_share=0.5, extra_series=0, corrections=5),
    "full": Scale("full", None, None, draw_cap=128, draw_div=1, cohort=1000, para_cohort=40, current_week=4,
                  ranking_top=25, odds_tiers_only=True, rally_share=1.0, extra_series=320, corrections=40),
}

# The current week's editions: series, host city, the day of the edition that as_of falls on.
# Hosts in Asia, Europe and the Americas so that play covers all 24 hours (UTC).
# At noon UTC (as_of given as a day) it is afternoon in New Delhi and Paris (matches live), before
# dawn in the Americas (their day's matches still to come, last night's finished after midnight UTC).
CURRENT_WEEK = (("india-open", "New Delhi", 2), ("french-open", "Paris", 3), ("us-open", "Los Angeles", 2),
                ("canada-open", "Calgary", 4))

BOOKMAKERS = ("Northbet", "Shuttlebook", "Feather & Co", "Smashline", "Netcord Bet", "Drop Shot")
ODDS_FROM = 2005
BIG_TIERS = {"Super 1000", "Super 750", "Super 500", "Superseries Premier", "Superseries",
             "World Tour Finals", "Superseries Finals"}
MINOR_SKEW = 1.4           # >1 skews minor events' entry windows toward the top of the field
FIRST_SEASON = 1895        # partnerships are formed from here on
ADHOC_POOL = 240           # candidates considered when pairing juniors / para players per event
TIMES_FROM = 2000          # start/end times of day are recorded from 2000
PLANNED_MIN = 50           # a match's length in a timetable made before play (the engine's matches: ~30-80 min)
NEXT_ROUND_GAP = dt.timedelta(minutes=30)   # from the later feeder's end to its next-round match, at the least
WALKOVER_RATE = 0.012
RETIRE_RATE = 0.015
SEEDING_FROM = 1932        # seeding from 1932 at All England (and, here, everywhere)
RANKING_FROM = dt.date(2009, 10, 1)         # number ones counted from 1 October 2009
TOP_LISTS_UNTIL = dt.date(2026, 8, 31)      # top lists to the end of August 2026
FULL_LISTS_FROM = dt.date(2026, 9, 1)       # every ranked player from September 2026
RANKING_WINDOW = dt.timedelta(weeks=52)
RANKING_BEST = 10                           # best ten tournaments count
DISCIPLINES = ("MS", "WS", "MD", "WD", "XD")
ROUND_NAMES = {"R128": "Round of 128", "R64": "Round of 64", "R32": "Round of 32", "R16": "Round of 16",
               "QF": "Quarter-finals", "SF": "Semi-finals", "F": "Final", "3P": "Bronze medal match"}
ROUND_OF_SIZE = {128: "R128", 64: "R64", 32: "R32", 16: "R16", 8: "QF", 4: "SF", 2: "F"}


# --------------------------------------------------------------------------- people


class Player:
    __slots__ = ("idx", "id", "name", "gender", "country", "born_year", "born", "hand", "height", "coach",
                 "sport_class", "peak", "start_age", "end_age", "kind", "used")

    def strength(self, year: int) -> float:
        """Strength in `year`: rises to a peak at about 26-27, then falls."""
        age = year - self.born_year
        return self.peak - 1.6 * (age - 26.5) ** 2

    def row(self) -> tuple:
        """The players row (strength: the peak, as stored)."""
        return (self.id, self.name, slugify(self.name), self.country, self.gender, self.born, self.hand, self.height,
                self.coach, self.sport_class, round(self.peak, 1))


class People:
    """Birth cohorts of players, created lazily and deterministically per (kind, gender, year)."""

    def __init__(self, seed: int, scale: Scale):
        self.seed = seed
        self.scale = scale
        self.cohorts: dict[tuple[str, str, int], list[Player]] = {}
        self.all: list[Player] = []
        self._active: dict[tuple[str, str, int], list[Player]] = {}
        self._pairs: dict[tuple[str, int], list[tuple[Player, Player]]] = {}

    def cohort(self, kind: str, gender: str, year: int) -> list[Player]:
        key = (kind, gender, year)
        got = self.cohorts.get(key)
        if got is not None:
            return got
        rng = sub_rng(self.seed, "cohort", kind, gender, year)
        base = self.scale.para_cohort if kind == "para" else self.scale.cohort
        # fewer players in the early decades, the full count once the sport spread (1960s on)
        size = max(2, round(base * (0.5 if year < 1930 else 0.7 if year < 1955 else 1.0)))
        if kind == "para" and year < 1950:
            size = 0
        nations = facts.nation_strengths(year + 22)
        weights = [0.25 + 2.0 * s for _c, s in nations]
        out = []
        for i in range(size):
            nation, nstrength = rng.choices(nations, weights)[0]
            p = Player()
            p.idx = len(self.all)
            p.id = make_id("pl_", self.seed, kind, gender, year, i)
            p.gender = gender
            p.country = nation
            p.born_year = year
            p.name = person_name(rng, nation, gender)
            p.born = None if year < 1925 and rng.random() < 0.5 else dt.date(year, 1, 1) + dt.timedelta(days=rng.randrange(365))
            p.hand = None if year < 1935 and rng.random() < 0.4 else ("left" if rng.random() < 0.15 else "right")
            p.height = None if year < 1950 or rng.random() < 0.1 else round(rng.gauss(181 if gender == "M" else 168, 6))
            p.coach = None
            if year >= 1950 and rng.random() < 0.4:
                p.coach = ", ".join(person_name(rng, nation, "M") for _ in range(rng.choice((1, 1, 2))))
            p.sport_class = rng.choice(facts.SPORT_CLASSES) if kind == "para" else None
            p.peak = 1000.0 + 260.0 * nstrength + rng.gauss(0, 55)
            p.start_age = rng.choice((16, 17, 17, 18, 19))
            p.end_age = rng.choice((26, 28, 29, 30, 31, 32, 33, 35))
            if kind == "para":
                p.start_age, p.end_age = 18, rng.choice((35, 40, 45))
            # speciality: singles, doubles or both (doubles players also play mixed)
            p.kind = kind if kind == "para" else rng.choices(("S", "D", "B"), (0.45, 0.4, 0.15))[0]
            p.used = False
            out.append(p)
            self.all.append(p)
        self.cohorts[key] = out
        return out

    def warm(self, last_year: int) -> None:
        """Creates every cohort that plays up to `last_year`, oldest first. Players are numbered
        (`idx`) in the order their cohorts are made, and a few choices break ties by that number;
        the live feed warms a fresh People this way so that its draws never depend on which
        editions it happened to draw before (the generator makes cohorts as its calendar needs them)."""
        for year in range(FIRST_SEASON - 46, last_year - 13):
            for kind in ("senior", "para"):
                for gender in ("M", "W"):
                    self.cohort(kind, gender, year)

    def active(self, kind: str, gender: str, year: int) -> list[Player]:
        """Players of `kind` (senior/para/junior) and gender playing in `year`, by strength."""
        key = (kind, gender, year)
        got = self._active.get(key)
        if got is not None:
            return got
        out = []
        if kind == "junior":
            for born in range(year - 18, year - 14):
                out.extend(self.cohort("senior", gender, born))
        else:
            ck = "para" if kind == "para" else "senior"
            for born in range(year - 46, year - 15):
                for p in self.cohort(ck, gender, born):
                    if p.start_age <= year - born <= p.end_age:
                        out.append(p)
        out.sort(key=lambda p: (-p.strength(year), p.idx))
        self._active[key] = out
        return out

    def pairs(self, disc: str, year: int) -> list[tuple[Player, Player]]:
        """The doubles partnerships of `year`: last year's persist (~75 %), the rest re-form."""
        key = (disc, year)
        got = self._pairs.get(key)
        if got is not None:
            return got
        rng = sub_rng(self.seed, "pairs", disc, year)
        g1, g2 = {"MD": ("M", "M"), "WD": ("W", "W"), "XD": ("M", "W")}[disc]
        pool1 = [p for p in self.active("senior", g1, year) if p.kind in "DB"]
        pool2 = pool1 if g1 == g2 else [p for p in self.active("senior", g2, year) if p.kind in "DB"]
        ok1 = {p.idx for p in pool1}
        ok2 = {p.idx for p in pool2}
        taken: set[int] = set()
        pairs = []
        # last year's partnerships first (computed on demand, back to the first season)
        prev = self.pairs(disc, year - 1) if year > FIRST_SEASON else []
        for a, b in prev:
            if a.idx in ok1 and b.idx in ok2 and a.idx not in taken and b.idx not in taken and rng.random() < 0.75:
                pairs.append((a, b))
                taken.update((a.idx, b.idx))
        # new partnerships inside each nation, strongest with strongest
        by_nation1: dict[str, list[Player]] = {}
        by_nation2: dict[str, list[Player]] = {}
        for p in pool1:
            if p.idx not in taken:
                by_nation1.setdefault(p.country, []).append(p)
        for p in pool2:
            if p.idx not in taken:
                by_nation2.setdefault(p.country, []).append(p)
        left1: list[Player] = []
        left2: list[Player] = []
        for nation in sorted(by_nation1):
            a_list = by_nation1[nation]
            if g1 == g2:
                for i in range(0, len(a_list) - 1, 2):
                    pairs.append((a_list[i], a_list[i + 1]))
                left1.extend(a_list[len(a_list) - len(a_list) % 2:])
            else:
                b_list = by_nation2.get(nation, [])
                pairs.extend(zip(a_list, b_list))
                left1.extend(a_list[len(b_list):])
                left2.extend(b_list[len(a_list):])
        for nation in sorted(set(by_nation2) - set(by_nation1)):
            left2.extend(by_nation2[nation])
        # players without a partner at home pair across nations (as many did in small nations)
        left1.sort(key=lambda p: p.idx)
        left2.sort(key=lambda p: p.idx)
        if g1 == g2:
            pairs.extend((left1[i], left1[i + 1]) for i in range(0, len(left1) - 1, 2))
        else:
            pairs.extend(zip(left1, left2))
        pairs.sort(key=lambda ab: (-(ab[0].strength(year) + ab[1].strength(year)), ab[0].idx))
        self._pairs[key] = pairs
        return pairs


def person_name(rng: random.Random, nation: str, gender: str) -> str:
    style = facts.COUNTRY_STYLE[nation]
    men, women, families = facts.NAMES[style]
    given = rng.choice(men if gender == "M" else women)
    family = rng.choice(families)
    if style in ("cn", "kr", "vn"):
        return f"{family} {given}"
    return f"{given} {family}"


# --------------------------------------------------------------------------- calendar


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
    venues = facts.CITIES[facts.CITY_ID[city] - 1].venues
    if series.slug == "all-england" and city == "London":
        # Wembley Arena 1957-1993 (world-facts); the Royal Horticultural Hall before it
        return venues[1][0] if year >= 1957 else venues[0][0]
    return venues[rng.randrange(len(venues))][0]


# Series whose draws keep their real size at every scale but tiny.
FULL_DRAW_SERIES = {"all-england", "world-championships", "olympic-games", "world-tour-finals"}


def singles_draw(series: facts.Series, year: int, scale: Scale) -> int:
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
    else:
        size = 32
    size = min(size, scale.draw_cap)
    if series.slug not in FULL_DRAW_SERIES or scale.draw_cap < 32:
        size //= scale.draw_div
    return max(8 if series.kind != "para" else 4, size)


def edition_dates(series: facts.Series, year: int, rng: random.Random) -> tuple[dt.date | None, dt.date | None]:
    if year < 1915 and rng.random() < 0.25:
        return None, None  # a few very old editions have no dates on record
    play_year = facts.PLAYED_LATE.get((series.slug, year), year)
    first = dt.date(play_year, series.month, 1)
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
        name = dict((k, v) for k, v, _a, _b in facts.COUNTRIES)[c.country]
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
    # and a Masters in every host city (Orléans Masters style), from the 1990s
    for c in facts.CITIES:
        start = 1990 + int.from_bytes(digest("masters", c.name)[:2], "big") % 15
        slug = slugify(f"{c.name} Masters")
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
            rng = sub_rng(seed, s.slug, year)
            start, end = edition_dates(s, year, rng)
            pool = facts.host_pool(s, year)
            city = pool[(year - s.first_year) % len(pool)] if s.kind not in ("open",) else pool[rng.randrange(len(pool))]
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


# --------------------------------------------------------------------------- matches


class Match:
    __slots__ = ("id", "event_id", "tid", "disc", "sport_class", "round_code", "round_name", "position",
                 "tie_id", "tie_order", "side1", "side2", "seed1", "seed2", "g1", "g2", "winner", "outcome",
                 "status", "day", "start_at", "end_at", "p1", "rules", "rallies", "feeders", "day_index",
                 "s1", "s2")

    def row(self) -> tuple:
        return (self.id, self.event_id, self.tid, self.disc, self.sport_class, self.round_code, self.round_name,
                self.position, self.tie_id, self.tie_order, [p.id for p in self.side1], [p.id for p in self.side2],
                self.seed1, self.seed2, self.g1, self.g2, self.winner, self.outcome, self.status, self.day,
                self.start_at, self.end_at)


def side_strength(side: tuple[Player, ...], year: int) -> float:
    return sum(p.strength(year) for p in side) / len(side)


def standard_order(n: int) -> list[int]:
    """Seed ranks slot by slot in a perfectly seeded bracket of n (1 top, 2 bottom ...)."""
    order = [1]
    while len(order) < n:
        m = len(order) * 2
        order = [x for r in order for x in (r, m + 1 - r)]
    return order


class Event:
    """One draw (a discipline, maybe a sport class) of one edition, played as matches."""

    def __init__(self, gen: "Generator", ed: Edition, disc: str, sport_class: str | None):
        self.gen = gen
        self.ed = ed
        self.disc = disc
        self.sport_class = sport_class
        self.rng = sub_rng(gen.seed, ed.id, disc, sport_class)

    def new_match(self, round_code: str | None, round_name: str, position: int, side1, side2,
                  tie_id: str | None = None, tie_order: int | None = None) -> Match:
        m = Match()
        key = (self.ed.id, self.disc, self.sport_class, round_code or round_name, position, tie_id, tie_order)
        m.id = make_id("mt_", *key)
        m.event_id = make_id("ev_", *key)
        m.tid = self.ed.id
        m.disc = self.disc
        m.sport_class = self.sport_class
        m.round_code = round_code
        m.round_name = round_name
        m.position = position
        m.tie_id = tie_id
        m.tie_order = tie_order
        m.side1, m.side2 = side1, side2
        m.seed1 = m.seed2 = None
        m.feeders = ()
        m.rallies = None
        m.day = m.start_at = m.end_at = None
        m.day_index = 0
        return m

    def play(self, m: Match, day_index: int) -> Match:
        """Decide the match: walkover, retirement or a played result (rally by rally when the
        match is recent enough to carry rallies). The current week's split into finished,
        live and scheduled comes later (split_current) and hides what lies after now."""
        ed = self.ed
        year = ed.play_year
        m.day_index = day_index
        day = ed.start + dt.timedelta(days=day_index) if ed.start else dt.date(year, 6, 30)
        if ed.start:
            m.day = day
        m.rules = engine.era_rules(self.disc, day)
        m.s1, m.s2 = side_strength(m.side1, year), side_strength(m.side2, year)
        m.p1 = engine.rally_chance(m.s1, m.s2)
        for p in m.side1 + m.side2:
            p.used = True
        rng = self.rng
        m.status, m.outcome = "finished", "played"
        u = rng.random()
        want_rallies = ed.state == "current" or (
            ed.end is not None and self.gen.rally_from <= ed.end and rng.random() < self.gen.scale.rally_share)
        if u < WALKOVER_RATE:
            m.g1, m.g2, m.outcome = [], [], "walkover"
            m.winner = 1 if rng.random() < 0.5 + (m.p1 - 0.5) * 2 else 2
            return m
        if want_rallies:
            rallies = list(engine.play_rallies(rng, m.p1, m.rules, first_server=rng.choice((1, 2))))
            if u < WALKOVER_RATE + RETIRE_RATE:
                cut = rng.randrange(1, len(rallies))
                rallies = rallies[:cut]
            m.rallies = rallies
            m.g1, m.g2 = engine.games_of(rallies)
            if u < WALKOVER_RATE + RETIRE_RATE:
                m.outcome = "retired"
                m.winner = rng.choice((1, 2))  # either side may be the one who could not go on
            else:
                won1 = sum(1 for a, b in zip(m.g1, m.g2) if a > b)
                m.winner = 1 if won1 == engine.GAMES_TO_WIN else 2
            return m
        g1, g2, winner = engine.sample_match(rng, m.p1, m.rules)
        if u < WALKOVER_RATE + RETIRE_RATE:
            k = rng.randrange(len(g1))
            a, b = engine.partial_game(rng, engine.point_share(m.p1, m.rules), m.rules)
            g1, g2 = g1[:k] + [a], g2[:k] + [b]
            m.outcome = "retired"
            winner = rng.choice((1, 2))
        m.g1, m.g2, m.winner = g1, g2, winner
        return m


# --------------------------------------------------------------------------- the generator


def utc_offset(ed: Edition) -> dt.timedelta:
    """The host city's offset from UTC (its local day and sessions)."""
    return dt.timedelta(hours=facts.CITIES[facts.CITY_ID[ed.city] - 1].utc_offset)


def on_five(at: dt.datetime) -> dt.datetime:
    """The next whole five minutes after `at` (start times are on the five)."""
    return at.replace(second=0, microsecond=0) + dt.timedelta(minutes=5 - at.minute % 5)


def world_now(as_of: dt.date | dt.datetime) -> dt.datetime:
    """The generator's "now": the moment given, else noon UTC of the day given."""
    if isinstance(as_of, dt.datetime):
        return as_of.astimezone(dt.timezone.utc) if as_of.tzinfo else as_of.replace(tzinfo=dt.timezone.utc)
    return dt.datetime(as_of.year, as_of.month, as_of.day, 12, tzinfo=dt.timezone.utc)


def series_of(scale: Scale) -> tuple[facts.Series, ...]:
    """The series a world of `scale` holds."""
    series_list = facts.SERIES + extra_series(scale)
    if scale.series is not None:
        series_list = tuple(s for s in series_list if s.slug in scale.series)
    return series_list + TOUR_SERIES


class Generator:
    """The whole world into a bundle; with out_dir None, only its pieces (draws, timetables)
    for the live feed, which starts the future editions with this same code."""

    def __init__(self, out_dir: Path | None, scale: Scale, seed: int, as_of: dt.date | dt.datetime,
                 progress: Progress = None):
        self.scale = scale
        self.seed = seed
        self.now = world_now(as_of)
        self.as_of = self.now.date()
        self.rally_from = self.as_of - dt.timedelta(days=365)
        self.progress = progress
        self.people = People(seed, scale)
        self.w = BundleWriter(out_dir) if out_dir is not None else None
        self.results: list[tuple[dt.date, str, tuple, int]] = []  # ranking results (date, disc, entry, points)
        self.finished_for_corrections: list[Match] = []
        self.odds_rng = sub_rng(seed, "odds")
        self.n_matches = 0

    # ---------------------------------------------------------------- static tables
    def static_tables(self, series_list) -> None:
        self.w.rows("countries", ((c, n) for c, n, _a, _b in facts.COUNTRIES))
        self.w.rows("cities", ((i + 1, c.name, c.country, c.elevation_m) for i, c in enumerate(facts.CITIES)))
        self.w.rows("venues", ((venue_id(c.name, v), v, i + 1, elev)
                               for i, c in enumerate(facts.CITIES) for v, elev in c.venues))
        self.w.rows("series", ((s.slug, s.name, s.level, s.para, s.team, s.first_year) for s in series_list))

    def run(self) -> dict[str, Any]:
        series_list = series_of(self.scale)
        self.static_tables(series_list)
        calendar = build_calendar(self.seed, self.scale, self.as_of, series_list)
        for i, ed in enumerate(calendar):
            self.w.row("tournaments", (ed.id, ed.series.slug, ed.name, ed.year, ed.series.level, ed.series.para,
                                       ed.series.team, ed.tier, ed.start, ed.end, facts.CITY_ID[ed.city],
                                       ed.venue_id, ed.prize, ed.series.medals or ed.series.kind == "olympics",
                                       ed.draw_size))
            if ed.state != "future":
                self.edition(ed)
            if self.progress and (i % 25 == 0 or i == len(calendar) - 1):
                self.progress("tournaments", i + 1, len(calendar))
        self.corrections()
        self.rankings()
        self.players()
        meta = {"seed": self.seed, "scale": self.scale.name, "as_of": self.as_of.isoformat(), "generator": GENERATOR,
                "now": self.now.isoformat()}
        self.w.rows("world_meta", sorted((k, str(v)) for k, v in {**meta, "format": FORMAT_VERSION}.items()))
        return self.w.finish(meta)

    # ---------------------------------------------------------------- one edition
    def edition(self, ed: Edition) -> None:
        s = ed.series
        if s.team:
            matches = TeamEvent(self, ed).play()
        else:
            matches = []
            for disc, sport_class in self.events_of(ed):
                ev = Event(self, ed, disc, sport_class)
                if s.kind == "finals":
                    matches.extend(self.finals_event(ev))
                else:
                    matches.extend(self.knockout(ev))
        self.schedule(ed, matches)
        if ed.state == "current":
            matches = self.split_current(ed, matches)
        self.emit(ed, matches)

    def events_of(self, ed: Edition) -> list[tuple[str, str | None]]:
        s = ed.series
        if s.para:
            return [(d, c) for d, c in facts.PARA_EVENTS]
        if s.slug == "all-england" and ed.year == 1899:
            return [("MD", None), ("WD", None), ("XD", None)]  # 1899: doubles only
        if s.kind == "olympics" and ed.year < 1996:
            return [(d, None) for d in ("MS", "WS", "MD", "WD")]  # mixed doubles from 1996
        return [(d, None) for d in DISCIPLINES]

    # ---------------------------------------------------------------- entries
    def entries(self, ev: Event, size: int) -> list[tuple[Player, ...]]:
        """The `size` strongest-looking entries willing to play, strongest first."""
        ed, disc, rng = ev.ed, ev.disc, ev.rng
        year = ed.play_year
        kind = "para" if ed.series.para else "junior" if ed.series.level == "junior" else "senior"
        region = ed.series.region
        prestige = 1.0 if (ed.tier in BIG_TIERS or ed.series.kind in ("worlds", "olympics", "finals")) else 0.5
        # the lower tiers draw from deeper in the field: the stars play elsewhere that week
        offset = 0
        if ed.series.kind == "minor":
            field_size = len(self.people.active(kind, "M" if disc in ("MS", "MD", "XD") else "W", year))
            if disc in ("MD", "WD", "XD"):
                field_size //= 3  # about a third of the field are doubles pairs
            # anywhere in the field, more often near its top: minor events are where most
            # players of the world play most of their matches
            offset = int(rng.random() ** MINOR_SKEW * max(0, field_size * 0.8 - size * 4))
        need = offset + size * 4

        def allowed(p: Player) -> bool:
            if region is None:
                return True
            if region == "CW":
                return p.country in facts.COMMONWEALTH
            return facts.COUNTRY_CONTINENT[p.country] == region

        per_nation_cap = {"olympics": 2, "worlds": 4}.get(ed.series.kind, 99)
        cands: list[tuple[tuple[Player, ...], float]] = []
        if disc in ("MS", "WS"):
            gender = "M" if disc == "MS" else "W"
            for p in self.people.active(kind, gender, year):  # strongest first; stop once deep enough
                if not allowed(p) or (kind == "para" and p.sport_class != ev.sport_class) \
                        or (kind == "senior" and p.kind not in "SB"):
                    continue
                cands.append(((p,), p.strength(year)))
                if len(cands) >= need:
                    break
        else:
            if kind == "senior":
                pool_pairs = self.people.pairs(disc, year)
            else:
                pool_pairs = self.adhoc_pairs(ev, kind, year)
            for a, b in pool_pairs:
                if allowed(a) and allowed(b):
                    cands.append(((a, b), (a.strength(year) + b.strength(year)) / 2))
                    if len(cands) >= need:
                        break
        if len(cands) - offset < size:
            offset = max(0, len(cands) - size * 2)
        # interest: the big events draw the best; smaller ones lose some stars at random
        scored = []
        for i, (entry, st) in enumerate(cands[offset: offset + size * 4]):
            if prestige < 1 and i < size // 2 and rng.random() < 0.4:
                continue
            scored.append((st + rng.gauss(0, 25), i, entry))
        scored.sort(key=lambda t: (-t[0], t[1]))
        per_nation: dict[str, int] = {}
        out = []
        for _score, _i, entry in scored:
            n = entry[0].country
            if per_nation.get(n, 0) >= per_nation_cap:
                continue
            per_nation[n] = per_nation.get(n, 0) + 1
            out.append(entry)
            if len(out) == size:
                break
        return out

    def adhoc_pairs(self, ev: Event, kind: str, year: int) -> list[tuple[Player, Player]]:
        """Pairs made for one event (juniors, para): same nation where possible, by strength."""
        g1, g2 = {"MD": ("M", "M"), "WD": ("W", "W"), "XD": ("M", "W")}[ev.disc]
        classes = tuple(ev.sport_class.split("-")) if ev.sport_class else None

        def fits(p: Player) -> bool:
            return classes is None or p.sport_class in classes

        # only the strongest few hundred can make a draw; the cap keeps the pairing loop short
        a_pool = [p for p in self.people.active(kind, g1, year) if fits(p)][:ADHOC_POOL]
        b_pool = a_pool if g1 == g2 else [p for p in self.people.active(kind, g2, year) if fits(p)][:ADHOC_POOL]
        used: set[int] = set()
        pairs = []
        for a in a_pool:
            if a.idx in used:
                continue
            for b in b_pool:
                if b.idx in used or b.idx == a.idx:
                    continue
                # a class pair (WH1-WH2) takes one player of each class
                if classes and len(classes) == 2 and g1 == g2 and a.sport_class == b.sport_class:
                    continue
                if b.country == a.country or len(pairs) % 3 == 2:
                    pairs.append((a, b))
                    used.update((a.idx, b.idx))
                    break
        return pairs

    # ---------------------------------------------------------------- knockout draws
    def knockout_draw(self, ev: Event) -> tuple[list[tuple[tuple, int | None]], list[str], list[tuple]] | None:
        """The draw of one knockout event: its slots (entry, seed) in draw order, its rounds
        (first to final) and its entries; None when too few entered."""
        ed = ev.ed
        size = ed.draw_size or 32
        if ev.disc in ("MD", "WD", "XD") and not ed.series.para and size > 32:
            size //= 2  # doubles draws are half the singles draw in big events
        if ed.series.kind == "olympics" and ev.disc in ("MD", "WD", "XD"):
            size = max(8, size // 2)
        entries = self.entries(ev, size)
        while size > len(entries) and size > 4:
            size //= 2
        entries = entries[:size]
        if len(entries) < 4:
            return None
        n_seeds = 0 if ed.year < SEEDING_FROM else {128: 16, 64: 16, 32: 8, 16: 4, 8: 2, 4: 2}[size]
        slots = self.place(entries, size, n_seeds, ev.rng)
        return slots, rounds_of(size), entries

    def knockout(self, ev: Event) -> list[Match]:
        ed = ev.ed
        drawn = self.knockout_draw(ev)
        if drawn is None:
            return []
        slots, rounds, entries = drawn
        day_of = round_days(rounds, ed.series.days if ed.start else 1)
        matches: list[Match] = []
        current = slots  # list of (entry, seed) in draw order
        prev_matches: list[Match] = []
        sf_losers = []
        for r, code in enumerate(rounds):
            nxt = []
            this_round = []
            for p in range(1, len(current) // 2 + 1):
                (e1, s1), (e2, s2) = current[2 * p - 2], current[2 * p - 1]
                m = ev.new_match(code, ROUND_NAMES[code], p, e1, e2)
                m.seed1, m.seed2 = s1, s2
                if prev_matches:
                    m.feeders = (prev_matches[2 * p - 2], prev_matches[2 * p - 1])
                ev.play(m, day_of[r])
                this_round.append(m)
                nxt.append((e1, s1) if m.winner == 1 else (e2, s2))
                if code == "SF":
                    sf_losers.append(((e2, s2) if m.winner == 1 else (e1, s1), m))
            matches.extend(this_round)
            prev_matches = this_round
            current = nxt
            if code == "SF" and ed.series.bronze_match and len(sf_losers) == 2:
                (l1, ls1), m1 = sf_losers[0]
                (l2, ls2), m2 = sf_losers[1]
                m = ev.new_match("3P", ROUND_NAMES["3P"], 1, l1, l2)
                m.seed1, m.seed2 = ls1, ls2
                m.feeders = (m1, m2)
                ev.play(m, day_of[r + 1])
                matches.append(m)
        self.collect_results(ev, matches, entries)
        return matches

    def place(self, entries, size: int, n_seeds: int, rng: random.Random) -> list[tuple[tuple, int | None]]:
        """Slots of the draw: seeds at their standard places (3-4, 5-8, 9-16 drawn by lot), others by lot."""
        order = standard_order(size)
        slot_of_rank = {rank: i for i, rank in enumerate(order)}
        slots: list[Any] = [None] * size
        groups = [(1, 1), (2, 2), (3, 4), (5, 8), (9, 16)]
        for lo, hi in groups:
            if lo > n_seeds:
                break
            hi = min(hi, n_seeds)
            places = [slot_of_rank[r] for r in range(lo, hi + 1)]
            rng.shuffle(places)
            for seed_no, place in zip(range(lo, hi + 1), places):
                slots[place] = (entries[seed_no - 1], seed_no)
        rest = list(entries[n_seeds:])
        rng.shuffle(rest)
        it = iter(rest)
        for i in range(size):
            if slots[i] is None:
                slots[i] = (next(it), None)
        return slots

    # ---------------------------------------------------------------- finals: groups then knockout
    def finals_event(self, ev: Event) -> list[Match]:
        entries = self.entries(ev, 8)
        if len(entries) < 8:
            return []
        rng = ev.rng
        groups = {"A": [entries[0], entries[3], entries[4], entries[7]], "B": [entries[1], entries[2], entries[5], entries[6]]}
        seeds = {e: i + 1 for i, e in enumerate(entries[:4])}
        matches = []
        standings = {}
        for g in ("A", "B"):
            members = groups[g]
            wins = {e: [0, 0] for e in members}
            pos = 0
            for i in range(4):
                for j in range(i + 1, 4):
                    pos += 1
                    m = ev.new_match(None, f"Group {g}", pos, members[i], members[j])
                    m.seed1, m.seed2 = seeds.get(members[i]), seeds.get(members[j])
                    ev.play(m, (pos - 1) // 2)
                    matches.append(m)
                    w = members[i] if m.winner == 1 else members[j]
                    wins[w][0] += 1
                    wins[w][1] += rng.random()  # game difference stands in as a tie-break
            standings[g] = sorted(members, key=lambda e: (-wins[e][0], -wins[e][1]))
        sf = []
        for p, (e1, e2) in enumerate(((standings["A"][0], standings["B"][1]), (standings["B"][0], standings["A"][1])), 1):
            m = ev.new_match("SF", ROUND_NAMES["SF"], p, e1, e2)
            m.seed1, m.seed2 = seeds.get(e1), seeds.get(e2)
            ev.play(m, 3)
            sf.append(m)
        w1 = sf[0].side1 if sf[0].winner == 1 else sf[0].side2
        w2 = sf[1].side1 if sf[1].winner == 1 else sf[1].side2
        f = ev.new_match("F", ROUND_NAMES["F"], 1, w1, w2)
        f.seed1, f.seed2 = seeds.get(w1), seeds.get(w2)
        f.feeders = tuple(sf)
        ev.play(f, 4)
        matches += sf + [f]
        self.collect_results(ev, matches, entries)
        return matches

    # ---------------------------------------------------------------- results for the ranking
    def collect_results(self, ev: Event, matches: list[Match], entries) -> None:
        ed = ev.ed
        if ed.series.para or ed.series.level != "senior" or ed.end is None or ed.state != "past":
            return
        if ed.end < RANKING_FROM - RANKING_WINDOW:
            return
        top = ranking_points(ed)
        reached: dict[tuple, float] = {}
        for m in matches:
            if m.round_code is None:
                factor = 0.45
            else:
                factor = ROUND_FACTOR[m.round_code]
            for side, won in ((m.side1, m.winner == 1), (m.side2, m.winner == 2)):
                f = factor * (1.0 if won and m.round_code == "F" else 0.8 if m.round_code == "F" else 1.0)
                reached[side] = max(reached.get(side, 0.0), f)
        for side in entries:
            if side in reached:
                self.results.append((ed.end, ev.disc, side, int(top * reached[side])))

    # ---------------------------------------------------------------- times of day
    def schedule(self, ed: Edition, matches: list[Match],
                 minutes_of: Callable[[Match, random.Random], int] | None = None) -> None:
        """Give each match its day; from 2000 (and in the current week and after) also start and
        end. `minutes_of` gives a match's length (default: from its result)."""
        if ed.start is None:
            return
        timed = ed.play_year >= TIMES_FROM or ed.state != "past"
        if not timed:
            return
        offset = utc_offset(ed)
        rng = sub_rng(self.seed, "schedule", ed.id)
        by_day: dict[int, list[Match]] = {}
        for m in matches:
            by_day.setdefault(m.day_index, []).append(m)
        order = {c: i for i, c in enumerate(("R128", "R64", "R32", "R16", "QF", "SF", "3P", "F"))}
        for d in sorted(by_day):
            day_matches = sorted(by_day[d], key=lambda m: (order.get(m.round_code, -1) if m.tie_id is None else 0,
                                                          m.tie_id or "", m.tie_order or 0,
                                                          DISCIPLINES.index(m.disc), m.position))
            courts = 8 if len(day_matches) > 40 else 5 if len(day_matches) > 20 else 3 if len(day_matches) > 6 else 1
            if ed.series.team:
                courts = 3
            day = ed.start + dt.timedelta(days=d)
            session = dt.datetime(day.year, day.month, day.day, 13 if len(day_matches) <= 5 else 10,
                                  tzinfo=dt.timezone.utc) - offset
            free = [session] * courts
            tie_free: dict[str, dt.datetime] = {}
            for m in day_matches:
                c = min(range(courts), key=lambda i: (free[i], i))
                start = free[c]
                for f in m.feeders:
                    if f.end_at is not None:
                        start = max(start, f.end_at + NEXT_ROUND_GAP)
                if m.tie_id:
                    start = max(start, tie_free.get(m.tie_id, start))
                start = on_five(start)
                if minutes_of is not None:
                    minutes = minutes_of(m, rng)
                elif m.outcome == "walkover":
                    minutes = 0
                elif m.rallies is not None:
                    minutes = max(25, min(90, round(len(m.rallies) * 0.55 + rng.uniform(-4, 6))))
                    if m.outcome == "retired":
                        minutes = max(10, minutes)
                else:
                    minutes = engine.match_minutes(m.g1, m.g2, m.rules, rng)
                m.start_at = start
                m.end_at = start + dt.timedelta(minutes=minutes)
                m.day = (start + offset).date()
                if minutes:
                    free[c] = m.end_at + dt.timedelta(minutes=10)
                if m.tie_id:
                    tie_free[m.tie_id] = m.end_at + dt.timedelta(minutes=15)

    def timetable(self, ed: Edition, events: list[tuple[str, str | None, int]]) -> dict[str, Match]:
        """Every match of an edition's knockout draws as planned (id -> match with start_at, day), made
        before any is played: rounds on their days, the host's local sessions, courts as
        `schedule` gives them, every match planned to last PLANNED_MIN. `events`: (discipline,
        sport class, draw size). The live feed starts first rounds at these times and later
        rounds at them or 30 minutes after both feeders, whichever is later."""
        matches: list[Match] = []
        for disc, sport_class, size in events:
            ev = Event(self, ed, disc, sport_class)
            rounds = rounds_of(size)
            day_of = round_days(rounds, ed.series.days)
            prev: list[Match] = []
            for r, code in enumerate(rounds):
                this = []
                for p in range(1, (len(prev) if prev else size) // 2 + 1):
                    m = ev.new_match(code, ROUND_NAMES[code], p, (), ())
                    m.day_index = day_of[r]
                    if prev:
                        m.feeders = (prev[2 * p - 2], prev[2 * p - 1])
                    this.append(m)
                matches.extend(this)
                if code == "SF" and ed.series.bronze_match and len(this) == 2:
                    m = ev.new_match("3P", ROUND_NAMES["3P"], 1, (), ())
                    m.day_index, m.feeders = day_of[r + 1], tuple(this)
                    matches.append(m)
                prev = this
        self.schedule(ed, matches, minutes_of=lambda m, rng: PLANNED_MIN)
        return {m.id: m for m in matches}

    def split_current(self, ed: Edition, matches: list[Match]) -> list[Match]:
        """As of noon UTC: finished before now, live across now, scheduled after; unknown sides dropped."""
        now = self.now
        keep = []
        state: dict[int, str] = {}
        for m in sorted(matches, key=lambda m: m.start_at):
            if any(state.get(id(f)) != "finished" for f in m.feeders):
                state[id(m)] = "absent"
                continue
            if m.tie_id and any(state.get(id(x)) == "absent" for x in matches if x.tie_id == m.tie_id and x.tie_order < m.tie_order):
                state[id(m)] = "absent"
                continue
            if m.end_at <= now:
                state[id(m)] = "finished"
            elif m.start_at <= now and m.outcome != "walkover":
                state[id(m)] = "live"
                f = (now - m.start_at) / (m.end_at - m.start_at)
                cut = max(1, int(len(m.rallies) * f))
                if cut < len(m.rallies) and m.rallies[cut].game != m.rallies[cut - 1].game:
                    cut += 1  # never stop exactly at a game's end: the current game has begun
                m.rallies = m.rallies[:cut]
                m.g1, m.g2 = engine.games_of(m.rallies)
                m.status, m.winner, m.outcome, m.end_at = "live", None, None, None
            else:
                state[id(m)] = "scheduled"
                m.status, m.winner, m.outcome, m.end_at = "scheduled", None, None, None
                m.g1, m.g2, m.rallies = [], [], None
            keep.append(m)
        keep_ids = {id(m) for m in keep}
        return [m for m in matches if id(m) in keep_ids]

    # ---------------------------------------------------------------- output of an edition
    def emit(self, ed: Edition, matches: list[Match]) -> None:
        w = self.w
        odds_ok = priced(ed, self.scale)
        for m in matches:
            w.row("matches", m.row())
            self.n_matches += 1
            if odds_ok and m.outcome != "walkover":
                w.plain_rows("odds", odds_rows(self.odds_rng, m))
            if m.rallies and m.outcome != "walkover":
                w.plain_rows("rallies", ((m.id, r.game, r.rally, r.server, r.winner, r.score1, r.score2) for r in m.rallies))
            if ed.state == "past" and m.outcome == "played" and len(self.finished_for_corrections) < 5000:
                if sub_rng(self.seed, "corr?", m.id).random() < 0.05:
                    self.finished_for_corrections.append(m)

    # ---------------------------------------------------------------- corrections
    def corrections(self) -> None:
        rng = sub_rng(self.seed, "corrections")
        pool = self.finished_for_corrections
        picks = rng.sample(pool, min(self.scale.corrections, len(pool)))
        picks.sort(key=lambda m: m.id)
        for i, m in enumerate(picks):
            old_g1, old_g2, old_winner = list(m.g1), list(m.g2), m.winner
            if i % 3 == 0:
                old_g1, old_g2, old_winner = old_g2, old_g1, 3 - m.winner  # sides entered the wrong way round
            else:
                k = rng.randrange(len(old_g1))
                if old_g1[k] < old_g2[k]:
                    old_g1[k] = max(0, old_g1[k] + rng.choice((-2, -1, 1)))
                else:
                    old_g2[k] = max(0, old_g2[k] + rng.choice((-2, -1, 1)))
            when = m.end_at or dt.datetime(m.day.year, m.day.month, m.day.day, 20, tzinfo=dt.timezone.utc) if m.day else None
            if when is None:
                when = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)
            when = min(when + dt.timedelta(days=rng.randint(1, 3), hours=rng.randint(1, 9)),
                       self.now - dt.timedelta(hours=1))  # never after the as-of moment
            self.w.row("corrections", (m.id, when, old_g1, old_g2, old_winner))
        # the corrected rows were already written with the corrected (true) score

    # ---------------------------------------------------------------- rankings
    def rankings(self) -> None:
        results = sorted(self.results, key=lambda r: (r[0], r[1], [p.idx for p in r[2]], r[3]))
        first_week = facts.week_tuesday(RANKING_FROM)
        weeks = []
        wk = first_week
        while wk <= self.as_of:
            weeks.append(wk)
            wk += dt.timedelta(weeks=1)
        unmatched = self.unmatched_names()
        for d in DISCIPLINES:
            rs = [r for r in results if r[1] == d]
            window: deque[tuple[dt.date, tuple, int]] = deque()
            add_i = 0
            per_entry: dict[tuple, list[tuple[dt.date, int]]] = {}
            totals: dict[tuple, int] = {}
            for wi, week in enumerate(weeks):
                changed = set()
                while add_i < len(rs) and rs[add_i][0] < week:
                    date, _d, entry, pts = rs[add_i]
                    per_entry.setdefault(entry, []).append((date, pts))
                    window.append((date, entry, pts))
                    changed.add(entry)
                    add_i += 1
                cutoff = week - RANKING_WINDOW
                while window and window[0][0] < cutoff:  # results older than 52 weeks drop out
                    date, entry, pts = window.popleft()
                    per_entry[entry].remove((date, pts))
                    changed.add(entry)
                for entry in sorted(changed, key=lambda e: [p.idx for p in e]):
                    lst = per_entry.get(entry) or []
                    if lst:
                        totals[entry] = sum(sorted((p for _dd, p in lst), reverse=True)[:RANKING_BEST])
                    else:
                        totals.pop(entry, None)
                        per_entry.pop(entry, None)
                if not totals:
                    continue
                full = week >= FULL_LISTS_FROM
                if not full and week > TOP_LISTS_UNTIL:
                    continue
                key = lambda e: (-totals[e], [p.idx for p in e])
                if full:
                    ranked = sorted(totals, key=key)
                else:
                    ranked = heapq.nsmallest(self.scale.ranking_top, totals, key=key)
                rows = [(" / ".join(p.name for p in e), e[0].id, e[1].id if len(e) > 1 else None, totals[e])
                        for e in ranked]
                if full:
                    # players the feed could not match: invented names, at the tail of the list
                    low = rows[-1][3] if rows else 100
                    for j, nm in enumerate(unmatched[d]):
                        rows.append((nm, None, None, max(1, low - 10 * (j + 1))))
                self.w.rows("rankings", ((week, d, rank, name, p1, p2, pts, full)
                                         for rank, (name, p1, p2, pts) in enumerate(rows, 1)))
                for e in ranked:
                    for p in e:
                        p.used = True
            if self.progress:
                self.progress("rankings", DISCIPLINES.index(d) + 1, len(DISCIPLINES))

    def unmatched_names(self) -> dict[str, list[str]]:
        """Per discipline three names a feed could not match: invented, never a player's name."""
        rng = sub_rng(self.seed, "unmatched")
        taken = {p.name for p in self.people.all}
        out: dict[str, list[str]] = {}

        def fresh(gender: str) -> str:
            while True:
                nation = rng.choice(("ESP", "DEN", "FRA", "NGR", "PER"))
                name = person_name(rng, nation, gender)
                # a middle given name makes a clash with a generated player (two-part names) impossible
                name = name.replace(" ", f" {rng.choice(facts.NAMES[facts.COUNTRY_STYLE[nation]][0 if gender == 'M' else 1])} ", 1)
                if name not in taken:
                    taken.add(name)
                    return name

        for d in DISCIPLINES:
            genders = {"MS": "M", "WS": "W", "MD": "MM", "WD": "WW", "XD": "MW"}[d]
            out[d] = [" / ".join(fresh(g) for g in genders) for _ in range(3)]
        return out

    # ---------------------------------------------------------------- players
    def players(self) -> None:
        self.w.rows("players", (p.row() for p in self.people.all if p.used))


ROUND_FACTOR = {"R128": 0.06, "R64": 0.1, "R32": 0.16, "R16": 0.3, "QF": 0.45, "SF": 0.6, "3P": 0.65, "F": 1.0}


def ranking_points(ed: Edition) -> int:
    """Winner's points by tier (a simplified modern points table)."""
    by_tier = {"Super 1000": 12000, "Super 750": 11000, "Super 500": 9200, "Super 300": 7000, "Super 100": 5500,
               "Superseries Premier": 11000, "Superseries": 9200, "Grand Prix Gold": 7000, "Grand Prix": 5500,
               "World Tour Finals": 12000, "Superseries Finals": 12000, "International": 3000,
               "International Challenge": 4000, "International Series": 2500, "Future Series": 1700}
    if ed.series.kind in ("worlds", "olympics"):
        return 13000
    if ed.tier in by_tier:
        return by_tier[ed.tier]
    return 7000 if ed.series.kind in ("continental", "multi") else 4000


def rounds_of(size: int) -> list[str]:
    """Round codes of a knockout draw of `size`, first round to final."""
    rounds = []
    while size >= 2:
        rounds.append(ROUND_OF_SIZE[size])
        size //= 2
    return rounds


def round_days(rounds: list[str], days: int) -> list[int]:
    """Day index of each round: the final on the last day, one round a day backwards from it."""
    out = []
    n = len(rounds)
    for i in range(n):
        back = n - 1 - i
        out.append(max(0, days - 1 - back))
    return out  # a bronze play-off takes the final's day


# --------------------------------------------------------------------------- team events


class TeamEvent:
    """Thomas / Uber / Sudirman Cup: groups then knockout, ties of several matches."""

    def __init__(self, gen: Generator, ed: Edition):
        self.gen = gen
        self.ed = ed
        self.rng = sub_rng(gen.seed, ed.id, "teams")
        self.ties_out: list[tuple] = []

    def rubbers(self) -> list[str]:
        slug, year = self.ed.series.slug, self.ed.year
        if slug == "thomas-cup":
            return ["MS", "MD", "MS", "MD", "MS", "MD", "MS", "MD", "MS"] if year < 1984 else ["MS", "MD", "MS", "MD", "MS"]
        if slug == "uber-cup":
            return ["WS", "WD", "WS", "WD", "WS", "WD", "WD"] if year < 1984 else ["WS", "WD", "WS", "WD", "WS"]
        return ["XD", "WS", "MS", "WD", "MD"]

    def lineup(self, nation: str, rubbers: list[str]) -> list[tuple[Player, ...]] | None:
        """Players for each rubber, or None when the nation cannot field a team.

        At most three singles players and two pairs per discipline; in the long early ties the
        best of them play twice (first singles twice, first pair twice ...), and a singles
        player may also play doubles.
        """
        year = self.ed.play_year
        people = self.gen.people

        def squad(g: str, prefer: str) -> list[Player]:
            pool = [p for p in people.active("senior", g, year) if p.country == nation]
            pool.sort(key=lambda p: (p.kind == prefer, -p.strength(year), p.idx))
            return pool

        singles: dict[str, list[tuple[Player, ...]]] = {}
        doubles: dict[str, list[tuple[Player, ...]]] = {}
        for disc in sorted(set(rubbers)):
            n = rubbers.count(disc)
            if disc in ("MS", "WS"):
                pool = squad("M" if disc == "MS" else "W", "D")
                k = min(3, n, len(pool))  # a small nation's best play more than one singles
                if k == 0:
                    return None
                singles[disc] = [(p,) for p in pool[:k]]
            else:
                g1, g2 = {"MD": ("M", "M"), "WD": ("W", "W"), "XD": ("M", "W")}[disc]
                a_pool = squad(g1, "S")
                k = min(2, n, len(a_pool) // 2 if g1 == g2 else len(a_pool))
                if g1 == g2:
                    if k == 0:
                        return None
                    doubles[disc] = [(a_pool[2 * i], a_pool[2 * i + 1]) for i in range(k)]
                else:
                    b_pool = squad(g2, "S")
                    k = min(k, len(b_pool))
                    if k == 0:
                        return None
                    doubles[disc] = [(a_pool[i], b_pool[i]) for i in range(k)]
        seen: dict[str, int] = {}
        out = []
        for disc in rubbers:
            i = seen.get(disc, 0)
            seen[disc] = i + 1
            options = singles.get(disc) or doubles[disc]
            out.append(options[i % len(options)])
        return out

    def play(self) -> list[Match]:
        ed = self.ed
        rubbers = self.rubbers()
        year = ed.play_year
        nations = [n for n, _s in facts.nation_strengths(year)]
        teams = []
        for n in nations:
            lu = self.lineup(n, rubbers)
            if lu:
                teams.append((sum(side_strength(s, year) for s in lu) / len(lu), n, lu))
        teams.sort(key=lambda t: (-t[0], t[1]))
        n_groups = 4 if year >= 2004 and len(teams) >= 16 else 2
        teams = teams[: n_groups * 4]
        if len(teams) < n_groups * 4:  # too few nations can field a team: fewer groups
            n_groups = 2 if len(teams) >= 8 else 1 if len(teams) >= 4 else 0
            teams = teams[: n_groups * 4]
        if n_groups < 1:
            return []
        lineups = {n: lu for _s, n, lu in teams}
        groups: dict[str, list[str]] = {chr(65 + g): [] for g in range(n_groups)}
        for i, (_s, n, _lu) in enumerate(teams):  # snake seeding into groups
            row, col = divmod(i, n_groups)
            gname = chr(65 + (col if row % 2 == 0 else n_groups - 1 - col))
            groups[gname].append(n)
        matches: list[Match] = []
        self.number = 0
        standings = {}
        for g in sorted(groups):
            members = groups[g]
            score = {n: [0, 0] for n in members}
            k = 0
            for i in range(len(members)):
                for j in range(i + 1, len(members)):
                    res = self.tie(f"Group {g}", None, members[i], members[j], lineups, rubbers, k % 3, k, matches,
                                   stop_when_decided=False)
                    k += 1
                    w = members[i] if res[0] > res[1] else members[j]
                    score[w][0] += 1
                    score[members[i]][1] += res[0] - res[1]
                    score[members[j]][1] += res[1] - res[0]
            standings[g] = sorted(members, key=lambda n: (-score[n][0], -score[n][1], n))
        if n_groups == 4:
            ko = [(standings["A"][0], standings["B"][1]), (standings["C"][0], standings["D"][1]),
                  (standings["B"][0], standings["A"][1]), (standings["D"][0], standings["C"][1])]
            stages = [("QF", 4), ("SF", 5), ("F", 6)]
        elif n_groups == 2:
            ko = [(standings["A"][0], standings["B"][1]), (standings["B"][0], standings["A"][1])]
            stages = [("SF", 5), ("F", 6)]
        else:
            ko = [(standings["A"][0], standings["A"][1])]
            stages = [("F", 6)]
        for code, day in stages:
            winners = []
            for p, (t1, t2) in enumerate(ko):
                res = self.tie(ROUND_NAMES[code], code, t1, t2, lineups, rubbers, day, p, matches,
                               stop_when_decided=True)
                winners.append(t1 if res[0] > res[1] else t2)
            ko = [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
        for row in self.ties_out:
            self.gen.w.row("ties", row)
        return matches

    def tie(self, stage: str, code: str | None, t1: str, t2: str, lineups, rubbers, day_index: int,
            index_in_stage: int, matches: list[Match], stop_when_decided: bool) -> tuple[int, int]:
        ed = self.ed
        self.number += 1
        tie_id = make_id("ti_", ed.id, stage, index_in_stage)
        need = len(rubbers) // 2 + 1
        s = [0, 0]
        for order, disc in enumerate(rubbers, 1):
            if stop_when_decided and max(s) >= need:
                break
            ev = Event(self.gen, ed, disc, None)
            ev.rng = sub_rng(self.gen.seed, tie_id, order)
            m = ev.new_match(code, stage, index_in_stage * len(rubbers) + order,
                             lineups[t1][order - 1], lineups[t2][order - 1], tie_id=tie_id, tie_order=order)
            ev.play(m, min(day_index, ed.series.days - 1))
            s[m.winner - 1] += 1
            matches.append(m)
        day = ed.start + dt.timedelta(days=min(day_index, ed.series.days - 1)) if ed.start else None
        self.ties_out.append((tie_id, ed.id, stage, code, self.number, t1, t2, s[0], s[1], 1 if s[0] > s[1] else 2,
                              day, ed.venue_name))
        return s[0], s[1]


# --------------------------------------------------------------------------- odds


def priced(ed: Edition, scale: Scale) -> bool:
    """Whether the bookmakers price this edition's matches."""
    return (ed.play_year >= ODDS_FROM and not ed.series.para and not ed.series.team
            and ed.series.level == "senior"
            and (not scale.odds_tiers_only or ed.tier in BIG_TIERS
                 or ed.series.kind in ("worlds", "olympics") or ed.state != "past"))


def game_chance(point_p1: float, rules: engine.Rules) -> float:
    return _game_chance(rules, min(engine._BUCKETS - 1, max(1, round(point_p1 * engine._BUCKETS))))


@lru_cache(maxsize=4096)
def _game_chance(rules: engine.Rules, bucket: int) -> float:
    """Side 1's chance to win a game, from the engine's exact score distribution."""
    cum, scores = engine._outcomes(rules, bucket, engine.SET_CHANCE)
    prev = 0.0
    total = 0.0
    for c, (a, b) in zip(cum, scores):
        if a > b:
            total += c - prev
        prev = c
    return total


def prices(p1: float, margin: float) -> tuple[float, float]:
    """Decimal prices with 1/price1 + 1/price2 = 1 + margin (before rounding to cents)."""
    # a favourite's price stays >= 1.01 at an 8 % margin: 1 / (0.91 * 1.08) = 1.018
    p1 = min(0.91, max(0.09, p1))
    return round(1.0 / (p1 * (1 + margin)), 2), round(1.0 / ((1 - p1) * (1 + margin)), 2)


def odds_rows(rng: random.Random, m: Match) -> list[tuple]:
    """Opening and closing prices of every bookmaker for the winner market, and line markets for two."""
    pg = game_chance(engine.point_share(m.p1, m.rules), m.rules)
    truth = pg * pg * (3 - 2 * pg)
    logit = math.log(truth / (1 - truth)) if 0 < truth < 1 else (8 if truth >= 1 else -8)
    settled = m.status == "finished"
    open_view = logit + rng.gauss(0, 0.35)
    close_view = logit + rng.gauss(0, 0.12) if settled else open_view
    sig = lambda x: 1 / (1 + math.exp(-x))
    rows = []
    points_per_game = 36.0 if m.rules.rally_point else 24.0
    exp_games = 2 + 2 * pg * (1 - pg)
    for b_i, book in enumerate(BOOKMAKERS[:5]):
        margin = rng.uniform(0.03, 0.08)
        o = prices(sig(open_view + rng.gauss(0, 0.05)), margin)
        c = prices(sig(close_view + rng.gauss(0, 0.03)), margin) if settled else o
        rows.append((m.id, book, "winner", None, o[0], o[1], c[0], c[1]))
        if b_i >= 2:
            continue
        fav1 = truth >= 0.5
        line_games = -1.5 if fav1 else 1.5
        cover_games = pg * pg if fav1 else 1 - (1 - pg) ** 2
        over_games = 2 * pg * (1 - pg)
        diff = (2 * engine.point_share(m.p1, m.rules) - 1) * points_per_game * exp_games
        line_points = math.floor(-diff) + 0.5
        cover_points = sig((diff + line_points) / 6.0)
        total = points_per_game * exp_games
        line_total = math.floor(total) + 0.5
        over_points = sig((total - line_total) / 8.0 + rng.gauss(0, 0.05))
        for market, line, chance in (("handicap_games", line_games, cover_games), ("handicap_points", line_points, cover_points),
                                     ("total_games", 2.5, over_games), ("total_points", line_total, over_points)):
            o = prices(chance + rng.gauss(0, 0.03), margin)
            c = prices(chance + rng.gauss(0, 0.01), margin) if settled else o
            rows.append((m.id, book, market, line, o[0], o[1], c[0], c[1]))
    return rows


# --------------------------------------------------------------------------- entry point


def generate_bundle(out_dir: Path, *, scale: str = "demo", seed: int = 1,
                    as_of: dt.date | dt.datetime | None = None, progress: Progress = None) -> dict[str, Any]:
    """Generate the world into `out_dir` (one CSV per table + manifest.json); returns the manifest.

    `as_of` is the world's "now": a moment (default: now, to the minute), or a day, which stands
    for noon UTC of that day (reproducible: the same day gives the same world whenever it runs)."""
    if as_of is None:
        as_of = dt.datetime.now(dt.timezone.utc).replace(second=0, microsecond=0)
    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")
    gen = Generator(Path(out_dir), SCALES[scale], seed, as_of, progress)
    try:
        return gen.run()
    except BaseException:
        gen.w.abort()
        raise
