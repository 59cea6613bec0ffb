"""The change log of matches: `live_changes` (what the live stream sends), the outbox
`match_events` (what webhooks deliver), and the NOTIFY that announces a change.

Only this module writes or reads those tables. The writer (`record`) is database-side code
(it takes the caller's `Tx`, inside `Database.transaction(work)`), so that a change, its
outbox event and its NOTIFY commit together with the score they report. The readers are for
the live hub (svc_live, from Trio: a `Database` or its own `DedicatedConnection`) and the
webhook fan-out (svc_hooks, on the database side, inside its transaction).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import asyncpg

from svc.core.db import Database, DedicatedConnection
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx

CHANNEL = "live_changes"  # the NOTIFY channel every worker's hub listens on
# Which outbox event a change of each kind is; a score change is only for the stream.
OUTBOX_TYPE = {"started": "match.started", "finished": "match.finished", "corrected": "result.corrected"}
EVENT_TYPES = tuple(OUTBOX_TYPE.values())  # interface: the webhook event types
KINDS = ("started", "score", "finished", "corrected")


def outbox_id(kind: str, match_id: str, seq: int) -> str:
    """evt_ id, stable for the change it reports (the same event is never written twice)."""
    return "evt_" + hashlib.sha256(f"{kind}|{match_id}|{seq}".encode()).hexdigest()[:20]


# -- writing (database side, in the caller's transaction) -------------------------------
async def record(
    tx: Tx,
    *,
    match_id: str,
    discipline: str,
    kind: str,
    at: dt.datetime,
    change: dict[str, Any],
    event: dict[str, Any] | None,
) -> int:
    """One change of a match: `change` (the match as the stream shows it) into the log, and
    for a kind with an outbox type `event` (the match as webhooks send it) into the outbox;
    then the NOTIFY. Returns the change's seq."""
    if kind not in KINDS:
        raise ValueError(f"unknown change kind {kind!r}")
    seq: int = await tx.fetchval(
        Q.changelog.change_insert, match_id=match_id, discipline=discipline, kind=kind, created_at=at, payload=change
    )
    if kind in OUTBOX_TYPE:
        if event is None:
            raise ValueError(f"a {kind} change needs its outbox event")
        await tx.fetch(
            Q.changelog.event_insert,
            id=outbox_id(kind, match_id, seq),
            type=OUTBOX_TYPE[kind],
            match_id=match_id,
            created_at=at,
            payload=event,
        )
    await tx.fetch(Q.changelog.change_notify, seq=seq)
    return seq


# -- reading: the live stream (Trio side) ------------------------------------------------
async def newest_seq(db: Database) -> int:
    """The newest change's seq, 0 when there is none."""
    newest: int = await db.fetchval(Q.changelog.changes_newest)
    return newest


async def changes_after(
    db: Database, after: int, limit: int, own: DedicatedConnection | None = None
) -> list[asyncpg.Record]:
    """Changes after seq `after` in order, at most `limit` (seq, match_id, discipline, kind,
    created_at, data: the payload as JSON text); on `own` (the reader's dedicated connection)
    when given, else through the pool."""
    via = db if own is None else own
    return await via.fetch(Q.changelog.changes_after, after=after, limit=limit)


async def oldest_after(db: Database, after: int) -> dt.datetime | None:
    """When the first change after `after` was made; None when there is none."""
    made: dt.datetime | None = await db.fetchval(Q.changelog.changes_oldest_after, after=after)
    return made


async def replay(db: Database, *, after: int, upto: int, discipline: str | None, limit: int) -> list[asyncpg.Record]:
    """Changes after `after` up to `upto` of one discipline (or all), in order, at most `limit`."""
    return await db.fetch(Q.changelog.changes_replay, after=after, upto=upto, discipline=discipline, limit=limit)


# -- reading: the webhook fan-out (database side, in its transaction) --------------------
async def event_seqs_after(tx: Tx, after: int, limit: int) -> list[int]:
    """The seqs of up to `limit` outbox events after `after`, in order."""
    return [r["seq"] for r in await tx.fetch(Q.changelog.events_after, after=after, limit=limit)]


async def newest_event_seq(tx: Tx) -> int:
    """The highest seq in the outbox, 0 when it is empty."""
    newest: int = await tx.fetchval(Q.changelog.events_newest)
    return newest
