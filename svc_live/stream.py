"""One /v1/live/stream connection: a slot lease, what was missed, then changes as they come.

The response body is the whole session: one async generator, run by the request's own task,
that waits for the next change or the next heartbeat, whichever comes first, and yields it.
No task, nursery or channel of its own (each costs memory and collector work per stream, as
ops/bench/layers.py measures). It ends after
~5 minutes, when the hub drops it (fell behind, or the slot's lease was lost: the hub closes
its inbox), or when the client goes away (`client_gone`, from the layer sending it: svc.web.streaming;
under Quart, Quart cancels the body). The slot is released
before the goodbye is sent, so a client may reconnect at once, and even when the goodbye
waits on a client that stopped reading; to a client gone there is no goodbye.

What the stream holds it holds through the hub's API: its subscription (the hub ends it by
`on_end`), its slot's lease (renewed by the hub, `on_lost` when another stream took it) and the
slot's release (in the hub's nursery when the hub ended the stream).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import orjson
import trio

from svc.changelog import changes
from svc.core import metrics
from svc.core.db import Database
from svc.core.errors import ApiError
from svc.web.responses import Streamed
from svc_live import sse
from svc_live.hub import HEARTBEAT_S, Hub, Lease, Subscriber
from svc_live.slots import Slots, new_holder

STREAM_S = 300  # interface.md: a connection lasts about 5 minutes and counts as one call
REPLAY_S = 600  # Last-Event-ID resumes from the last 10 minutes of changes (two connections' worth)
REPLAY_MAX = 5000  # ...and at most this many changes; further behind, the client gets a fresh start


def _last_event_id(raw: str | None) -> int | None:
    """The seq a reconnecting client saw last; anything that is not one of our ids counts as none."""
    if raw is None or not raw.strip().isdigit() or len(raw.strip()) > 18:
        return None
    return int(raw.strip())


async def _missed(db: Database, hub: Hub, discipline: str | None, after: int | None, upto: int) -> list[bytes] | None:
    """The changes after `after` up to `upto`, when the replay window still holds them all."""
    if after is None or after > upto:
        return None
    if after == upto:
        return []
    since = hub.now() - dt.timedelta(seconds=REPLAY_S)
    oldest = await changes.oldest_after(db, after)
    if oldest is None or oldest < since:
        return None
    rows = await changes.replay(db, after=after, upto=upto, discipline=discipline, limit=REPLAY_MAX + 1)
    if len(rows) > REPLAY_MAX:
        return None
    return [sse.message("match", r["data"], r["seq"]) for r in rows]


HEADERS = [
    ("Cache-Control", "no-cache"),
    ("X-Accel-Buffering", "no"),
    ("Content-Type", "text/event-stream; charset=utf-8"),
]


class Session:
    """One stream: what it holds, and its body (svc.web.responses.StreamBody)."""

    __slots__ = ("hub", "lease", "sub", "first", "end_reason", "beats", "released", "__weakref__")

    def __init__(self, hub: Hub, lease: Lease) -> None:
        self.hub, self.lease = hub, lease
        self.sub: Subscriber | None = None
        self.first: list[bytes] = []  # the messages it starts with
        self.end_reason: str | None = None  # why it ends, once it does (the `end` event's reason)
        self.beats = 0
        self.released = False

    def __aiter__(self) -> AsyncIterator[bytes]:
        first, self.first = self.first, []
        return self.body(first)

    def _stop(self, reason: str) -> None:
        """The stream ends for `reason` (the first one given): its inbox closes, the body finishes."""
        self.end_reason = self.end_reason or reason
        if self.sub is not None:
            self.hub.unsubscribe(self.sub)

    def beat(self) -> None:
        """Every HEARTBEAT_S (the hub's beat): a heartbeat, or, once STREAM_S are up, the end."""
        self.beats += 1
        if self.beats * HEARTBEAT_S >= STREAM_S:
            self._stop("time")
        elif self.sub is not None:
            at = orjson.dumps({"at": self.hub.now().isoformat().replace("+00:00", "Z")}).decode()
            self.sub.put(sse.message("heartbeat", at))

    def client_gone(self) -> None:
        """The client went away: the body ends without a goodbye, giving back what it holds."""
        self._stop("gone")

    def ended(self, reason: str) -> None:
        """The hub ended the subscriber (it fell behind, or the worker stops) and closed its inbox.
        The slot is released now: the body may be waiting on a client that stopped reading."""
        self.end_reason = self.end_reason or reason
        self.hub.give_back_lease(self.lease)
        if not self.released:
            self.released = self.hub.release_soon(self.lease)

    def lease_lost(self) -> None:
        """The hub found the slot's lease taken over: the stream ends (the slot is no longer ours; the
        release at the end matches our holder only, so it leaves the new one's lease alone)."""
        self._stop("slot_lost")

    async def _end(self) -> None:
        """Everything the stream held, given back (the slot last, shielded: the body may be cancelled)."""
        metrics.STREAMS.dec()
        self.hub.give_back_lease(self.lease)
        if self.sub is not None:
            self.hub.unsubscribe(self.sub)
        if not self.released and self.end_reason == "gone":
            # no goodbye waits on the release: made beside (the hub's nursery), the stream goes at once
            self.released = self.hub.release_soon(self.lease)
        if not self.released:
            self.released = True
            await self.hub.release(self.lease)

    async def body(self, first: list[bytes]) -> AsyncIterator[bytes]:
        # The lease is renewed from the first byte on; a body never started (the client left at
        # once) is never renewed and its slot frees itself within LEASE_S.
        metrics.STREAMS.inc()
        self.hub.keep_lease(self.lease, self.lease_lost)
        self.hub.stream_opened()
        ended = False
        try:
            # popped, not iterated: the generator's frame lives as long as the stream, and a loop
            # variable would keep the first chunk (every match in play, a few KiB) for all of it
            while first:
                yield first.pop(0)
            del first
            assert self.sub is not None
            # changes and heartbeats as they come, until the inbox closes (the time is up, the hub
            # dropped it, the lease was lost, the client went away, the hub stopped)
            while (messages := await self.sub.take()) is not None:
                for wire in messages:
                    yield wire
            ended = True
            await self._end()
            if self.end_reason != "gone":
                yield self._end_message()
        finally:
            try:
                self.hub.stream_closed()  # the goodbye, if any, has been sent: the server asked for more
                if not ended:  # the client went away (cancelled) or the body failed
                    await self._end()
            finally:
                # The subscriber refers back to this session (its on_end): without the cycle the
                # stream is freed by reference counting, also once frozen (svc/core/heap.py).
                self.sub = None

    def _end_message(self) -> bytes:
        reason = self.end_reason or "time"
        return sse.message("end", orjson.dumps({"reason": reason, "reconnect_after_ms": sse.RETRY_MS}).decode())


async def open_stream(
    hub: Hub, slots: Slots, db: Database, key_id: int, discipline: str | None, last_event_id: str | None
) -> Streamed:
    """The streaming response, or ApiError too_many_streams (429) when both slots are held. The
    replay of what a reconnecting client missed is read through `db` (the request's pool)."""
    holder = new_holder()
    slot = await slots.claim(key_id, holder)
    if slot is None:
        wait = await slots.retry_after(key_id)
        raise ApiError(
            "too_many_streams",
            f"two live streams are already open on this key; close one or retry after {wait} s",
            headers={"Retry-After": str(wait)},
        )
    session = Session(hub, Lease(key_id, slot, holder))
    try:
        session.sub, upto = hub.subscribe(discipline, session.ended, session.beat)
        missed = await _missed(db, hub, discipline, _last_event_id(last_event_id), upto)
        first = missed if missed is not None else await hub.in_play(discipline, upto)
    except BaseException:
        if session.sub is not None:
            hub.unsubscribe(session.sub)
        with trio.CancelScope(shield=True):
            await slots.release(key_id, slot, holder)
        raise
    # one chunk: every match in play goes out in one send (one write) rather than one each
    session.first = [b"".join([sse.preamble(), *first])]
    return Streamed(200, HEADERS, session)
