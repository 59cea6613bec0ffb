"""Corrections: a few finished results published wrong at first (sides the wrong way round,
a game's score off by a point or two) and corrected later; the bundle holds the wrong score
and when it was put right."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Protocol

from svc.world.generate.context import Context
from svc.world.generate.ids import sub_rng


class Correctable(Protocol):
    """A finished match as a correction reads it: a generated Match, or its summary from another process."""

    @property
    def id(self) -> str: ...
    @property
    def g1(self) -> list[int]: ...
    @property
    def g2(self) -> list[int]: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def end_at(self) -> dt.datetime | None: ...
    @property
    def day(self) -> dt.date | None: ...


def corrections(ctx: Context, pool: Sequence[Correctable]) -> list[tuple]:
    """Rows of the corrections table: a few of `pool` (finished matches) published wrong first."""
    rng = sub_rng(ctx.seed, "corrections")
    picks = rng.sample(pool, min(ctx.scale.corrections, len(pool)))
    picks.sort(key=lambda m: m.id)
    rows = []
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
        when = m.end_at or dt.datetime(m.day.year, m.day.month, m.day.day, 20, tzinfo=dt.UTC) if m.day else None
        if when is None:
            when = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
        when = min(
            when + dt.timedelta(days=rng.randint(1, 3), hours=rng.randint(1, 9)), ctx.now - dt.timedelta(hours=1)
        )  # never after the as-of moment
        rows.append((m.id, when, old_g1, old_g2, old_winner))
    # the corrected rows were already written with the corrected (true) score
    return rows
