"""What every piece of the generator reads, in one small frozen value: the seed, the scale,
the world's now, and the players (made lazily and deterministically as the calendar needs
them). The orchestrator makes one per bundle; the live feed makes its own for future draws."""

from __future__ import annotations

import datetime as dt

import attrs

from svc.world.generate.people import People
from svc.world.generate.scales import Scale


def world_now(as_of: dt.date | dt.datetime) -> dt.datetime:
    """The generator's "now": the moment given, else noon UTC of the day given."""
    if isinstance(as_of, dt.datetime):
        return as_of.astimezone(dt.UTC) if as_of.tzinfo else as_of.replace(tzinfo=dt.UTC)
    return dt.datetime(as_of.year, as_of.month, as_of.day, 12, tzinfo=dt.UTC)


@attrs.frozen
class Context:
    seed: int
    scale: Scale
    now: dt.datetime  # the world's now (UTC)
    people: People

    @classmethod
    def make(cls, seed: int, scale: Scale, as_of: dt.date | dt.datetime) -> Context:
        return cls(seed=seed, scale=scale, now=world_now(as_of), people=People(seed, scale))

    @property
    def as_of(self) -> dt.date:
        return self.now.date()

    @property
    def rally_from(self) -> dt.date:
        """Rally-by-rally data is kept for matches of the last twelve months."""
        return self.as_of - dt.timedelta(days=365)
