"""A try written, on the database side: the work of one `Database.transaction` (it takes the
transaction's Tx and awaits asyncpg only) that records what the scheduler decided in Trio
(svc_hooks.schedule.Settled), fenced by the claim the try was made under."""

from __future__ import annotations

import asyncpg

from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx
from svc_hooks.schedule import PAUSE_AFTER_FAILURES, Settled


async def record_try(tx: Tx, s: Settled) -> asyncpg.Record | None:
    """The try, the delivery's next state (if the claim still holds) and the endpoint's count of
    failures in a row; returns the endpoint after it (was, state, failures_in_row, account, url,
    notify_email): paused now when it was active and this was one failure too many."""
    await tx.fetchval(
        Q.hooks.delivery_settle,
        id=s.delivery_id,
        claim=s.claim,
        state="pending" if s.outcome == "retry" else s.outcome,
        try_no=s.try_no,
        next_try_at=s.next_try_at,
        now=s.at,
    )
    await tx.execute(
        Q.hooks.attempt_insert,
        delivery_id=s.delivery_id,
        try_no=s.try_no,
        at=s.at,
        status_code=s.result.status,
        error=s.result.error,
        latency_ms=s.result.latency_ms,
        outcome=s.outcome,
    )
    return await tx.fetchrow(
        Q.hooks.endpoint_after_try,
        id=s.endpoint_id,
        ok=s.outcome == "succeeded",
        pause_after=PAUSE_AFTER_FAILURES,
        now=s.at,
        status_code=s.result.status,
    )
