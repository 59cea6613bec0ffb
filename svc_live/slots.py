"""Per-key stream slots, counted in PostgreSQL so every worker and server shares them.

A slot is a lease row (key_id, slot, holder, expires_at). The worker holding a stream
renews it every RENEW_S; a stream that ends frees it; a lease whose worker died (or whose
client vanished without the worker noticing) simply expires and is taken over by the next
claim, so a slot is free again within LEASE_S.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import itertools
import os
import socket
import time
import uuid

import asyncpg

from svc.core import metrics
from svc.core.batches import Batches
from svc.core.clock import Clock
from svc.core.db import Database, DatabaseUnavailable, DedicatedConnection
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Connection, Tx

MAX_STREAMS = 2  # interface.md, Limits: concurrent live streams, 2 per key (take_live_slots tries two)
LEASE_S = 12  # a dead holder's slot is free again after at most this long
LEASE = dt.timedelta(seconds=LEASE_S)
RENEW_S = 4  # renewed three times per lease: one slow renewal never loses the slot;
# the hub renews all of its worker's leases in one statement
BATCH_MAX = 256  # claims per statement: bounds how long one batch holds its rows locked (~10 ms)
# this process (a random part: a later process may have the same pid while an old lease lasts)
_WORKER = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
_streams = itertools.count(1)


def new_holder() -> str:
    """A name for one stream's lease: which worker holds it, and which of its streams (counted:
    a uuid4 each, read from the system's random source, was 1.5 % of a worker opening streams)."""
    return f"{_WORKER}:{next(_streams)}"


class _Claim:
    """One stream's claim; `now` is the service clock's when its batch is handed to the database
    (its lease runs LEASE_S from then)."""

    __slots__ = ("key_id", "holder", "now")

    def __init__(self, key_id: int, holder: str, now: dt.datetime) -> None:
        self.key_id, self.holder, self.now = key_id, holder, now


async def _take_many(claims: list[_Claim], handed: float, conn: Connection) -> list[int | None]:
    """The claims' slots in one statement (database side). Their times are the service clock's when
    the batch was handed over (`handed`, monotonic), moved on by the whole seconds it then waited
    for a pooled connection: whole seconds, because a lease is renewed every RENEW_S anyway and
    the shift is for waits that near LEASE_S, and a fraction would round a stream's Retry-After
    up past LEASE_S."""
    waited = dt.timedelta(seconds=int(time.monotonic() - handed))
    slots: list[int | None] = await Tx(conn).fetchval(
        Q.live.slot_take_many,
        key_ids=[c.key_id for c in claims],
        holders=[c.holder for c in claims],
        expires_at=[c.now + waited + LEASE for c in claims],
        now=[c.now + waited for c in claims],
    )
    return slots


class Slots:
    def __init__(self, db: Database, clock: Clock) -> None:
        self.db = db
        self.clock = clock
        self._claims = Batches(self._take, self._unclaimed, most=BATCH_MAX)

    def expiry(self) -> dt.datetime:
        return self.clock.now() + LEASE

    async def claim(self, key_id: int, holder: str) -> int | None:
        """A slot for this stream, or None when MAX_STREAMS unexpired leases are held.

        While `serve_claims` runs (the hub's nursery), the claim joins the ones waiting for the
        next batch: every claim made while a batch is in flight goes in the next one, one
        statement for all (svc/sql/schema/670_live_slot_claims.sql; a lone claim waits for no
        one). Otherwise it is a batch of its own.

        The times are moved on by however long the claim waited (for its batch, for a pooled
        connection: _take_many): when thousands of clients connect at once that wait can pass LEASE_S, and a
        lease written with the expiry of the moment it was asked for would be expired on arrival
        (another stream of the key could take it over before the hub's next renewal)."""
        slot = await self._claims.submit(_Claim(key_id, holder, self.clock.now()))
        if slot is not None:
            metrics.SLOTS.inc()
        return slot

    async def _take(self, batch: list[_Claim]) -> list[int | None]:
        now = self.clock.now()  # a claim's wait for its batch moves its lease on (see claim)
        for claim in batch:
            claim.now = now
        return await self.db.run(functools.partial(_take_many, batch, time.monotonic()))

    async def _unclaimed(self, claim: _Claim, slot: int | None) -> None:
        """A claim that gave up while its batch was in flight: a slot it got is freed at once
        rather than when it expires."""
        if slot is not None:
            metrics.SLOTS.inc()
            with contextlib.suppress(DatabaseUnavailable, asyncpg.PostgresError):  # else it expires by itself
                await self.release(claim.key_id, slot, claim.holder)

    async def serve_claims(self) -> None:
        """Runs the claims, a batch at a time, for as long as it runs (in the hub's nursery)."""
        await self._claims.serve()

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
