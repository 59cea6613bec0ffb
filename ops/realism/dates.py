"""When things happen: World Tour editions in their real weeks, every match within its edition's
days, and each match scored as its era scored (rally point to 21 from the 2006 Thomas and Uber
Cups, the first played so; side-out to 15, women's singles to 11, before)."""

from __future__ import annotations

import datetime as dt

from ops.realism.__main__ import TOUR_TIERS
from ops.realism.figures import Figure, Section, at_least, at_most, percent, shown

REAL_WEEK_YEARS = (2018, 2024)
REAL_WEEK_DAYS = 10  # an edition "in its real week" starts within this many days of the real one
REAL_WEEK_SHARE = 90.0
RALLY_POINT_FROM = dt.date(2006, 4, 28)  # the first day of the 2006 Thomas and Uber Cups
OLD_ERA_BEFORE = 1960

# The first day of every World Tour edition of the years asked, by series and label year. In the
# real world the 2018-2020 editions start on the first day of play in the match files and those of
# 2022-2024 on the calendar's first day (tournaments.csv); the importer gave both the series slugs
# of svc.world.sources.bwf.SERIES, which the generated world's World Tour series use too.
TOUR_STARTS = """
SELECT series, year, start_date FROM tournaments
WHERE tier = ANY($1::text[]) AND year BETWEEN $2 AND $3 AND NOT cancelled AND start_date IS NOT NULL"""

OUTSIDE_DATES = """
SELECT count(*) AS dated,
       count(*) FILTER (WHERE m.day NOT BETWEEN t.start_date AND t.end_date) AS outside,
       count(*) FILTER (WHERE t.year < $1 AND m.round_code = 'F') AS old_finals,
       count(*) FILTER (WHERE t.year < $1 AND m.round_code = 'F' AND m.day > t.end_date) AS old_finals_late
FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE m.day IS NOT NULL AND t.start_date IS NOT NULL AND t.end_date IS NOT NULL"""

OUTSIDE_BY_EDITION = """
SELECT t.name, t.start_date, t.end_date, count(*) AS outside, min(m.day) AS first, max(m.day) AS last
FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE m.day NOT BETWEEN t.start_date AND t.end_date
GROUP BY t.id, t.name, t.start_date, t.end_date ORDER BY count(*) DESC, t.start_date LIMIT 8"""

# A played match's highest game score tells its scoring: a game to 21 is won with 21 or more (up
# to 30); a game to 15 ends at 18 at most (set to 5 at 13-all), a women's singles game to 11 at 12.
# Retirements and walkovers are left out: their last game need not be complete.
SCORING_ERAS = """
WITH played AS (
    SELECT coalesce(m.day, t.start_date) AS day,
           (SELECT max(greatest(a, b)) FROM unnest(m.g1, m.g2) AS g(a, b)) AS top
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE m.status = 'finished' AND m.outcome = 'played' AND cardinality(m.g1) > 0
)
SELECT count(*) FILTER (WHERE day >= $1) AS rally_era,
       count(*) FILTER (WHERE day >= $1 AND top <= 18) AS old_scoring_after,
       count(*) FILTER (WHERE day < $1) AS old_era,
       count(*) FILTER (WHERE day < $1 AND top >= 21) AS rally_scoring_before,
       count(*) FILTER (WHERE day IS NULL) AS undated
FROM played"""


async def tour_starts(conn) -> dict[tuple[str, int], dt.date]:
    rows = await conn.fetch(TOUR_STARTS, list(TOUR_TIERS), *REAL_WEEK_YEARS)
    return {(r["series"], r["year"]): r["start_date"] for r in rows}


def days_off(ours: dict[tuple[str, int], dt.date], real: dict[tuple[str, int], dt.date]) -> dict[tuple[str, int], int]:
    """Days between this world's start and the real one, for the editions both hold."""
    return {key: (ours[key] - real[key]).days for key in ours.keys() & real.keys()}


def within_days(off: dict[tuple[str, int], int], first: int, last: int) -> tuple[int, int]:
    """(editions within REAL_WEEK_DAYS of their real start, editions matched) of first-last."""
    years = [d for (_, year), d in off.items() if first <= year <= last]
    return sum(abs(d) <= REAL_WEEK_DAYS for d in years), len(years)


async def real_weeks(world, real) -> Section:
    ours, theirs = await tour_starts(world), await tour_starts(real)
    off = days_off(ours, theirs)
    worst = sorted(off.items(), key=lambda kv: (-abs(kv[1]), kv[0]))
    far = [f"{series} {year} {d:+d} days" for (series, year), d in worst if abs(d) > REAL_WEEK_DAYS]
    first, last = REAL_WEEK_YEARS
    figures = []
    for a, b, judged in ((first, last, True), (2018, 2020, False), (2022, 2024, False)):
        near, matched = within_days(off, a, b)
        share = percent(near, matched)
        figures.append(
            Figure(
                f"{a}-{b}: editions starting within {REAL_WEEK_DAYS} days of their real start",
                f"{shown(share, unit=' %')} ({near} of {matched})",
                "-",
                f"≥ {REAL_WEEK_SHARE:g} %" if judged else "-",
                at_least(share, REAL_WEEK_SHARE) if judged else None,
            )
        )
    return Section(
        f"World Tour editions {first}-{last} in their real weeks",
        tuple(figures),
        notes=(
            "- Matched by series and label year; real starts: the match files' first day (2018-2020), the BWF "
            "calendar (2022-2024); cancelled editions left out. Not matched: "
            f"{len(ours.keys() - theirs.keys())} of this world's editions, "
            f"{len(theirs.keys() - ours.keys())} real ones.",
            f"- Furthest off: {'; '.join(far[:15]) or 'none'}{' ...' if len(far) > 15 else ''}.",
        ),
    )


def part_of(row, part: str, whole: str) -> str:
    return f"{shown(row[part])} of {shown(row[whole])}"


async def outside_dates(world, real) -> Section:
    ours, theirs = (
        await world.fetchrow(OUTSIDE_DATES, OLD_ERA_BEFORE),
        await real.fetchrow(OUTSIDE_DATES, OLD_ERA_BEFORE),
    )
    worst = await world.fetch(OUTSIDE_BY_EDITION)
    return Section(
        "Matches within their edition's dates",
        (
            Figure(
                "matches dated outside their edition's first..last day",
                part_of(ours, "outside", "dated"),
                part_of(theirs, "outside", "dated"),
                "0",
                at_most(ours["outside"], 0),
            ),
            Figure(
                f"finals before {OLD_ERA_BEFORE} dated after the last day",
                part_of(ours, "old_finals_late", "old_finals"),
                "-",
                "0",
                at_most(ours["old_finals_late"], 0),
            ),
        ),
        notes=(
            "- Most matches outside: "
            + (
                "; ".join(
                    f"{r['name']} ({r['start_date']}..{r['end_date']}): {r['outside']} ({r['first']}..{r['last']})"
                    for r in worst
                )
                or "none"
            )
            + ".",
        ),
    )


async def scoring_eras(world, real) -> Section:
    ours, theirs = (
        await world.fetchrow(SCORING_ERAS, RALLY_POINT_FROM),
        await real.fetchrow(SCORING_ERAS, RALLY_POINT_FROM),
    )
    return Section(
        "Scoring eras",
        (
            Figure(
                f"matches from {RALLY_POINT_FROM} scored to 15/11",
                part_of(ours, "old_scoring_after", "rally_era"),
                part_of(theirs, "old_scoring_after", "rally_era"),
                "0",
                at_most(ours["old_scoring_after"], 0),
            ),
            Figure(
                f"matches before {RALLY_POINT_FROM} scored to 21",
                part_of(ours, "rally_scoring_before", "old_era"),
                "-",
                "0",
                at_most(ours["rally_scoring_before"], 0),
            ),
        ),
        notes=(
            f"- Completed matches only (no retirement or walkover), by the day played (the edition's first "
            f"day where the match has none); undated: {ours['undated']}.",
        ),
    )
