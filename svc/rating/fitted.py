"""The settings in use, one set per kind of world, as `python ops/eval --fit` chose them on the
training seasons only (log-loss of the rolling forecasts). A generated world of any scale uses
the generated set; the real BWF world its own (its players enter and move differently)."""

from __future__ import annotations

from svc.rating.model import Settings

GENERATED = Settings(
    version="elo-glicko-1.g3", trained_to=2014,
    initial_deviation=105.6, min_deviation=35.0, drift=2.5, margin_weight=0.938, margin_slope=24.5,
    points=0.675, point_scale=7.0, entry_offset=25.0, carry=0.507, established=2)

REAL = Settings(
    version="elo-glicko-1.r1", trained_to=2019,
    initial_deviation=500.0, min_deviation=80.0, drift=8.0, margin_weight=0.7, margin_slope=35.0,
    entry_offset=200.0, carry=1.0, established=1)


def settings_for(world: str) -> Settings:
    """`world` as world_meta names it: bwf for the real one, else a generated scale."""
    return REAL if world == "bwf" else GENERATED
