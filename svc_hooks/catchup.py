"""`hooks resume`: a paused endpoint made active again, with the events it missed.

The fan-out makes deliveries for active endpoints only, so an event written while an
endpoint is paused gets none there. Resume makes them from the outbox instead, in the same
transaction that re-activates the endpoint, for the events after the fan-out cursor recorded
at the pause (every event up to it was fanned out while the endpoint was active) and written
within CATCH_UP_WINDOW; older ones are counted and named, not sent.

Why at resume rather than held deliveries made during the pause: the outbox already keeps
every event (this service never prunes match_events), so a pause stores nothing more, an
endpoint paused for good grows nothing, and a removed endpoint has nothing to forget. It is
exact because resume first takes the fan-out cursor's row lock: a fan-out round that read the
endpoint as paused has committed before resume reads the outbox, and every round after
resume commits sees it active. The unique (event, endpoint) makes a delivery at most once
whichever of the two gets to an event first; one transaction means a crash leaves the
endpoint either paused with nothing made or active with all of it.

Order: the endpoint's pending deliveries are made due now with the new ones, and the claim
takes due deliveries in outbox order (webhook_deliveries.event_seq), so the backlog goes out
oldest event first.
"""

from __future__ import annotations

import datetime as dt

import attrs

from svc.core.db import Database
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx
from svc_hooks.store import HookError, check_endpoint_id

# Events of the last 7 days are delivered after a resume. The pause notice is e-mailed at once,
# and a week covers an owner away over a weekend and the working week after it; an older event
# reports a match long since settled (GET /v1/events/{id} has its present state), and a receiver
# just repaired should not be flooded with weeks of stale events. The outbox itself keeps more.
CATCH_UP_WINDOW = dt.timedelta(days=7)
NAMED_MAX = 20  # events too old to send named one by one on the command line; the rest counted


@attrs.frozen
class Resumed:
    """What `hooks resume` did to one endpoint."""

    endpoint_id: str
    was_paused: bool
    pending: int  # deliveries begun before the pause, due again now
    caught_up: int  # deliveries made now for events written during the pause
    oldest: dt.datetime | None  # when the oldest of those events was written
    too_old: int  # events of the pause written before the window: not delivered
    too_old_named: list[tuple[str, dt.datetime]]  # the first NAMED_MAX of them (id, written), oldest first
    window: dt.timedelta = CATCH_UP_WINDOW


async def resume(db: Database, endpoint_id: str, now: dt.datetime) -> Resumed:
    """Make the endpoint active; its pending deliveries and the events of its pause (within
    the window) are due at `now`, in outbox order. HookError when there is no such endpoint."""
    return await db.transaction(_resume, check_endpoint_id(endpoint_id), now)


async def _resume(tx: Tx, endpoint_id: str, now: dt.datetime) -> Resumed:
    """resume's work, on the database side in one transaction (see the module)."""
    since = now - CATCH_UP_WINDOW
    await tx.fetchval(Q.hooks.fanout_wait)
    before = await tx.fetchrow(Q.hooks.endpoint_resume, id=endpoint_id)
    if before is None:
        raise HookError(f"no endpoint {endpoint_id}")
    if before["was"] != "paused":  # already active: its deliveries keep their schedule
        pending = await tx.fetchval(Q.hooks.pending_count, id=endpoint_id)
        return Resumed(endpoint_id, False, pending, 0, None, 0, [])
    pending = await tx.fetchval(Q.hooks.pending_due_now, id=endpoint_id, now=now)
    after = before["paused_after_seq"]
    made = await tx.fetchrow(Q.hooks.catch_up_insert, id=endpoint_id, after=after, since=since, now=now)
    old = await tx.fetch(Q.hooks.catch_up_too_old, id=endpoint_id, after=after, since=since, named=NAMED_MAX)
    return Resumed(
        endpoint_id,
        True,
        pending,
        made["made"],
        made["oldest"],
        old[0]["total"] if old else 0,
        [(r["id"], r["created_at"]) for r in old],
    )
