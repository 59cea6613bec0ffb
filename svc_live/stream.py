"""One /v1/live/stream connection: a slot lease, what was missed, then changes as they come.

The session runs in the hub's nursery as three siblings — sender, heartbeat and
disconnect watcher (which ends the session when the response body is closed, i.e. the
client went away, or when the hub reports the slot's lease lost; the hub renews every
lease of its worker in one statement). The first
to finish cancels the others. The response body only reads the session's output channel,
so nothing is ever yielded from inside a nursery.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import AsyncIterator

import orjson
import trio
from quart import Response

from svc.changelog import changes
from svc.core import metrics
from svc.core.errors import ApiError
from svc_live import sse
from svc_live.hub import Hub, Subscriber
from svc_live.slots import LEASE_S, Slots, new_holder

log = logging.getLogger("svc_live.stream")

STREAM_S = 300      # interface.md: a connection lasts about 5 minutes and counts as one call
HEARTBEAT_S = 15    # interface.md: a heartbeat every 15 seconds
REPLAY_S = 600      # Last-Event-ID resumes from the last 10 minutes of changes (two connections' worth)
REPLAY_MAX = 5000   # ...and at most this many changes; further behind, the client gets a fresh start
END_SEND_S = 10     # how long the goodbye may wait for a reader (a dropped one is behind by definition)


def _last_event_id(raw: str | None) -> int | None:
    """The seq a reconnecting client saw last; anything that is not one of our ids counts as none."""
    if raw is None or not raw.strip().isdigit() or len(raw.strip()) > 18:
        return None
    return int(raw.strip())


async def _missed(hub: Hub, discipline: str | None, after: int | None, upto: int) -> list[bytes] | None:
    """The changes after `after` up to `upto`, when the replay window still holds them all."""
    if after is None or after > upto:
        return None
    if after == upto:
        return []
    since = hub.clock.now() - dt.timedelta(seconds=REPLAY_S)
    oldest = await changes.oldest_after(hub.db, after)
    if oldest is None or oldest < since:
        return None
    rows = await changes.replay(hub.db, after=after, upto=upto, discipline=discipline, limit=REPLAY_MAX + 1)
    if len(rows) > REPLAY_MAX:
        return None
    return [sse.message("match", r["data"], r["seq"]) for r in rows]


class Session:
    def __init__(self, hub: Hub, slots: Slots, key_id: int, slot: int, holder: str) -> None:
        self.hub, self.slots = hub, slots
        self.key_id, self.slot, self.holder = key_id, slot, holder
        self.scope = trio.CancelScope()
        self.gone = trio.Event()  # the response body was closed: the client went away
        self.stop = trio.Event()  # the client went away or the slot's lease was lost
        self.out_send, self.out_receive = trio.open_memory_channel[bytes](0)
        self.sub: Subscriber | None = None
        self.end_reason = "time"

    def dropped(self) -> None:
        self.end_reason = "behind"
        self.scope.cancel()

    async def body(self) -> AsyncIterator[bytes]:
        try:
            async with self.out_receive:
                async for chunk in self.out_receive:
                    yield chunk
        finally:
            self.gone.set()
            self.stop.set()

    async def run(self, first: list[bytes], *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        metrics.STREAMS.inc()
        try:
            with self.scope:
                with trio.move_on_after(STREAM_S):
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(self._sender, first, nursery.cancel_scope)
                        nursery.start_soon(self._heartbeat)
                        nursery.start_soon(self._keeper, nursery.cancel_scope)
                if not self.gone.is_set():
                    await self._goodbye()
            if self.end_reason == "behind" and not self.gone.is_set():
                await self._goodbye()
        except Exception:
            log.exception("live stream session failed")
        finally:
            metrics.STREAMS.dec()
            if self.sub is not None:
                self.hub.unsubscribe(self.sub)
            # The slot is free before the client sees the stream end, so it may reconnect at once.
            with trio.CancelScope(shield=True):
                try:
                    await self.slots.release(self.key_id, self.slot, self.holder)
                except Exception as exc:  # the lease expires by itself within LEASE_S
                    log.warning("could not release a stream slot (%r); it frees itself within %d s", exc, LEASE_S)
            self.out_send.close()

    def _end_message(self) -> bytes:
        return sse.message("end", orjson.dumps({"reason": self.end_reason, "reconnect_after_ms": sse.RETRY_MS}).decode())

    async def _goodbye(self) -> None:
        with trio.move_on_after(END_SEND_S):
            try:
                await self.out_send.send(self._end_message())
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                pass

    async def _sender(self, first: list[bytes], done: trio.CancelScope) -> None:
        try:
            for chunk in first:
                await self.out_send.send(chunk)
            assert self.sub is not None
            async for change in self.sub.receive:
                await self.out_send.send(change.wire)
        except trio.BrokenResourceError:  # the body was closed under us: the client left
            pass
        done.cancel()

    async def _heartbeat(self) -> None:
        while True:
            await trio.sleep(HEARTBEAT_S)
            beat = orjson.dumps({"at": self.hub.clock.now().isoformat().replace("+00:00", "Z")}).decode()
            try:
                await self.out_send.send(sse.message("heartbeat", beat))
            except trio.BrokenResourceError:
                return

    async def _keeper(self, done: trio.CancelScope) -> None:
        """The disconnect watcher: ends the session when the response body was closed (the
        client went away) or the hub reports the slot's lease lost."""
        lost = False

        def lease_lost() -> None:
            nonlocal lost
            lost = True
            self.stop.set()

        self.hub.leases[self.holder] = lease_lost
        try:
            await self.stop.wait()
        finally:
            self.hub.leases.pop(self.holder, None)
        if lost:
            self.end_reason = "slot_lost"
        done.cancel()


async def open_stream(hub: Hub, slots: Slots, key_id: int, discipline: str | None,
                      last_event_id: str | None) -> Response:
    """The streaming response, or ApiError too_many_streams (429) when both slots are held."""
    holder = new_holder()
    slot = await slots.claim(key_id, holder)
    if slot is None:
        wait = await slots.retry_after(key_id)
        raise ApiError("too_many_streams", "two live streams are already open on this key; close one or retry "
                       f"after {wait} s", headers={"Retry-After": str(wait)})
    session = Session(hub, slots, key_id, slot, holder)
    try:
        session.sub, upto = hub.subscribe(discipline, session.dropped)
        missed = await _missed(hub, discipline, _last_event_id(last_event_id), upto)
        first = missed if missed is not None else await hub.in_play(discipline, upto)
        assert hub.nursery is not None
        await hub.nursery.start(session.run, [sse.preamble(), *first])
    except BaseException:
        if session.sub is not None:
            hub.unsubscribe(session.sub)
        with trio.CancelScope(shield=True):
            await slots.release(key_id, slot, holder)
        raise
    response = Response(session.body(), status=200, content_type="text/event-stream; charset=utf-8",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.timeout = None  # Quart's RESPONSE_TIMEOUT (60 s) would cut the ~5-minute stream
    return response
