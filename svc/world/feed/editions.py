"""The world's calendar as the live feed needs it, made by the generator's own code (pure
functions; the feed does the database side).

- The draws of an edition that starts after the world's as-of moment (state "future": a
  tournament row with dates but no matches): entries, seeds and places from the generator's
  `knockout_draw`, the first round's start times from its timetable (the host's local
  sessions and courts), bookmaker prices where the generator prices an edition in play.
  Drawn at local midnight of the edition's first day.
- The timetable of every knockout edition (future or in play on as_of): when each round's
  matches are planned, so that rounds keep to their days and an edition ends on its last day.

Deterministic: the generator's named random streams (seed, edition, discipline ...) and a
People warmed the same way every time, so a restarted feed or a catch-up draws the same.
Team events and the season finals (groups, then knockout) are not drawn here.
"""

from __future__ import annotations

import datetime as dt

import attrs

from svc.world import engine
from svc.world.generate import timetable
from svc.world.generate.calendar import Edition, build_calendar, events_of, series_of, utc_offset
from svc.world.generate.context import Context
from svc.world.generate.draws import ROUND_NAMES, Event, Match, knockout_draw
from svc.world.generate.ids import sub_rng
from svc.world.generate.people import Player
from svc.world.generate.prices import odds_rows, priced
from svc.world.generate.scales import SCALES


@attrs.define
class Drawn:
    """An edition's draws as rows for the database."""

    tournament_id: str
    matches: list[Match] = attrs.field(factory=list)  # first round, scheduled
    odds: list[tuple] = attrs.field(factory=list)  # odds rows as the bundle has them
    players: list[tuple] = attrs.field(factory=list)  # every player in a draw (players rows)


class Calendar:
    """The generated world's calendar (seed, scale and "now" of its world_meta)."""

    def __init__(self, seed: int, scale: str, now: dt.date | dt.datetime) -> None:
        self.seed = seed
        self.scale = SCALES[scale]
        self.ctx = Context.make(seed, self.scale, now)
        self.editions = {ed.id: ed for ed in build_calendar(seed, self.scale, self.ctx.as_of, series_of(self.scale))}
        self._warm = False
        self._plans: dict[str, dict[str, Match]] = {}

    @classmethod
    def of_world(cls, meta: dict[str, str]) -> Calendar | None:
        """The calendar of a generated world, None for a world that came from elsewhere."""
        try:
            seed, scale = int(meta["seed"]), meta["scale"]
            # an older world without `now`: its as-of day (the generator takes noon UTC of it)
            now = dt.datetime.fromisoformat(meta["now"]) if meta.get("now") else dt.date.fromisoformat(meta["as_of"])
        except (KeyError, ValueError):
            return None
        if scale not in SCALES:
            return None
        return cls(seed, scale, now)

    # -- future editions ----------------------------------------------------------------
    def to_draw(self, ed_id: str) -> Edition | None:
        """The edition if the feed draws it (a future knockout edition with dates)."""
        ed = self.editions.get(ed_id)
        if ed is None or ed.state != "future" or ed.start is None:
            return None
        return ed

    def draw_at(self, ed: Edition) -> dt.datetime:
        """When the draw is made: local midnight of the first day."""
        assert ed.start is not None
        return dt.datetime(ed.start.year, ed.start.month, ed.start.day, tzinfo=dt.UTC) - utc_offset(ed)

    def draw(self, ed: Edition) -> Drawn:
        """The edition's draws: first-round matches with their planned start times, their
        prices and players. Empty for team events and season finals (not drawn by the feed)."""
        out = Drawn(ed.id)
        if ed.series.team or ed.series.kind == "finals":
            return out
        ctx = self.ctx
        if not self._warm:
            ctx.people.warm(ctx.as_of.year + 1)
            self._warm = True
        events = []
        first: list[Match] = []
        for disc, sport_class in events_of(ed):
            ev = Event(ctx, ed, disc, sport_class)
            drawn = knockout_draw(ctx, ev)
            if drawn is None:
                continue
            slots, rounds, _entries = drawn
            events.append((disc, sport_class, len(slots)))
            for p in range(1, len(slots) // 2 + 1):
                (e1, s1), (e2, s2) = slots[2 * p - 2], slots[2 * p - 1]
                m = ev.new_match(rounds[0], ROUND_NAMES[rounds[0]], p, e1, e2)
                m.seed1, m.seed2 = s1, s2
                first.append(m)
        plan = self.plan(ed.id, events)
        seen: dict[str, Player] = {}
        for m in first:
            m.start_at, m.day = plan[m.id].start_at, plan[m.id].day
            m.status = "scheduled"
            for p in m.side1 + m.side2:
                seen.setdefault(p.id, p)
        out.matches = first
        out.players = [p.row() for p in seen.values()]
        if priced(ed, self.scale):
            for m in first:
                # the engine plays with the players' stored strengths (their peaks), so the
                # prices are made from the same chance
                s1 = sum(round(p.peak, 1) for p in m.side1) / len(m.side1)
                s2 = sum(round(p.peak, 1) for p in m.side2) / len(m.side2)
                m.s1, m.s2, m.p1 = s1, s2, engine.rally_chance(s1, s2)
                m.rules = engine.era_rules(m.disc, m.day)
                out.odds.extend(odds_rows(sub_rng(self.seed, "odds", m.id), m))
        return out

    # -- timetables ------------------------------------------------------------------------
    def plan(self, ed_id: str, events: list[tuple[str, str | None, int]]) -> dict[str, Match]:
        """The edition's timetable (match id -> planned match with start_at and day), made once;
        empty for an edition the calendar does not hold or has no dates for."""
        got = self._plans.get(ed_id)
        if got is None:
            ed = self.editions.get(ed_id)
            got = {} if ed is None or ed.start is None else timetable.timetable(self.ctx, ed, events)
            self._plans[ed_id] = got
        return got

    def has_plan(self, ed_id: str) -> bool:
        return ed_id in self._plans

    def planned(self, ed_id: str, match_id: str) -> Match | None:
        """A match as the edition's timetable (made by `plan`) has it; None when it has no plan or no such match."""
        return self._plans.get(ed_id, {}).get(match_id)

    def local_day(self, ed_id: str, at: dt.datetime) -> dt.date:
        ed = self.editions.get(ed_id)
        return (at + utc_offset(ed)).date() if ed is not None else at.date()

    def bronze(self, ed_id: str) -> bool:
        ed = self.editions.get(ed_id)
        return bool(ed and ed.series.bronze_match)
