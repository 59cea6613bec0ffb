"""The settings in use, one set per kind of world, as `python ops/eval --fit` chose them on the
training seasons only (log-loss of the rolling forecasts). A generated world of any scale uses
the generated set; the real BWF world its own (its players enter and move differently)."""

from __future__ import annotations

from svc.rating.model import Settings

# g4: fitted again after the match model was calibrated on the real World Tour (form on the day,
# the serving edge): a margin weight above 1 means a match's point share says more about the
# sides than who won it, as it does when some matches turn on the form of one day.
GENERATED = Settings(
    version="elo-glicko-1.g4",
    trained_to=2014,
    initial_deviation=76.032,
    min_deviation=45.5,
    drift=2.5,
    margin_weight=1.172,
    margin_slope=17.15,
    points=0.675,
    point_scale=7.0,
    entry_offset=0.0,
    carry=0.304,
    established=2,
)

REAL = Settings(
    version="elo-glicko-1.r1",
    trained_to=2019,
    initial_deviation=500.0,
    min_deviation=80.0,
    drift=8.0,
    margin_weight=0.7,
    margin_slope=35.0,
    entry_offset=200.0,
    carry=1.0,
    established=1,
)


def settings_for(world: str) -> Settings:
    """`world` as world_meta names it: bwf for the real one, else a generated scale."""
    return REAL if world == "bwf" else GENERATED
