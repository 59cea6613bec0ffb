"""Helpers of the webhook delivery tests (test_delivery, test_pause_resume): events written as
the live feed writes them, the services run in one nursery, the scheduler stepped on the mock
clock, and a delivery's rows read back."""

from __future__ import annotations

import secrets
from contextlib import asynccontextmanager

import trio

from svc.core.clock import Clock
from svc.web.convert import converter
from svc.web.records import event_from_row
from svc_hooks import store
from svc_hooks.addresses import Policy
from svc_hooks.scheduler import Scheduler
from tests.support import sql

LOCAL = Policy(allow_local=True)
EXPECTED_GAPS = [300, 1800, 7200, 21600, 43200, 86400, 86400]  # interface: 5 min, 30 min, 2 h, 6 h, 12 h, 1 day, 1 day
FAR = 30 * 86400.0  # the scheduler's poll interval in these tests: it sleeps straight to the next due try


def insert_event(db_url: str, type_: str, clock: Clock, offset: int = 0) -> str:
    """A match_events row as the live feed writes it: a real match shaped by event_from_row."""
    row = sql(db_url, "SELECT * FROM event_rows WHERE status = 'finished' ORDER BY match_id OFFSET $1 LIMIT 1", offset)[
        0
    ]
    payload = converter.unstructure(event_from_row(row, with_odds=True))
    event_id = "evt_" + secrets.token_hex(8)
    sql(
        db_url,
        "INSERT INTO match_events (id, type, match_id, created_at, payload) VALUES ($1, $2, $3, $4, $5)",
        event_id,
        type_,
        row["match_id"],
        clock.now(),
        payload,
    )
    return event_id


@asynccontextmanager
async def running(*services):
    """Start each service (receiver, sink, scheduler) in one nursery; cancel them all after."""
    async with trio.open_nursery() as nursery:
        for service in services:
            await nursery.start(service.run if isinstance(service, Scheduler) else service.serve)
        yield nursery
        nursery.cancel_scope.cancel()


async def step(scheduler: Scheduler, mock_clock) -> None:
    """Let the scheduler finish what it is doing, then move the clock to its next wake-up."""
    await scheduler.observer.settled()
    mock_clock.jump(scheduler.observer.asleep_until - trio.current_time())
    await scheduler.observer.settled()


def attempts(db_url: str, event_id: str):
    return sql(
        db_url,
        "SELECT a.* FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id "
        "WHERE d.event_id = $1 ORDER BY a.try, a.id",
        event_id,
    )


def delivery(db_url: str, event_id: str):
    return sql(db_url, "SELECT * FROM webhook_deliveries WHERE event_id = $1", event_id)[0]


async def add(db, account, url, clock, events=("match.started", "match.finished", "result.corrected"), email=None):
    return await store.add_endpoint(
        db, account=account, url=url, events=list(events), now=clock.now(), policy=LOCAL, email=email
    )
