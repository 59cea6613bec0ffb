"""An edition's draw size: the men's singles draw by series, era and scale (knockout_draw sizes the
other disciplines from it)."""

from __future__ import annotations

from svc.world import facts
from svc.world.generate.scales import Scale

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
