"""Deliveries for new outbox events: one per (event, active subscribed endpoint). A paused
endpoint gets none here; svc_hooks.catchup makes them from the outbox when it is resumed.

A cursor on match_events.seq remembers how far the fan-out got. seq values are taken at
INSERT but become visible at COMMIT, so a lower seq can appear after a higher one: the cursor
advances only over an unbroken run of seqs and waits at a gap (the events after it are fanned
out anyway; repeats are skipped by the unique (event, endpoint)). A gap that stays longer
than GAP_WAIT is a rolled-back insert and is passed over.

Three pieces, one per side: the cursor's rule (`advance`, pure), the round's work
(`make_deliveries`, database side: it decides with that rule under the cursor's row lock,
which keeps two workers from fanning out at once and lets a resume wait for a round), and the
scheduler's call from Trio (`fan_out`).
"""

from __future__ import annotations

import datetime as dt

from svc.changelog import changes
from svc.core.db import Database
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx

BATCH = 500  # events per round; a backlog drains over successive rounds
GAP_WAIT = dt.timedelta(seconds=30)  # far longer than any outbox transaction stays open


def advance(
    last_seq: int, seqs: list[int], gap_since: dt.datetime | None, now: dt.datetime
) -> tuple[int, dt.datetime | None]:
    """The new cursor and gap start, given the seqs after the cursor in order."""
    cursor = last_seq
    for seq in seqs:
        if seq == cursor + 1:
            cursor = seq
            gap_since = None
            continue
        if gap_since is None:
            return cursor, now  # a gap just seen: wait for it
        if now - gap_since < GAP_WAIT:
            return cursor, gap_since
        cursor, gap_since = seq, None  # waited long enough: the missing seqs will not come
    return cursor, gap_since


async def make_deliveries(tx: Tx, now: dt.datetime) -> int:
    """One round of the fan-out, in the caller's transaction: the deliveries for the events after
    the cursor, and the cursor moved on; how many deliveries were made."""
    cursor = await tx.fetchrow(Q.hooks.fanout_lock)
    if cursor is None:  # another worker is fanning out right now
        return 0
    seqs = await changes.event_seqs_after(tx, cursor["last_seq"], BATCH)
    if not seqs:
        # The outbox was emptied and its seq restarted below the cursor: start again from there.
        newest = await changes.newest_event_seq(tx)
        if newest < cursor["last_seq"]:
            await tx.execute(Q.hooks.fanout_advance, last_seq=newest, gap_since=None)
        return 0
    made = await tx.fetchval(Q.hooks.fanout_insert, after=cursor["last_seq"], upto=seqs[-1], now=now)
    last_seq, gap_since = advance(cursor["last_seq"], seqs, cursor["gap_since"], now)
    if (last_seq, gap_since) != (cursor["last_seq"], cursor["gap_since"]):
        await tx.execute(Q.hooks.fanout_advance, last_seq=last_seq, gap_since=gap_since)
    return made


async def fan_out(db: Database, now: dt.datetime) -> int:
    """Make the deliveries for events written since the last round; how many were made."""
    return await db.transaction(make_deliveries, now)
