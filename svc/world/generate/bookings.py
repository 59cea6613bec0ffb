"""Who plays where: the days and the starting week of every edition each player entered, so that
nobody is in two places on one day or enters two events starting in one week, and each player's
senior editions and draws per season, of which there is room for so many.

An entry list tries thousands of players in strength order (millions of tries per world at full
scale), and nothing one edition's events book changes whom the edition's later events may take:
only another edition's bookings do. So the players an edition must pass over are gathered once,
from an index by day and week, and a try is one set lookup (`free_for`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Protocol

ONE_DAY = dt.timedelta(days=1)
SEASON_EDITIONS = 12  # senior editions a player enters in a season besides those never counted: the
# real top players' dozen or so tournaments ...
SEASON_DRAWS = 16  # ... and draws: a player of two doubles events enters eight editions


class Booker(Protocol):
    @property
    def idx(self) -> int: ...


class Bookings:
    def __init__(self) -> None:
        # each day and ISO week (year, week) an edition was played or started in: {player idx: edition}
        self.by_key: dict[object, dict[int, str]] = {}
        # (player idx, year) -> senior editions entered and draws played in them (those counted),
        # and by year the players with no room left (SEASON_EDITIONS or SEASON_DRAWS reached)
        self.editions: dict[tuple[int, int], set[str]] = {}
        self.draws: dict[tuple[int, int], int] = {}
        self.full: dict[int, set[int]] = {}
        # the players out of reach of one edition (its id, season and set), until another books
        self._blocked: tuple[str, int | None, set[int]] | None = None

    def free_for(
        self, edition: str, start: dt.date | None, end: dt.date | None, season: int | None = None
    ) -> Callable[[Booker], bool]:
        """Whether a player may enter this edition (`blocked`)."""
        blocked = self.blocked(edition, start, end, season)
        return lambda p: p.idx not in blocked

    def blocked(self, edition: str, start: dt.date | None, end: dt.date | None, season: int | None = None) -> set[int]:
        """The players (idx) who may not enter this edition: another edition of theirs overlaps its
        days or starts in the same calendar week (editions without dates are never in the way);
        with a `season` (year), also those with no room left in it (count_draw), unless this
        edition is one they entered. Not to be changed: it is kept for the edition's next events."""
        got = self._blocked
        if got is None or got[0] != edition or got[1] != season:
            got = self._blocked = (edition, season, self._gather(edition, start, end, season))
        return got[2]

    def _gather(self, edition: str, start: dt.date | None, end: dt.date | None, season: int | None) -> set[int]:
        blocked: set[int] = set()
        if start is not None and end is not None:
            for key in _keys(start, end):
                blocked.update(i for i, other in self.by_key.get(key, {}).items() if other != edition)
        if season is not None:
            editions = self.editions
            blocked.update(i for i in self.full.get(season, ()) if edition not in editions[(i, season)])
        return blocked

    def book(self, players: Iterable[Booker], edition: str, start: dt.date | None, end: dt.date | None) -> None:
        if start is None or end is None:
            return
        if self._blocked is not None and self._blocked[0] != edition:
            self._blocked = None  # another edition's bookings: whom it blocks is gathered afresh
        keys = _keys(start, end)
        held = [self.by_key.setdefault(key, {}) for key in keys]
        week = held[0]
        for p in players:
            if week.get(p.idx) == edition:
                continue  # booked already (another event of the same edition)
            for on_key in held:
                on_key[p.idx] = edition

    def count_draw(self, players: Iterable[Booker], year: int, edition: str) -> None:
        if self._blocked is not None and self._blocked[0] != edition:
            self._blocked = None
        full = self.full.setdefault(year, set())
        for p in players:
            key = (p.idx, year)
            entered = self.editions.setdefault(key, set())
            entered.add(edition)
            self.draws[key] = draws = self.draws.get(key, 0) + 1
            if len(entered) >= SEASON_EDITIONS or draws >= SEASON_DRAWS:
                full.add(p.idx)


def _keys(start: dt.date, end: dt.date) -> list[object]:
    """An edition's starting ISO week (year, week), then each of its days."""
    return [start.isocalendar()[:2], *(start + ONE_DAY * k for k in range((end - start).days + 1))]
