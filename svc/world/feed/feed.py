"""The live feed: plays the world forward from its as-of moment.

One per deployment: every worker runs this component, and the one holding a PostgreSQL
advisory lock (on a dedicated connection, so it is released when that worker dies) plays;
the others try again every LOCK_RETRY_S. Started long after the world was generated, it
first catches up (plays the missed time at full speed, CATCHUP_STEP at a time), then plays
in real time (times `speed`, from SVC_LIVE_SPEED / `serve --live-speed`).

A step at world time t: scheduled matches whose start has come go live; every match in
play plays the rallies due by t; results published with a slip are corrected when due.
Each match's step is one transaction holding its rows, the change log row (stream), the
outbox row (webhooks: match.started on the first rally, match.finished,
result.corrected) and the NOTIFY. A finished match schedules the next round's match once
both of its feeders are done (ids as the generator makes them), at its planned time in the
edition's timetable (rounds keep to their days) or 30 minutes after the later feeder,
whichever is later. Editions that start after the world's as-of moment are drawn by the
generator's pieces (svc/world/feed/editions.py) at local midnight of their first day; an edition is
recorded finished (live_feed_editions) when its last match ends.

The feed starts from the world's "now" (world_meta `now`, the moment it was generated; noon
UTC of `as_of` for an older bundle) and never plays ahead of the clock (times `speed`): a
feed started before the world's now waits for it, unless it plays faster than the clock, when
it goes on from the point it had reached (it is ahead by design).
"""

from __future__ import annotations

import datetime as dt
import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator

import asyncpg
import trio

from svc.core import sqlrun
from svc.core.clock import Clock
from svc.core.db import Database, DatabaseUnavailable
from svc.core.sqlfiles import Q
from svc.rating import history as ratings
from svc.web.service import Service
from svc.world import engine
from svc.world.feed import play
from svc.world.feed.editions import Calendar
from svc.world.feed.publish import publish
from svc.world.generate.context import world_now as generator_now
from svc.world.generate.draws import ROUND_NAMES, rounds_of
from svc.world.generate.ids import make_id, sub_rng
from svc.world.generate.prices import IN_PLAY, prices
from svc.world.generate.timetable import NEXT_ROUND_GAP, on_five

log = logging.getLogger("svc.world.feed")

FEED_LOCK = 0x11FE_FEED    # advisory lock: who runs the feed
LOCK_RETRY_S = 10          # a standby worker asks for the lock this often
TICK_S = 1.0               # live: a step every second (rallies are ~30 s apart)
CATCHUP_STEP = dt.timedelta(minutes=5)  # catching up: world time played per step
KNOCKOUT = tuple(rounds_of(128))  # the generator's rounds, first to final


@asynccontextmanager
async def feed_lock(db: Database) -> AsyncIterator[asyncpg.Connection | None]:
    """A dedicated connection holding the feed's lock, or None when another worker has it."""
    async with db.dedicated() as conn:  # closing the session releases the lock
        got = (await db.fetch_on(conn, Q.feed.lock_try, lock=FEED_LOCK))[0]["got"]
        yield conn if got else None


def _rules(row: Any) -> engine.Rules:
    return engine.era_rules(row["discipline"], row["day"] or row["start_at"].date())


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
    async def _play(self, lock: asyncpg.Connection) -> None:
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
            log.info("the world (%s) is %.0f s ahead of the clock at speed %.1f; the feed goes on from there",
                     position, ahead, self.speed)
        # then live, `speed` seconds of play per second
        anchor_real, anchor_world = self.clock.timestamp(), max(position, self.clock.now())
        while True:
            await self.step(anchor_world + dt.timedelta(seconds=(self.clock.timestamp() - anchor_real) * self.speed))
            await self.db.fetch_on(lock, Q.feed.lock_held)  # fails when the lock's session is gone
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
            await self.db.transaction(lambda conn, mid=row["match_id"]: self._play_match(conn, mid, t, now))
        for row in await self.db.fetch(Q.feed.corrections_due, t=t):
            await self.db.transaction(lambda conn, r=row: self._correct(conn, r, t, now))
        await self.db.execute(Q.feed.state_save, world=self.world, played_to=t)
        self.position = t

    # -- editions ---------------------------------------------------------------------------
    async def _draw_editions(self, t: dt.datetime) -> None:
        """Draw every future edition whose draw time (local midnight of its first day) has come."""
        cal = self.calendar
        if cal is None:
            return
        due = await self.db.fetch(Q.feed.editions_due, from_day=cal.ctx.as_of,
                                  to_day=(t + dt.timedelta(days=1)).date())
        for row in due:
            ed = cal.to_draw(row["id"])
            if ed is None:  # not a future edition of the generated calendar: not the feed's to draw
                await self.db.execute(Q.feed.edition_drawn, tournament_id=row["id"], at=t, matches=0)
                continue
            at = cal.draw_at(ed)
            if at > t:
                continue
            drawn = await trio.to_thread.run_sync(cal.draw, ed)
            await self.db.transaction(lambda conn, d=drawn, at=at: self._insert_draw(conn, d, at))
            log.info("drew %s: %d first-round matches", ed.name, len(drawn.matches))

    async def _insert_draw(self, conn: asyncpg.Connection, d: Any, at: dt.datetime) -> None:
        done = await sqlrun.fetch(conn, Q.feed.edition_drawn, tournament_id=d.tournament_id, at=at,
                                  matches=len(d.matches))
        if not done:
            return  # drawn already (another feed, a moment ago)
        if d.players:
            cols = list(zip(*d.players))
            await sqlrun.fetch(conn, Q.feed.players_insert, ids=list(cols[0]), names=list(cols[1]),
                               slugs=list(cols[2]), countries=list(cols[3]), genders=list(cols[4]),
                               borns=list(cols[5]), hands=list(cols[6]), heights=list(cols[7]),
                               coaches=list(cols[8]), classes=list(cols[9]), strengths=list(cols[10]))
        ms = d.matches
        if ms:
            await sqlrun.fetch(conn, Q.feed.draw_insert, tournament_id=d.tournament_id,
                               ids=[m.id for m in ms], event_ids=[m.event_id for m in ms],
                               disciplines=[m.disc for m in ms], classes=[m.sport_class for m in ms],
                               round_codes=[m.round_code for m in ms], round_names=[m.round_name for m in ms],
                               positions=[m.position for m in ms],
                               sides1=[",".join(p.id for p in m.side1) for m in ms],
                               sides2=[",".join(p.id for p in m.side2) for m in ms],
                               seeds1=[m.seed1 for m in ms], seeds2=[m.seed2 for m in ms],
                               days=[m.day for m in ms], starts=[m.start_at for m in ms])
        if d.odds:
            cols = list(zip(*d.odds))
            await sqlrun.fetch(conn, Q.feed.odds_rows_insert, match_ids=list(cols[0]), books=list(cols[1]),
                               markets=list(cols[2]), lines=list(cols[3]), open1=list(cols[4]), open2=list(cols[5]),
                               close1=list(cols[6]), close2=list(cols[7]))

    # -- one match (asyncpg side: inside one transaction) --------------------------------
    async def _play_match(self, conn: asyncpg.Connection, match_id: str, t: dt.datetime, now: dt.datetime) -> None:
        rows = await sqlrun.fetch(conn, Q.feed.load, match_id=match_id)
        if not rows or rows[0]["status"] != "live":
            await sqlrun.fetch(conn, Q.feed.forget_match, match_id=match_id)
            return
        m = rows[0]
        g1, g2 = list(m["g1"]), list(m["g2"])
        in_game = m["last_rally"] if m["last_game"] is not None and m["last_game"] == len(g1) else 0
        first_server = 1 if sub_rng(match_id, "toss").random() < 0.5 else 2
        st = play.Play(match_id=match_id, g1=g1, g2=g2, server=m["last_winner"] or first_server,
                       rally_no=m["rally_no"], rally_in_game=in_game, next_at=m["next_at"])
        started = st.rally_no == 0
        # played with the form on the day (named by the match, so a replay plays the same), which
        # the bookmakers learn only from the rallies (their prices: _prices)
        rules = _rules(m)
        p_day = engine.rally_chance((m["s1"] or 0.0) + engine.form(sub_rng(match_id, "form"), m["discipline"]),
                                    m["s2"] or 0.0)
        play.play_until(st, p_day, rules, t, engine.bias(m["discipline"], rules))
        if not st.rallies:
            return
        cols = list(zip(*st.rallies))
        await sqlrun.fetch(conn, Q.feed.rallies_insert, match_id=match_id, games=list(cols[0]), rallies=list(cols[1]),
                  servers=list(cols[2]), winners=list(cols[3]), score1=list(cols[4]), score2=list(cols[5]))
        if st.winner is None:
            await sqlrun.fetch(conn, Q.feed.score, match_id=match_id, g1=st.g1, g2=st.g2, rally_no=st.rally_no,
                      next_at=st.next_at)
            await self._prices(conn, match_id, st, m["discipline"], now)
            await publish(conn, match_id, "started" if started else "score", now)
            return
        published = play.slip(match_id, st.g1, st.g2)
        g1p, g2p = published or (st.g1, st.g2)
        await sqlrun.fetch(conn, Q.feed.finish, match_id=match_id, g1=g1p, g2=g2p, winner=st.winner, end_at=st.ended_at)
        await sqlrun.fetch(conn, Q.feed.forget_match, match_id=match_id)
        await sqlrun.fetch(conn, Q.feed.prices_drop, match_id=match_id)
        await ratings.advance(conn, match_id)
        if published is not None:
            lo, hi = play.CORRECT_AFTER_MIN
            due = st.ended_at + dt.timedelta(minutes=sub_rng(match_id, "due").randint(lo, hi))
            await sqlrun.fetch(conn, Q.feed.correction_plan, match_id=match_id, due_at=due, true_g1=st.g1, true_g2=st.g2)
        if started:
            await publish(conn, match_id, "started", now)
        await publish(conn, match_id, "finished", now)
        await self._next_round(conn, m, st.ended_at)
        if m["round_code"] in ("F", "3P") or m["tie_id"] is not None or m["round_code"] is None:
            await sqlrun.fetch(conn, Q.feed.edition_finished, tournament_id=m["tournament_id"], at=st.ended_at)

    async def _prices(self, conn: asyncpg.Connection, match_id: str, st: play.Play, discipline: str,
                      now: dt.datetime) -> None:
        """In-play prices: from the bookmakers' closing price, moved by the score (play.in_play_chance)."""
        books = await sqlrun.fetch(conn, Q.feed.margins, match_id=match_id)
        if not books:
            return
        closing = sum(b["chance_close"] for b in books) / len(books)
        chance = play.in_play_chance(st, play.market_gap(round(closing, 4), discipline), discipline)
        quotes = [prices(chance, b["margin"], IN_PLAY) for b in books]
        await sqlrun.fetch(conn, Q.feed.prices, match_id=match_id, books=[b["bookmaker"] for b in books],
                  price1=[q[0] for q in quotes], price2=[q[1] for q in quotes], at=now)

    async def _next_round(self, conn: asyncpg.Connection, m: Any, ended: dt.datetime) -> None:
        """Schedule the match these two feeders lead to, once both are finished."""
        code = m["round_code"]
        if m["tie_id"] is not None or code not in KNOCKOUT[:-1]:
            return  # team ties, group stages, finals and bronze matches lead nowhere here
        pos = m["position"]
        pair = (pos, pos + 1) if pos % 2 else (pos - 1, pos)
        feeders = await sqlrun.fetch(conn, Q.feed.round, tournament_id=m["tournament_id"], discipline=m["discipline"],
                            sport_class=m["sport_class"], round_code=code, pos_a=pair[0], pos_b=pair[1])
        if len(feeders) != 2 or any(f["status"] != "finished" or f["winner"] is None for f in feeders):
            return
        winners = [(f["side1"], f["seed1"]) if f["winner"] == 1 else (f["side2"], f["seed2"]) for f in feeders]
        latest = max(f["end_at"] or ended for f in feeders)
        nxt = KNOCKOUT[KNOCKOUT.index(code) + 1]
        await self._schedule(conn, m, nxt, (pos + 1) // 2, winners, latest)
        if code == "SF" and self.calendar is not None and self.calendar.bronze(m["tournament_id"]):
            losers = [(f["side2"], f["seed2"]) if f["winner"] == 1 else (f["side1"], f["seed1"]) for f in feeders]
            await self._schedule(conn, m, "3P", 1, losers, latest)

    async def _planned(self, conn: asyncpg.Connection, tournament_id: str, match_id: str) -> Any:
        """The match as the edition's timetable plans it (None without a timetable)."""
        if self.calendar is None:
            return None
        if not self.calendar.has_plan(tournament_id):
            sizes = await sqlrun.fetch(conn, Q.feed.event_sizes, tournament_id=tournament_id)
            self.calendar.plan(tournament_id, [(r["discipline"], r["sport_class"], r["size"]) for r in sizes])
        return self.calendar.plan(tournament_id, []).get(match_id)

    async def _schedule(self, conn: asyncpg.Connection, m: Any, code: str, position: int,
                        sides: list[tuple[Any, Any]], latest: dt.datetime) -> None:
        """Schedule a match of round `code` between `sides` (side, seed) whose feeders ended by `latest`."""
        key = (m["tournament_id"], m["discipline"], m["sport_class"], code, position, None, None)
        match_id = make_id("mt_", *key)
        start = on_five(latest + NEXT_ROUND_GAP)
        planned = await self._planned(conn, m["tournament_id"], match_id)
        if planned is not None and planned.start_at > start:
            start = planned.start_at
        day = self.calendar.local_day(m["tournament_id"], start) if self.calendar is not None else start.date()
        new = await sqlrun.fetch(conn, Q.feed.match_insert, id=match_id, event_id=make_id("ev_", *key),
                        tournament_id=m["tournament_id"], discipline=m["discipline"], sport_class=m["sport_class"],
                        round_code=code, round_name=ROUND_NAMES[code], position=position,
                        side1=list(sides[0][0]), side2=list(sides[1][0]), seed1=sides[0][1], seed2=sides[1][1],
                        day=day, start_at=start)
        if not new:
            return
        books = await sqlrun.fetch(conn, Q.feed.margins, match_id=m["id"])
        if books:  # priced like its feeders: the same bookmakers, prices from the sides' strengths
            s = (await sqlrun.fetch(conn, Q.feed.strengths, side1=list(sides[0][0]), side2=list(sides[1][0])))[0]
            chance, _game = engine.match_chance((s["s1"] or 0.0) - (s["s2"] or 0.0), engine.RALLY, m["discipline"])
            quotes = [prices(chance, b["margin"], IN_PLAY) for b in books]
            await sqlrun.fetch(conn, Q.feed.odds_insert, match_id=new[0]["id"], books=[b["bookmaker"] for b in books],
                      price1=[q[0] for q in quotes], price2=[q[1] for q in quotes])

    async def _correct(self, conn: asyncpg.Connection, row: Any, t: dt.datetime, now: dt.datetime) -> None:
        done = await sqlrun.fetch(conn, Q.feed.correct, match_id=row["match_id"], g1=list(row["true_g1"]),
                         g2=list(row["true_g2"]), at=t)
        if done:
            # the players' day is rated again with the corrected points (a later day is left to the next import)
            await ratings.advance(conn, row["match_id"])
            await publish(conn, row["match_id"], "corrected", now)


async def component(service: Service, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """The feed as a component of the app (svc.web.app.Component), as service.feed: every
    worker runs one; the one holding the feed's advisory lock plays the world."""
    the_feed = Feed(service.db, service.clock, speed=service.settings.live_speed)
    service.feed = the_feed
    await the_feed.run(task_status=task_status)
