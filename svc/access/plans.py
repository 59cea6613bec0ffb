"""The four plans and their limits (interface.md, Limits)."""

from __future__ import annotations

import attrs

from svc.core.schema import migrate
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Connection, Tx


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


async def prepare_database(conn: Connection) -> list[str]:
    """The schema brought up to date (svc.core.schema), then the plans' limits written from
    this module, so that a changed limit takes effect at the next start. Returns the
    migration files applied now."""
    applied = await migrate(conn)
    async with conn.transaction():
        for plan in PLANS.values():
            await Tx(conn).execute(
                Q.access.plan_upsert, name=plan.name, rank=plan.rank, per_minute=plan.per_minute, per_day=plan.per_day
            )
    return applied
