"""The live feed: plays the world forward from its as-of moment (the Trio side).

One per deployment: every worker runs this component, and the one holding a PostgreSQL
advisory lock (on a dedicated connection, so it is released when that worker dies) plays;
the others try again every LOCK_RETRY_S. Started long after the world was generated, it
first catches up (plays the missed time at full speed, CATCHUP_STEP at a time), then plays
in real time (times `speed`, from SVC_LIVE_SPEED / `serve --live-speed`).

A step at world time t: scheduled matches whose start has come go live; every match in
play plays the rallies due by t; results published with a slip are corrected when due.
Each match's step is three moves: its rows are read (here, in Trio), what the step does to
it is decided without I/O (svc.world.feed.simulate: the rallies, the result, the next
round, a slip to correct, as the values of svc.world.feed.decisions), and the decision is
written in one transaction (svc.world.feed.persist, on the database side) holding its
rows, the change log row (stream), the outbox row (webhooks: match.started on the first
rally, match.finished, result.corrected) and the NOTIFY. The feed is the only writer of the
matches it plays (the lock), so what it read still holds when it writes. A finished match
schedules the next round's match once both of its feeders are done (ids as the generator
makes them), at its planned time in the edition's timetable (rounds keep to their days) or
30 minutes after the later feeder, whichever is later. Editions that start after the
world's as-of moment are drawn by the generator's pieces (svc/world/feed/editions.py) at
local midnight of their first day; an edition is recorded finished (live_feed_editions)
when its last match ends.

The feed starts from the world's "now" (world_meta `now`, the moment it was generated; noon
UTC of `as_of` for an older bundle) and never plays ahead of the clock (times `speed`): a
feed started before the world's now waits for it, unless it plays faster than the clock, when
it goes on from the point it had reached (it is ahead by design).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import trio

from svc.core.clock import Clock
from svc.core.db import Database, DatabaseUnavailable, DedicatedConnection
from svc.core.sqlfiles import Q
from svc.web.service import Service
from svc.world.feed import persist, simulate
from svc.world.feed.decisions import NextMatch
from svc.world.feed.editions import Calendar
from svc.world.feed.play import Play
from svc.world.generate.context import world_now as generator_now

log = logging.getLogger("svc.world.feed")

FEED_LOCK = 0x11FE_FEED  # advisory lock: who runs the feed
LOCK_RETRY_S = 10  # a standby worker asks for the lock this often
TICK_S = 1.0  # live: a step every second (rallies are ~30 s apart)
CATCHUP_STEP = dt.timedelta(minutes=5)  # catching up: world time played per step


@asynccontextmanager
async def feed_lock(db: Database) -> AsyncIterator[DedicatedConnection | None]:
    """A dedicated connection holding the feed's lock, or None when another worker has it."""
    async with db.dedicated() as own:  # closing the session releases the lock
        got = await own.fetchval(Q.feed.lock_try, lock=FEED_LOCK)
        yield own if got else None


def world_now(meta: dict[str, str], today: dt.date) -> dt.datetime:
    """The world's "now": its `now`, else the generator's for its as-of day (else for today): noon UTC."""
    if meta.get("now"):
        return dt.datetime.fromisoformat(meta["now"])
    return generator_now(dt.date.fromisoformat(meta["as_of"]) if meta.get("as_of") else today)


class Feed:
    def __init__(self, db: Database, clock: Clock, *, speed: float = 1.0) -> None:
        self.db = db
        self.clock = clock
        self.speed = speed
        self.position: dt.datetime | None = None  # world time played up to
        self.playing = False
        self.meta: dict[str, str] | None = None
        self.calendar: Calendar | None = None
        self.world = ""  # the world played (live-feed-world), saved with the position

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        task_status.started(self)
        while True:
            try:
                async with feed_lock(self.db) as lock:
                    if lock is not None:
                        log.info("this worker runs the live feed (speed %.1f)", self.speed)
                        self.playing = True
                        await self._play(lock)
            except DatabaseUnavailable as exc:
                log.warning("live feed lost the database (%s); trying again", exc)
            finally:
                self.playing = False
            await trio.sleep(LOCK_RETRY_S)

    # -- the loop ---------------------------------------------------------------------
    async def _play(self, lock: DedicatedConnection) -> None:
        world = await self.db.fetchval(Q.feed.world)
        state = await self.db.fetchrow(Q.feed.state_get)
        await self._load_world()
        if state is not None and state["world"] == world:
            position = state["played_to"]
        else:
            await self.db.execute(Q.feed.forget_matches)
            await self.db.execute(Q.feed.forget_corrections)
            await self.db.execute(Q.feed.forget_editions)
            position = world_now(self.meta or {}, self.clock.today())
        self.world = world
        # catch up: the missed time at full speed
        while position + CATCHUP_STEP < self.clock.now():
            position += CATCHUP_STEP
            await self.step(position)
        # Started before the world's now (a clock behind the generator's): wait for it. A feed that
        # plays faster than the clock (speed above 1) has run ahead by design: after a restart or a
        # change of leader it goes on from where it was, instead of waiting hours for the clock.
        ahead = (position - self.clock.now()).total_seconds()
        if ahead > 0 and self.speed <= 1:
            log.info("the world (%s) is %.0f s ahead of the clock; the feed waits for it", position, ahead)
            await trio.sleep(ahead)
        elif ahead > 0:
            log.info(
                "the world (%s) is %.0f s ahead of the clock at speed %.1f; the feed goes on from there",
                position,
                ahead,
                self.speed,
            )
        # then live, `speed` seconds of play per second
        anchor_real, anchor_world = self.clock.timestamp(), max(position, self.clock.now())
        while True:
            await self.step(anchor_world + dt.timedelta(seconds=(self.clock.timestamp() - anchor_real) * self.speed))
            await lock.fetch(Q.feed.lock_held)  # fails when the lock's session is gone
            await trio.sleep(TICK_S)

    async def _load_world(self) -> None:
        """The world's provenance and calendar (once; the calendar is None for a world that
        was not generated here, whose future editions the feed then leaves alone)."""
        if self.meta is not None:
            return
        meta = {r["key"]: r["value"] for r in await self.db.fetch(Q.feed.meta)}
        self.calendar = await trio.to_thread.run_sync(Calendar.of_world, meta)
        self.meta = meta

    async def step(self, t: dt.datetime) -> None:
        """Play the world up to `t`."""
        now = self.clock.now()
        await self._load_world()
        await self._draw_editions(t)
        await self.db.fetch(Q.feed.adopt, t=t)
        await self.db.fetch(Q.feed.start_due, t=t)
        for row in await self.db.fetch(Q.feed.due, t=t):
            await self._play_match(row["match_id"], t, now)
        for row in await self.db.fetch(Q.feed.corrections_due, t=t):
            await self.db.transaction(persist.corrected, simulate.correction(row, t), now)
        await self.db.execute(Q.feed.state_save, world=self.world, played_to=t)
        self.position = t

    # -- editions ---------------------------------------------------------------------------
    async def _draw_editions(self, t: dt.datetime) -> None:
        """Draw every future edition whose draw time (local midnight of its first day) has come."""
        cal = self.calendar
        if cal is None:
            return
        due = await self.db.fetch(Q.feed.editions_due, from_day=cal.ctx.as_of, to_day=(t + dt.timedelta(days=1)).date())
        for row in due:
            ed = cal.to_draw(row["id"])
            if ed is None:  # not a future edition of the generated calendar: not the feed's to draw
                await self.db.execute(Q.feed.edition_drawn, tournament_id=row["id"], at=t, matches=0)
                continue
            at = cal.draw_at(ed)
            if at > t:
                continue
            drawn = await trio.to_thread.run_sync(cal.draw, ed)  # the generator's code: seconds for a big edition
            await self.db.transaction(persist.draw, drawn, at)
            log.info("drew %s: %d first-round matches", ed.name, len(drawn.matches))

    # -- one match: read, decide, write -------------------------------------------------------
    async def _play_match(self, match_id: str, t: dt.datetime, now: dt.datetime) -> None:
        m = await self.db.fetchrow(Q.feed.load, match_id=match_id)
        if m is None or m["status"] != "live":
            await self.db.execute(Q.feed.forget_match, match_id=match_id)
            return
        st = simulate.play_due(m, t)
        if st is None:
            return
        if st.winner is None:
            books = await self.db.fetch(Q.feed.margins, match_id=match_id)
            await self.db.transaction(persist.in_play, simulate.in_play(m, st, books), now)
            return
        next_matches = await self._next_round(m, st)
        await self.db.transaction(persist.finished, simulate.finished(m, st, next_matches), now)

    async def _next_round(self, m: Any, st: Play) -> list[NextMatch]:
        """The matches `m`'s result schedules (its next round's, a bronze match), from what is read now."""
        if not simulate.leads_on(m):
            return []
        pos_a, pos_b = simulate.feeder_positions(m["position"])
        feeders = await self.db.fetch(
            Q.feed.round,
            tournament_id=m["tournament_id"],
            discipline=m["discipline"],
            sport_class=m["sport_class"],
            round_code=m["round_code"],
            pos_a=pos_a,
            pos_b=pos_b,
        )
        cal = self.calendar
        pairings = simulate.pairings(m, st, feeders, bronze=cal is not None and cal.bronze(m["tournament_id"]))
        if not pairings:
            return []
        await self._plan(m["tournament_id"])
        books = await self.db.fetch(Q.feed.margins, match_id=m["id"])
        out = []
        for pairing in pairings:
            (side1, _), (side2, _) = pairing.sides
            strengths = None
            if books:  # priced like its feeder, from the sides' strengths
                strengths = await self.db.fetchrow(Q.feed.strengths, side1=list(side1), side2=list(side2))
            out.append(simulate.next_match(m, pairing, cal, books, strengths))
        return out

    async def _plan(self, tournament_id: str) -> None:
        """The edition's timetable made once, from the sizes of its draws as held now."""
        cal = self.calendar
        if cal is not None and not cal.has_plan(tournament_id):
            sizes = await self.db.fetch(Q.feed.event_sizes, tournament_id=tournament_id)
            cal.plan(tournament_id, [(r["discipline"], r["sport_class"], r["size"]) for r in sizes])


async def component(service: Service, *, speed: float = 1.0, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """The feed as a component of the app (svc.web.supervisor), on the worker's pool and clock:
    every worker runs one; the one holding the feed's advisory lock plays the world, `speed`
    seconds of play a second (SVC_LIVE_SPEED, given by svc.assembly). Its handle is the Feed."""
    await Feed(service.db, service.clock, speed=speed).run(task_status=task_status)
