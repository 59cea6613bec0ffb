"""A change of a match as the feed reports it: the match's current row, shaped as the live
stream shows it and as webhooks send it, written to the change log (svc.changelog) inside
the caller's transaction (database side: it takes the caller's Tx)."""

from __future__ import annotations

import datetime as dt

from svc.changelog import changes
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx
from svc.web.convert import converter
from svc.web.live_records import live_payload
from svc.web.records import event_from_row


async def publish(tx: Tx, match_id: str, kind: str, at: dt.datetime) -> int:
    """Record the match's current state as a change of `kind`; returns the change's seq."""
    row = await tx.fetchrow(Q.live.match, match_id=match_id)
    if row is None:
        raise LookupError(f"no match {match_id}")
    event = converter.unstructure(event_from_row(row, with_odds=True)) if kind in changes.OUTBOX_TYPE else None
    return await changes.record(
        tx, match_id=match_id, discipline=row["discipline"], kind=kind, at=at, change=live_payload(row), event=event
    )
