"""The sizes of a world: tiny (tests, seconds), demo (the default, about a minute), full."""

from __future__ import annotations

import attrs


@attrs.frozen
class Scale:
    name: str
    series: tuple[str, ...] | None  # None: every series in facts
    years: dict[str, tuple[int, ...]] | None  # explicit years (tiny), else every edition
    draw_cap: int  # largest singles draw
    draw_div: int  # divides the era's draw sizes
    cohort: int  # players born per year and gender (modern era)
    para_cohort: int
    current_week: int  # tiny: editions held in progress on as_of (CURRENT_WEEK); else the real calendar's
    ranking_top: int  # places in the weekly top lists
    odds_tiers_only: bool  # odds only for the big events
    rally_share: float  # share of last-12-months matches with rallies
    extra_series: int  # invented lower-tier internationals (full scale)
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
    "india-open": (),
    "french-open": (),
    "us-open": (),
    "canada-open": (),
}

SCALES = {
    "tiny": Scale(
        "tiny",
        tuple(TINY_YEARS),
        TINY_YEARS,
        draw_cap=16,
        draw_div=4,
        cohort=40,
        para_cohort=3,
        current_week=3,
        ranking_top=10,
        odds_tiers_only=False,
        rally_share=1.0,
        extra_series=0,
        corrections=2,
    ),
    "demo": Scale(
        "demo",
        None,
        None,
        draw_cap=64,
        draw_div=2,
        cohort=64,
        para_cohort=8,
        current_week=0,
        ranking_top=25,
        odds_tiers_only=True,
        rally_share=0.25,
        extra_series=0,
        corrections=5,
    ),
    "full": Scale(
        "full",
        None,
        None,
        draw_cap=128,
        draw_div=1,
        cohort=1000,
        para_cohort=40,
        current_week=0,
        ranking_top=25,
        odds_tiers_only=True,
        rally_share=1.0,
        extra_series=320,
        corrections=40,
    ),
}
