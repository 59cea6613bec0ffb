"""The lower tier: the invented internationals and Masters of the full scale (extra_series), and
the real calendar's latest lower-tier season (facts.LOWER_TIER_CALENDAR: International
Challenges, Series, Future Series) repeated in the live tail, each event a series of its own,
played live only: the archive holds none of its editions, the first is the one in progress in the
week of as_of or the next."""

from __future__ import annotations

import datetime as dt

from svc.world import facts
from svc.world.generate.edition_plans import Planned, same_week
from svc.world.generate.ids import digest, slugify
from svc.world.generate.scales import Scale

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
    out: list[facts.Series] = []
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
