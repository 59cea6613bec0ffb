"""Per-key stream slots, counted in PostgreSQL so every worker and server shares them.

A slot is a lease row (key_id, slot, holder, expires_at). The worker holding a stream
renews it every RENEW_S; a stream that ends frees it; a lease whose worker died (or whose
client vanished without the worker noticing) simply expires and is taken over by the next
claim, so a slot is free again within LEASE_S.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
import socket
import time
import uuid

import asyncpg

from svc.core import metrics
from svc.core.clock import Clock
from svc.core.db import Database, DedicatedConnection
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Connection, Tx

MAX_STREAMS = 2  # interface.md, Limits: concurrent live streams, 2 per key (live-slot-take tries two)
LEASE_S = 12  # a dead holder's slot is free again after at most this long
RENEW_S = 4  # renewed three times per lease: one slow renewal never loses the slot;
# the hub renews all of its worker's leases in one statement
# this process (a random part: a later process may have the same pid while an old lease lasts)
_WORKER = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
_streams = itertools.count(1)


def new_holder() -> str:
    """A name for one stream's lease: which worker holds it, and which of its streams (counted:
    a uuid4 each, read from the system's random source, was 1.5 % of a worker opening streams)."""
    return f"{_WORKER}:{next(_streams)}"


class Slots:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock

    def expiry(self) -> dt.datetime:
        return self.clock.now() + dt.timedelta(seconds=LEASE_S)

    async def claim(self, key_id: int, holder: str) -> int | None:
        """A slot for this stream, or None when MAX_STREAMS unexpired leases are held.
        One statement, atomic per slot (svc/sql/queries/live/slots.sql, live-slot-take).

        The times are moved on by however long the claim waited for a pooled connection:
        when thousands of clients connect at once that wait can pass LEASE_S, and a lease
        written with the expiry of the moment it was asked for would be expired on arrival
        (another stream of the key could take it over before the hub's next renewal)."""
        now, expires = self.clock.now(), self.expiry()
        asked = time.monotonic()

        async def work(conn: Connection) -> int | None:  # database side, atomic per slot
            waited = dt.timedelta(seconds=time.monotonic() - asked)
            slot: int | None = await Tx(conn).fetchval(
                Q.live.slot_take, key_id=key_id, holder=holder, expires_at=expires + waited, now=now + waited
            )
            return slot

        slot = await self.db.run(work)
        if slot is not None:
            metrics.SLOTS.inc()
        return slot

    async def release(self, key_id: int, slot: int, holder: str) -> None:
        try:
            await self.db.fetchval(Q.live.slot_release, key_id=key_id, slot=slot, holder=holder)
        finally:
            metrics.SLOTS.dec()  # released, or expiring by itself: this process holds it no more

    async def retry_after(self, key_id: int) -> int:
        """Seconds until the first held lease runs out (a slot frees at the latest then)."""
        soonest = await self.db.fetchval(Q.live.slot_next_free, key_id=key_id, now=self.clock.now())
        if soonest is None:
            return 1
        return max(1, int((soonest - self.clock.now()).total_seconds() + 0.999))

    async def renew_many(
        self, holders: list[str], expires_at: dt.datetime, own: DedicatedConnection | None = None
    ) -> list[asyncpg.Record]:
        """Renew the leases of `holders` in one statement; the rows (holder) of those no longer held.
        On `own` (the hub's own connection) when given, else through the pool."""
        via = self.db if own is None else own
        return await via.fetch(Q.live.slot_renew_many, holders=holders, expires_at=expires_at)
