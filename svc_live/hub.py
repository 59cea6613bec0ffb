"""The live hub: one per worker. It LISTENs for new changes, reads them from the change log
once, and hands each to every subscriber's own bounded inbox. A subscriber whose inbox
is full is dropped at once (its stream ends; it resumes by Last-Event-ID) so that no
subscriber ever waits for another.

The hub's own statements (reading the log, renewing its streams' slot leases) run on its
LISTEN connection, not the pool: when thousands of clients connect at once, their requests
queue for pooled connections, and a renewal waiting behind them would let leases lapse
(measured: 1,065 of 10,000 streams ended that way) and a change wait behind them too.

A stream (svc_live.stream) uses the hub through a small API only: subscribe/unsubscribe, its
first messages (in_play), its slot's lease (keep_lease, give_back_lease, release, release_soon)
and the clock (now); the hub calls back only what the stream handed it (on_end, on_lost).
"""

from __future__ import annotations

import collections
import datetime as dt
import functools
import heapq
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import attrs
import trio

from svc.changelog import changes
from svc.changelog.changes import CHANNEL
from svc.changelog.listen import listening
from svc.core import heap, metrics
from svc.core.clock import Clock
from svc.core.db import Database, DatabaseUnavailable, DedicatedConnection
from svc.core.errors import ApiError
from svc.core.sqlfiles import Q
from svc.web.live_records import live_json
from svc_live import sse
from svc_live.slots import LEASE_S, RENEW_S, Slots

log = logging.getLogger("svc_live.hub")
T = TypeVar("T")

SUBSCRIBER_BUFFER = 256  # changes a reader may lag behind before it is dropped (~a busy minute)
POLL_S = 2.0  # read the log even without a NOTIFY this often (a lost one costs at most this)
BATCH = 500  # changes read per statement
RECONNECT_S = 2.0  # wait before listening again after the LISTEN connection broke
RECENT = 1024  # changes kept in memory: a snapshot plus those after it is a new stream's start
SNAPSHOT_CHANGES = 200  # a snapshot is taken afresh once this many changes came after it...
SNAPSHOT_S = 5.0  # ...or it is this old
HEARTBEAT_S = 15  # interface.md: a heartbeat every 15 seconds (each subscriber's on_beat)
BEAT_EARLY_S = 0.25  # beats due this soon are called with those due now: one wake-up for many streams


@attrs.frozen
class Change:
    seq: int
    match_id: str
    discipline: str
    kind: str
    created_at: dt.datetime
    wire: bytes  # the SSE message, rendered once for every subscriber

    @classmethod
    def from_row(cls, row) -> Change:
        return cls(
            seq=row["seq"],
            match_id=row["match_id"],
            discipline=row["discipline"],
            kind=row["kind"],
            created_at=row["created_at"],
            wire=sse.message("match", row["data"], row["seq"]),
        )


@attrs.frozen
class Snapshot:
    """Every match in play as of change `seq`, rendered once for all new streams."""

    seq: int
    taken: float  # trio.current_time()
    matches: list[tuple[str, bytes]]  # (discipline, SSE message)


def _ignore(*_: object) -> None:
    """What an ended subscriber does when called back: nothing (it keeps no stream alive)."""


class Subscriber:
    """One stream's inbox: the messages the hub put there for it (changes as SSE messages,
    heartbeats), at most SUBSCRIBER_BUFFER; the stream's task waits for them (`take`). Smaller
    than a memory channel (a deque and two dicts each) and woken the same way. The hub calls back
    `on_end(reason)` (synchronously) when it ends it: `behind` (it fell SUBSCRIBER_BUFFER changes
    behind) or `shutdown` (the worker stops); and `on_beat()` every HEARTBEAT_S from its start."""

    __slots__ = ("discipline", "on_end", "on_beat", "closed", "_items", "_waiting")

    def __init__(self, discipline: str | None, on_end: Callable[[str], None], on_beat: Callable[[], None]) -> None:
        self.discipline = discipline
        self.on_end = on_end
        self.on_beat = on_beat
        self.closed = False
        self._items: list[bytes] = []
        self._waiting: trio.lowlevel.Task | None = None

    def wants(self, change: Change) -> bool:
        return self.discipline is None or self.discipline == change.discipline

    def put(self, wire: bytes) -> bool:
        """Adds a message; False when the inbox is full (nothing added). An ended inbox takes
        everything and keeps nothing."""
        if self.closed:
            return True
        if len(self._items) >= SUBSCRIBER_BUFFER:
            return False
        self._items.append(wire)
        self._wake()
        return True

    def close(self) -> None:
        """No more messages: `take` answers None (what was waiting is dropped), and the callbacks,
        which hold the stream, are let go."""
        self.closed = True
        self._items = []
        self.on_end = self.on_beat = _ignore
        self._wake()

    async def take(self) -> list[bytes] | None:
        """Every message waiting, once there is one; None once the inbox is closed."""
        if not self._items and not self.closed:
            self._waiting = trio.lowlevel.current_task()
            await trio.lowlevel.wait_task_rescheduled(self._abort)
        if self.closed:
            return None
        items, self._items = self._items, []
        return items

    def _wake(self) -> None:
        if self._waiting is not None:
            trio.lowlevel.reschedule(self._waiting)
            self._waiting = None

    def _abort(self, _: object) -> trio.lowlevel.Abort:
        self._waiting = None
        return trio.lowlevel.Abort.SUCCEEDED


@attrs.frozen
class Lease:
    """A stream's hold on one of its key's slots (svc_live.slots): the row it claimed, by the
    holder's name."""

    key_id: int
    slot: int
    holder: str


class Hub:
    def __init__(self, db: Database, clock: Clock, slots: Slots | None = None) -> None:
        self.db = db
        self.clock = clock
        self.slots = slots or Slots(db, clock)
        self._leases: dict[str, Callable[[], None]] = {}  # holder -> what to do when its lease was lost
        self.last_seq = 0
        self.subscribers: set[Subscriber] = set()
        # when each subscriber's next beat is due (trio time), earliest first; an ended one is skipped
        self._beats: list[tuple[float, int, Subscriber]] = []
        self._beats_added = 0  # subscribers ever added: keeps equal times in the order they came
        self._beats_resumed = trio.Event()  # the first subscriber after none
        self._nursery: trio.Nursery | None = None  # where slots of ended streams are released, while it runs
        self.dropped = 0  # subscribers dropped for falling behind (for logs and tests)
        self.closing = False  # the worker is stopping: no new stream
        self.streams_open = 0  # stream bodies running (svc_live.stream), their goodbye not yet sent
        self._a_stream_closed = trio.Event()
        self._wake = trio.Event()
        self._lost = False
        self._own: DedicatedConnection | None = None  # the LISTEN connection, while it is up
        self._own_lock = trio.Lock()  # one statement at a time on it
        self.recent: collections.deque[Change] = collections.deque(maxlen=RECENT)
        self._recent_from = 0  # `recent` holds every change after this seq
        self._snapshot: Snapshot | None = None
        self._snapshot_lock = trio.Lock()  # a crowd of new streams waits for one snapshot query

    async def _on_own(self, read: Callable[[DedicatedConnection | None], Awaitable[T]]) -> T:
        """`read(conn)` on the hub's own connection when it is up (never queued behind
        requests), else `read(None)`: through the pool."""
        conn = self._own
        if conn is None or conn.is_closed():
            return await read(None)
        async with self._own_lock:
            return await read(conn)

    # -- subscribers -------------------------------------------------------------
    def subscribe(
        self, discipline: str | None, on_end: Callable[[str], None], on_beat: Callable[[], None] = _ignore
    ) -> tuple[Subscriber, int]:
        """A new subscriber and the seq it starts after: it receives every change newer than that,
        and `on_beat()` every HEARTBEAT_S from now."""
        if self.closing:
            raise ApiError(
                "unavailable",
                "this server is stopping; reconnect (with Last-Event-ID) and another server or worker answers",
                headers={"Retry-After": "1"},
            )
        sub = Subscriber(discipline, on_end, on_beat)
        self.subscribers.add(sub)
        # Never earlier than a beat already due (each was set at most HEARTBEAT_S after a past
        # moment), so the beating task, asleep until the earliest, need not be woken.
        self._beats_added += 1
        heapq.heappush(self._beats, (trio.current_time() + HEARTBEAT_S, self._beats_added, sub))
        self._beats_resumed.set()
        return sub, self.last_seq

    def unsubscribe(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)
        sub.close()

    def _end(self, sub: Subscriber, reason: str) -> None:
        on_end = sub.on_end  # closing lets it go
        self.unsubscribe(sub)
        on_end(reason)

    async def end_streams(self, within_s: float) -> None:
        """The worker is stopping: every stream ends with `end` (reason `shutdown`) and new ones
        are refused; returns once every stream has sent its goodbye, or after `within_s`."""
        self.closing = True
        for sub in list(self.subscribers):
            self._end(sub, "shutdown")
        with trio.move_on_after(within_s):
            while self.streams_open:
                await self._a_stream_closed.wait()
                self._a_stream_closed = trio.Event()

    def stream_opened(self) -> None:
        self.streams_open += 1
        heap.survivors_opened(1)  # a stream lives ~5 minutes: frozen with the others (svc/core/heap.py)

    def stream_closed(self) -> None:
        self.streams_open -= 1
        self._a_stream_closed.set()

    def fan_out(self, change: Change) -> None:
        for sub in list(self.subscribers):
            if not sub.wants(change):
                continue
            if sub.put(change.wire):
                metrics.FANNED.inc()
            else:
                log.info("dropped a live subscriber that fell %d changes behind", SUBSCRIBER_BUFFER)
                self.dropped += 1
                self._end(sub, "behind")
        if len(self.recent) == RECENT:
            self._recent_from = self.recent[0].seq
        self.recent.append(change)
        self.last_seq = max(self.last_seq, change.seq)

    # -- what a stream holds: its slot's lease -------------------------------------------
    def keep_lease(self, lease: Lease, on_lost: Callable[[], None]) -> None:
        """Renew `lease` with every other lease of this worker's streams (one statement every
        RENEW_S) until it is given back; `on_lost` runs (at once, in the hub's task) if another
        stream was found holding the slot, which is then no longer renewed."""
        self._leases[lease.holder] = on_lost

    def give_back_lease(self, lease: Lease) -> None:
        """Renew `lease` no more: its stream is ending (its slot is released apart)."""
        self._leases.pop(lease.holder, None)

    def release_soon(self, lease: Lease) -> bool:
        """Release the lease's slot in the hub's own nursery, without waiting: for a stream the hub
        ended, whose body may be waiting on a client that stopped reading, so that the client may
        reconnect at once. False when the hub runs no more (the stream releases it itself)."""
        if self._nursery is None:
            return False
        self._nursery.start_soon(self.release, lease)
        return True

    async def release(self, lease: Lease) -> None:
        """Release the lease's slot, shielded (the stream releasing it may be cancelled). A failure
        is only logged: the lease expires by itself within LEASE_S."""
        with trio.CancelScope(shield=True):
            try:
                await self.slots.release(lease.key_id, lease.slot, lease.holder)
            except Exception as exc:
                log.warning("could not release a stream slot (%r); it frees itself within %d s", exc, LEASE_S)

    def now(self) -> dt.datetime:
        """The service clock's time, as a stream tells it (heartbeats, the replay window)."""
        return self.clock.now()

    # -- a new stream's first messages ----------------------------------------------------
    def _fresh(self, snap: Snapshot | None) -> bool:
        return (
            snap is not None
            and trio.current_time() - snap.taken < SNAPSHOT_S
            and self.last_seq - snap.seq <= SNAPSHOT_CHANGES
            and snap.seq >= self._recent_from
        )

    async def in_play(self, discipline: str | None, upto: int) -> list[bytes]:
        """Every match in play as of change `upto` (a subscriber's start): the shared snapshot,
        then the changes after it from memory. When thousands of streams open at once, one
        query serves them all instead of one each."""
        if not self._fresh(self._snapshot):
            async with self._snapshot_lock:
                if not self._fresh(self._snapshot):
                    seq, taken = self.last_seq, trio.current_time()
                    rows = await self.db.fetch(Q.live.in_play, discipline=None)
                    self._snapshot = Snapshot(
                        seq, taken, [(r["discipline"], sse.message("match", live_json(r), seq)) for r in rows]
                    )
        snap = self._snapshot
        assert snap is not None
        out = [wire for d, wire in snap.matches if discipline is None or d == discipline]
        out += [
            c.wire
            for c in self.recent
            if snap.seq < c.seq <= upto and (discipline is None or c.discipline == discipline)
        ]
        return out

    async def _beat(self) -> None:
        """Every subscriber's beats, from this one task: what each beat sends (a heartbeat, or the
        end after ~5 minutes) is the stream's (`on_beat`), the timer is the hub's, so an idle stream
        holds no timer of its own and a second's beats cost one wake-up."""
        while True:
            if not self._beats:
                self._beats_resumed = trio.Event()
                await self._beats_resumed.wait()
                continue
            await trio.sleep_until(self._beats[0][0])
            until = trio.current_time() + BEAT_EARLY_S
            while self._beats and self._beats[0][0] <= until:
                due, added, sub = heapq.heappop(self._beats)
                if sub.closed:
                    continue
                heapq.heappush(self._beats, (due + HEARTBEAT_S, added, sub))
                sub.on_beat()

    # -- the log -------------------------------------------------------------------
    def _notified(self, _payload: str) -> None:
        self._wake.set()

    def _connection_lost(self) -> None:
        self._lost = True
        self._wake.set()

    async def _pump(self) -> None:
        while True:
            rows = await self._on_own(lambda conn: changes.changes_after(self.db, self.last_seq, BATCH, conn))
            for row in rows:
                self.fan_out(Change.from_row(row))
            if len(rows) < BATCH:
                return

    async def _renew_leases(self) -> None:
        """Every RENEW_S, one statement renews the slot leases of every stream of this worker;
        a stream whose lease was lost (it expired and another stream took the slot) ends."""
        while True:
            await trio.sleep(RENEW_S)
            holders = list(self._leases)
            if not holders:
                continue
            try:
                expires_at = self.slots.expiry()
                lost = [
                    r["holder"]
                    for r in await self._on_own(functools.partial(self.slots.renew_many, holders, expires_at))
                ]
            except DatabaseUnavailable as exc:
                log.warning("could not renew stream leases (%s); retrying", exc)
                continue
            for holder in lost:
                if holder in self._leases:
                    log.warning("a stream lost its slot lease; ending it")
                    self._leases.pop(holder)()

    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        try:
            await self._run(task_status)
        finally:
            # The streams end with the hub (it is restarted afresh, or the worker stops): each
            # inbox closed, each body says goodbye and gives its slot back.
            self._nursery = None
            for sub in list(self.subscribers):
                self._end(sub, "shutdown")

    async def _run(self, task_status) -> None:
        started = False
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._renew_leases)
            nursery.start_soon(self._beat)
            while True:
                try:
                    self._lost = False
                    async with listening(self.db, CHANNEL, self._notified, self._connection_lost) as own:
                        self._own = own
                        if not started:
                            self.last_seq = self._recent_from = await changes.newest_seq(self.db)
                            started = True
                            task_status.started(self)
                        while not self._lost:
                            with trio.move_on_after(POLL_S):
                                await self._wake.wait()
                            self._wake = trio.Event()
                            await self._pump()
                except (DatabaseUnavailable, OSError) as exc:
                    log.warning("live hub lost the database (%s); listening again in %.0f s", exc, RECONNECT_S)
                finally:
                    self._own = None
                await trio.sleep(RECONNECT_S)
