"""Who may call, answered from the worker's memory when it can: a counted call costs no statement
while the worker holds a block of the key's calls.

What each worker keeps:
- the key cache: key hash -> key id, state, account, plan. Filled by every claim; emptied when
  PostgreSQL announces a key replaced or removed, an account's plan or a plan's limits changed
  (NOTIFY 'keys' on svc_access, from triggers: svc/sql/schema/660_call_blocks.sql). An entry older
  than FRESH_S is not used (a notification lost on a connection that looks alive), nor any while
  the worker's LISTEN connection is down.
- the data version (keys the answer cache): from every claim and from NOTIFY 'version:<v>' (an
  import moves it), with the same FRESH_S bound.
- blocks: a claim (one statement, claim_calls) counts up to BLOCK_MAX calls of the key's minute,
  day and month at once, at most 1/SHARE of what the tighter window has left -- so a block
  shrinks as a window nears its limit, down to one call (each call one statement, as without
  blocks). The calls of the block are answered from memory. A block is given back (its unused
  calls uncounted) once idle IDLE_S, when BLOCK_AGE_S old, when a key or plan changes, when
  another worker asks (below), and at shutdown. Its row in call_blocks holds a lease of LEASE_S:
  a worker that dies keeps its block until the lease ends and any worker's sweep (every SWEEP_S)
  gives it back -- within LEASE_S + SWEEP_S of the claim. What the sweep gives back is what the
  block held unused when its worker last noted it (every TEND_S while it is used, one statement
  for all its blocks): the calls it served stay counted, but for those of its last TEND_S.
- exactness: a worker that finds a window at 0 while other workers' blocks hold unused calls asks
  them to give back (NOTIFY recall), waits for what they return (at most RECALL_WAIT_S) and claims
  again before it refuses, so N+1 calls at once from anywhere get N answers.

A call served from a block reports the counters as the claim left them less what the block still
holds unused: X-RateLimit-Remaining = the window's remaining as the database counted it at the
claim (the whole block counted) + the calls of the block not yet used -- for one worker exactly
the calls left, and never rising for a client of one worker but when calls are given back.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import secrets
import socket
from typing import Any

import asyncpg
import attrs
import trio

from svc.access import claims, keys
from svc.access.caller import (
    UNKNOWN_FORM,
    UNKNOWN_KEY,
    Caller,
    Windows,
    authorize,
    caller_of,
    check,
    limit_error,
)
from svc.access.plans import PLANS
from svc.core.batches import Batches
from svc.core.clock import Clock
from svc.core.db import Database, DatabaseUnavailable
from svc.core.errors import ApiError
from svc.core.sqlfiles import Q

log = logging.getLogger("svc.access")

CHANNEL = "svc_access"
BLOCK_MAX = 64  # calls claimed at once at most: 1/64 statement per call on a busy key
SHARE = 8  # a block holds at most an eighth of what the tighter window has left (Free's 10 a minute: 1)
IDLE_S = 2.0  # a block unused this long is given back, so that another worker can have its calls
BLOCK_AGE_S = 20.0  # a block is used this long at most (well inside its lease), then given back: a
# busy key costs a claim per BLOCK_MAX calls, a quiet one a claim per 20 s at least
LEASE_S = 30.0  # past this, any worker's sweep gives the block back (its worker died)
SWEEP_S = 5.0
TEND_S = 1.0  # how often a worker looks for blocks to give back
FRESH_S = 30.0  # a key's entry and the data version are trusted this long without a notification
RECALL_WAIT_S = 1.0  # a worker that found 0 left waits this long at most for other workers' calls
RELISTEN_S = 2.0  # the LISTEN connection is tried again this often while the database is away


@attrs.frozen
class KeyEntry:
    key_id: int
    state: str
    prefix: str
    account: str
    plan: str
    read_at: float


@attrs.define(eq=False)
class Block:
    id: int
    key_id: int
    windows: Windows  # those the calls were counted in
    unused: int
    minute_calls: int  # the key's counters as the claim left them: the whole block counted
    day_calls: int
    month_calls: int
    claimed_at: float
    used_at: float
    noted: int  # `unused` as its row in call_blocks says it (at first: as claimed)

    @classmethod
    def claimed(cls, row: asyncpg.Record, windows: Windows, now: float) -> Block:
        """The block a claim's row granted; the claiming call used its first call."""
        return cls(
            id=row["block"],
            key_id=row["id"],
            windows=windows,
            unused=row["granted"] - 1,
            noted=row["granted"] - 1,
            minute_calls=row["minute_calls"],
            day_calls=row["day_calls"],
            month_calls=row["month_calls"],
            claimed_at=now,
            used_at=now,
        )

    def serves(self, w: Windows) -> bool:
        return self.windows.minute == w.minute and self.windows.day == w.day


class Allowances:
    """One worker's key cache, data version and blocks (see the module's docstring)."""

    def __init__(self, db: Database, clock: Clock, holder: str | None = None) -> None:
        self.db, self.clock = db, clock
        self.holder = holder or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.keys: dict[bytes, KeyEntry] = {}
        self.blocks: dict[int, Block] = {}  # by key id
        self.version = "0"
        self.version_at = -math.inf
        self.listening = False
        self._keys_moved = 0  # notifications of key changes so far: a claim that saw one keeps nothing
        self._version_moved = 0
        self._claiming: dict[bytes, trio.Lock] = {}  # one claim at a time per key
        self._to_give_back: list[Block] = []
        self._recalled: set[int] = set()
        self._wake = trio.Event()
        self._returns = 0
        self._returned = trio.Event()
        # claims made at once share a statement (one per batch): 5,000 keys each opening a stream
        # were 5,000 round trips
        run = functools.partial(claims.claim_many, db, want=BLOCK_MAX, share=SHARE, holder=self.holder, lease_s=LEASE_S)
        self._claims: Batches[claims.Asked, asyncpg.Record | None] = Batches(run, self._unclaimed, most=claims.MOST)

    # -- a call -----------------------------------------------------------------------
    async def authorize(self, key: str, *, need: str, count: bool) -> Caller:
        """Identify the key, check its plan, and (when `count`) count the call: from a block when
        the worker holds one, else with a claim."""
        if not count:
            return self._less_unused(await authorize(self.db, self.clock, key, need=need, count=False))
        if not keys.well_formed(key):
            raise ApiError("unauthorized", UNKNOWN_FORM)
        windows = Windows.at(self.clock.now())
        digest = keys.key_hash(key)
        served = self._from_block(digest, need, windows)
        if served is not None:
            return served
        lock = self._claiming.setdefault(digest, trio.Lock())
        try:
            async with lock:
                served = self._from_block(digest, need, windows)  # a claim made meanwhile may serve it
                return served if served is not None else await self._claim(digest, need, windows)
        finally:
            if not lock.locked() and lock.statistics().tasks_waiting == 0 and self._claiming.get(digest) is lock:
                del self._claiming[digest]  # no one else claims the key (kept, there would be one per key ever seen)

    def take_back(self, caller: Caller) -> Caller | None:
        """A counted call refused after all, returned to the worker's block of its key: the caller
        as after, or None when there is no such block (the database takes it back)."""
        block = self.blocks.get(caller.key_id)
        if block is None or not block.serves(caller.windows):
            return None
        block.unused += 1
        return attrs.evolve(
            caller,
            minute_calls=caller.minute_calls - 1,
            day_calls=caller.day_calls - 1,
            month_calls=caller.month_calls - 1,
        )

    def _ready(self, digest: bytes, need: str, windows: Windows) -> tuple[KeyEntry, Block] | None:
        """The key's entry and block when a call can be served from them."""
        now = self.clock.timestamp()
        entry = self.keys.get(digest)
        if entry is None or not self.listening or now - entry.read_at > FRESH_S:
            return None
        if now - self.version_at > FRESH_S or entry.state != "current" or PLANS[entry.plan].rank < PLANS[need].rank:
            return None  # the claim reads afresh and refuses as it must
        block = self.blocks.get(entry.key_id)
        if block is None or block.unused <= 0 or not block.serves(windows) or now - block.claimed_at > BLOCK_AGE_S:
            return None
        return entry, block

    def _from_block(self, digest: bytes, need: str, windows: Windows) -> Caller | None:
        ready = self._ready(digest, need, windows)
        return None if ready is None else self._take(*ready, windows)

    def _take(self, entry: KeyEntry, block: Block, windows: Windows) -> Caller:
        block.unused -= 1
        block.used_at = self.clock.timestamp()
        return Caller(
            key_id=entry.key_id,
            prefix=entry.prefix,
            account=entry.account,
            plan=PLANS[entry.plan],
            minute_calls=block.minute_calls - block.unused,
            day_calls=block.day_calls - block.unused,
            month_calls=block.month_calls - block.unused,
            windows=windows,
            data_version=self.version,
        )

    async def _claim(self, digest: bytes, need: str, windows: Windows) -> Caller:
        deadline = trio.current_time() + RECALL_WAIT_S
        while True:
            returns_before = self._returns
            row = await self._claim_once(digest, need, windows)
            if row is None or not keys.same_hash(row["key_hash"], digest):
                raise ApiError("unauthorized", UNKNOWN_KEY)
            block = self.blocks.get(row["id"]) if row["granted"] else None
            unused = block.unused if block is not None and block.id == row["block"] else 0
            caller = attrs.evolve(
                caller_of(row, windows),
                minute_calls=row["minute_calls"] - unused,
                day_calls=row["day_calls"] - unused,
                month_calls=row["month_calls"] - unused,
            )
            if row["granted"]:
                return caller
            check(caller, row["state"], need)
            if not row["held"] or trio.current_time() >= deadline:
                raise limit_error(caller)
            # Other workers hold calls of this key: they were asked to give them back (the claim
            # sent the recall); claim again once some come back.
            if self._returns == returns_before:
                with trio.move_on_at(deadline):
                    await self._returned.wait()

    async def _claim_once(self, digest: bytes, need: str, windows: Windows) -> asyncpg.Record | None:
        entry = self.keys.get(digest)
        old = self.blocks.pop(entry.key_id, None) if entry is not None else None
        keys_moved, version_moved = self._keys_moved, self._version_moved
        try:
            row = await self._claims.submit(
                claims.Asked(
                    digest,
                    PLANS[need].rank,
                    windows,
                    old.id if old is not None else None,
                    old.unused if old is not None else 0,
                )
            )
        except BaseException:
            if old is not None:  # given back or not: giving back again is a no-op (its row is gone)
                self._give_back_later(old)
            raise
        if row is None:
            return None
        now = self.clock.timestamp()
        if version_moved == self._version_moved:
            self.version, self.version_at = row["data_version"] or "0", now
        block = Block.claimed(row, windows, now) if row["granted"] else None
        if keys_moved == self._keys_moved:
            self.keys[digest] = KeyEntry(row["id"], row["state"], row["prefix"], row["account"], row["plan"], now)
            if block is not None:
                self.blocks[row["id"]] = block
        elif block is not None:  # a key or a plan changed while claiming: its calls are not kept
            self._give_back_later(block)
        return row

    async def _unclaimed(self, asked: claims.Asked, row: asyncpg.Record | None) -> None:
        """A claim whose request gave up while its batch was in flight: a block it got is given
        back whole (its first call was never answered) rather than held until its lease ends."""
        if row is not None and row["granted"]:
            self._give_back_later(
                attrs.evolve(Block.claimed(row, asked.windows, self.clock.timestamp()), unused=row["granted"])
            )

    def _less_unused(self, caller: Caller) -> Caller:
        """A caller read from the database, counting this worker's unused calls as not made."""
        block = self.blocks.get(caller.key_id)
        if block is None or not block.serves(caller.windows):
            return caller
        n = block.unused
        return attrs.evolve(
            caller,
            minute_calls=caller.minute_calls - n,
            day_calls=caller.day_calls - n,
            month_calls=caller.month_calls - n,
        )

    # -- beside the requests ---------------------------------------------------------------
    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """For the app's lifetime: listens for changes and recalls, gives back and sweeps blocks."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._listen)
            nursery.start_soon(self._claims.serve)
            task_status.started()
            await self._tend()

    async def give_back_all(self) -> None:
        """At shutdown: every block held given back (best effort: a lease covers a failure)."""
        self._forget_blocks()
        with trio.CancelScope(shield=True):
            with trio.move_on_after(5):
                await self._give_back()

    async def _listen(self) -> None:
        while True:
            lost = trio.Event()
            try:
                async with self.db.dedicated() as own:
                    await own.listen(CHANNEL, self._on_notice, lost.set)
                    self._distrust()  # what changed while nobody listened was not heard
                    self.listening = True
                    await lost.wait()
            except DatabaseUnavailable:
                pass
            except Exception:
                log.exception("listening for key changes failed")
            finally:
                self.listening = False
            await trio.sleep(RELISTEN_S)

    def _on_notice(self, payload: str) -> None:
        kind, _, arg = payload.partition(":")
        if kind == "keys":
            self._forget()
        elif kind == "version":
            self._version_moved += 1
            self.version, self.version_at = (arg, self.clock.timestamp()) if arg else (self.version, -math.inf)
        elif kind == "recall" and arg.isdigit():
            self._recalled.add(int(arg))
            self._wake.set()
        elif kind == "returned":
            self._returns += 1
            self._returned.set()
            self._returned = trio.Event()

    def _distrust(self) -> None:
        """Every entry and the data version read afresh by the next claim of each key, which gives
        back the key's block in the same statement (the entry still names the key's block)."""
        self.keys = {digest: attrs.evolve(entry, read_at=-math.inf) for digest, entry in self.keys.items()}
        self.version_at = -math.inf

    def _forget(self) -> None:
        self._keys_moved += 1
        self.keys.clear()
        self._forget_blocks()

    def _forget_blocks(self) -> None:
        self._to_give_back.extend(self.blocks.values())
        self.blocks.clear()
        self._wake.set()

    def _give_back_later(self, block: Block) -> None:
        self._to_give_back.append(block)
        self._wake.set()

    async def _tend(self) -> None:
        swept_at = -math.inf
        while True:
            with trio.move_on_after(TEND_S):
                await self._wake.wait()
            self._wake = trio.Event()
            now = self.clock.timestamp()
            for key_id, block in list(self.blocks.items()):
                if key_id in self._recalled or now - block.used_at > IDLE_S or now - block.claimed_at > BLOCK_AGE_S:
                    # given back below (not _give_back_later: waking this loop again at once made
                    # it spin while blocks went idle one after another, thousands during a burst)
                    self._to_give_back.append(self.blocks.pop(key_id))
            self._recalled.clear()
            await self._give_back()
            await self._note_unused()
            if now - swept_at >= SWEEP_S:
                swept_at = now
                await self._try(Q.access.sweep_call_blocks)

    async def _give_back(self) -> None:
        # in key order, as claims lock keys (claim-calls-many): the two never deadlock
        blocks, self._to_give_back = sorted(self._to_give_back, key=lambda b: b.key_id), []
        if blocks and not await self._try(
            Q.access.give_back_calls, blocks=[b.id for b in blocks], unused=[b.unused for b in blocks]
        ):
            self._to_give_back.extend(blocks)  # once the database answers again (the lease bounds it)

    async def _note_unused(self) -> None:
        """Tells the database what each block used since the last time (one statement a TEND_S at
        most, none while idle), so that the sweep gives back no more than a dead worker left
        unused: at most the calls of its last TEND_S too many, where the claim's count would be
        up to BLOCK_MAX - 1 too many."""
        moved = [b for b in self.blocks.values() if b.unused != b.noted]
        if moved and await self._try(
            Q.access.note_unused_calls, blocks=[b.id for b in moved], unused=[b.unused for b in moved]
        ):
            for b in moved:
                b.noted = b.unused

    async def _try(self, stmt: Any, **params: Any) -> bool:
        try:
            await self.db.fetchval(stmt, **params)
        except DatabaseUnavailable:
            return False
        except Exception:
            log.exception("%s failed", stmt.name)
        return True
