"""Writing a change of a match: the change log row (for the stream), the outbox row (for
webhooks) and the NOTIFY, all inside the caller's transaction.

These run on the asyncpg side (inside `Database.transaction(work)`), so they take an
asyncpg connection and are asyncio coroutines.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from typing import Any

import asyncpg

from svc.web.convert import converter
from svc.web.records import event_from_row
from svc.core import sqlrun
from svc.core.sqlfiles import Q

from svc.web.live_records import live_payload

CHANNEL = "live_changes"  # the NOTIFY channel every worker's hub listens on
# Which outbox event a change of each kind is (sql/schema/005_match_events.sql); a score
# change is only for the stream.
OUTBOX_TYPE = {"started": "match.started", "finished": "match.finished", "corrected": "result.corrected"}


def outbox_id(kind: str, match_id: str, seq: int) -> str:
    """evt_ id, stable for the change it reports (the same event is never written twice)."""
    return "evt_" + hashlib.sha256(f"{kind}|{match_id}|{seq}".encode()).hexdigest()[:20]


async def publish(conn: asyncpg.Connection, match_id: str, kind: str, at: dt.datetime) -> int:
    """Record the match's current state as a change of `kind`; returns the change's seq."""
    rows = await sqlrun.fetch(conn, Q.live_match, match_id=match_id)
    if not rows:
        raise LookupError(f"no match {match_id}")
    row = rows[0]
    seq = (await sqlrun.fetch(conn, Q.live_change_insert, match_id=match_id, discipline=row["discipline"], kind=kind,
                     created_at=at, payload=live_payload(row)))[0]["seq"]
    if kind in OUTBOX_TYPE:
        event = converter.unstructure(event_from_row(row, with_odds=True))
        await sqlrun.fetch(conn, Q.live_outbox_insert, id=outbox_id(kind, match_id, seq), type=OUTBOX_TYPE[kind],
                  match_id=match_id, created_at=at, payload=event)
    await sqlrun.fetch(conn, Q.live_change_notify, seq=seq)
    return seq
