"""The four plans and their limits (interface.md, Limits)."""

from __future__ import annotations

import attrs


@attrs.frozen
class Plan:
    name: str
    title: str
    rank: int  # a plan includes every endpoint of the plans with a lower rank
    per_minute: int
    per_day: int


PLANS: dict[str, Plan] = {
    p.name: p
    for p in (
        Plan("free", "Free key", 0, per_minute=10, per_day=50),
        Plan("archive", "Archive", 1, per_minute=60, per_day=5_000),
        Plan("odds", "Odds", 2, per_minute=120, per_day=20_000),
        Plan("live", "Live", 3, per_minute=300, per_day=100_000),
    )
}
PLAN_NAMES = tuple(PLANS)
