"""The webhook scheduler: a long-running component in each worker process.

One loop per process: fan out new outbox events into deliveries, claim the due ones
(FOR UPDATE SKIP LOCKED in one short statement; no transaction is held during a POST),
start a send task for each (at most SEND_CONCURRENCY at a time), then sleep until the next
delivery is due, a slot frees, or POLL_S passes (new events written by other processes).
A send task posts, decides the delivery's next state (svc_hooks.schedule.settle, in Trio),
then records the try and that state in one transaction fenced by its claim token
(svc_hooks.record, on the database side). A claim left by a crashed worker expires after
LEASE_S (SVC_HOOKS_CLAIM_S) and any worker takes it over; the receiver may then see a repeat
with the same event id.

Every time comes from svc.core.clock.Clock (Trio's clock), so Trio's MockClock drives the whole
schedule in tests.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import secrets
import socket
from typing import Any, Protocol

import attrs
import orjson
import trio

from svc.core import metrics
from svc.core.clock import Clock
from svc.core.db import Database, DatabaseUnavailable
from svc.core.sqlfiles import Q
from svc.web.service import Service
from svc_hooks import schedule, signing
from svc_hooks.addresses import Policy
from svc_hooks.fanout import fan_out
from svc_hooks.http import ANSWER_WITHIN_S, Resolver, SendResult, post, resolve
from svc_hooks.notify import Mailer, notify_paused
from svc_hooks.record import record_try

log = logging.getLogger("svc_hooks.scheduler")

SEND_CONCURRENCY = 16  # sends in flight per worker; each is one socket and at most 10 s
LEASE_S = 60.0  # a claim outlives the 10 s answer window and recording with room to spare (SVC_HOOKS_CLAIM_S)
LEASE_MIN_S = ANSWER_WITHIN_S + 2.0  # the shortest lease asked for that still outlives a send and its record
POLL_S = 1.0  # how soon an event written by another process is noticed
DB_RETRY_S = 2.0  # after the database could not be reached
CLAIM_SLACK = dt.timedelta(milliseconds=1)  # a try due within a millisecond is due (float rounding)


@attrs.define
class Claimed:
    id: int
    event_id: str
    endpoint_id: str
    tries: int  # tries already made
    url: str
    secret: str
    previous_secret: str | None  # the secret a rotation replaced, while its overlap lasts
    previous_secret_until: dt.datetime | None
    type: str | None
    created_at: dt.datetime | None
    payload: Any
    claim: str  # the token this worker claimed it under


class Observer(Protocol):
    """Told every time the loop's state changes: sends in flight, the Trio time it sleeps
    until (None while it works) and whether a wake-up is pending. svc.testing.hooks uses it to
    wait until the scheduler has nothing left to do before moving the mock clock."""

    def changed(self, busy: int, asleep_until: float | None, woken: bool) -> None: ...


class Scheduler:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        *,
        policy: Policy | None = None,
        mailer: Mailer | None = None,
        resolver: Resolver = resolve,
        concurrency: int = SEND_CONCURRENCY,
        lease_s: float = LEASE_S,
        poll_s: float = POLL_S,
        answer_within_s: float = ANSWER_WITHIN_S,
        worker: str | None = None,
        observer: Observer | None = None,
    ) -> None:
        self.db, self.clock = db, clock
        self.policy = policy or Policy()
        self.mailer = mailer
        self.observer = observer
        self.resolver = resolver
        self.concurrency, self.lease_s, self.poll_s = concurrency, lease_s, poll_s
        self.answer_within_s = answer_within_s
        self.worker = worker or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.limiter = trio.CapacityLimiter(concurrency)  # one token per send in flight
        self._busy = 0  # send tasks running (with their notices)
        self._asleep_until: float | None = None  # Trio time the loop sleeps until, None while working
        self._wake = trio.Event()

    # -- the loop ---------------------------------------------------------------------
    async def run(self, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        if self.policy.allow_local:
            log.warning(
                "!!! SVC_HOOKS_ALLOW_LOCAL=1: webhooks may go to http:// and loopback addresses. "
                "For tests and development only; never in production. !!!"
            )
        async with trio.open_nursery() as nursery:
            task_status.started(self)
            while True:
                self._wake = trio.Event()
                try:
                    wait = await self._round(nursery)
                except DatabaseUnavailable as exc:
                    log.warning("webhooks: database unavailable (%s); trying again in %g s", exc, DB_RETRY_S)
                    wait = DB_RETRY_S
                except Exception:
                    # Never take the worker (the app's nursery) down with us: log, wait, go on.
                    log.exception("webhooks: scheduler round failed; trying again in %g s", DB_RETRY_S)
                    wait = DB_RETRY_S
                await self._sleep(wait)

    async def _round(self, nursery: trio.Nursery) -> float:
        now = self.clock.now()
        await fan_out(self.db, now)
        # Claim no more than can be sent at once: a claimed delivery waiting for a slot
        # would burn its lease.
        free = int(self.limiter.available_tokens)
        if free > 0:
            claim = self._claim_token()
            rows = await self.db.fetch(
                Q.hooks.claim,
                now=now + CLAIM_SLACK,
                limit=free,
                claim=claim,
                lease_until=now + dt.timedelta(seconds=self.lease_s),
            )
            for row in rows:
                item = Claimed(claim=claim, **dict(row))
                self.limiter.acquire_on_behalf_of_nowait((item.claim, item.id))
                self._busy += 1
                nursery.start_soon(self._deliver, item)
            if len(rows) == free:
                return self.poll_s  # a finishing send wakes the loop for the rest
        row = await self.db.fetchrow(Q.hooks.next_due)
        metrics.HOOK_QUEUE.set(row["pending"])
        due = row["due"]
        if due is None:
            return self.poll_s
        return min(self.poll_s, max(0.0, (due - self.clock.now()).total_seconds()))

    def _claim_token(self) -> str:
        # A fresh token per claim: a try settled after its lease was taken over does not
        # overwrite the new holder's record.
        return f"{self.worker}:{secrets.token_hex(4)}"

    async def _sleep(self, seconds: float) -> None:
        self._asleep_until = trio.current_time() + seconds
        self._notify()
        with trio.move_on_after(seconds):
            await self._wake.wait()
        self._asleep_until = None
        self._notify()

    def wake(self) -> None:
        """Look for due work now (e.g. right after writing events in this process)."""
        self._wake.set()
        self._notify()

    # -- one delivery -------------------------------------------------------------------
    async def _deliver(self, item: Claimed) -> None:
        try:
            await self._try_once(item)
        except DatabaseUnavailable as exc:
            # The try may have gone out; its claim expires and another try follows (a repeat
            # the receiver drops by event id).
            log.warning("webhooks: could not record delivery %s (%s); it is retried after its lease", item.id, exc)
        except Exception:
            log.exception("webhooks: delivery %s failed unexpectedly; it is retried after its lease", item.id)
        finally:
            self.limiter.release_on_behalf_of((item.claim, item.id))
            self._busy -= 1
            # A slot is free and this delivery's next try (if any) may be the earliest:
            # the loop looks again (several completions make one round).
            self._wake.set()
            self._notify()

    async def _try_once(self, item: Claimed) -> None:
        try_no = item.tries + 1
        held = item.payload is not None
        if not held:  # the outbox no longer holds the event: nothing to send
            result = SendResult(None, "the event is no longer held", 0.0)
        else:
            data = item.payload
            if isinstance(data, str):  # a payload written as a JSON string (text bound to ::jsonb): the object inside
                data = orjson.loads(data)
            raw = signing.body(item.event_id, item.type, item.created_at, data)
            t = int(self.clock.timestamp())
            keys = signing.SigningSecrets(item.secret, item.previous_secret, item.previous_secret_until)
            headers = signing.headers(item.event_id, item.type, keys.in_force(t), t, raw)
            result = await post(
                item.url, headers, raw, policy=self.policy, resolver=self.resolver, timeout_s=self.answer_within_s
            )
        now = self.clock.now()
        settled = schedule.settle(item.id, item.claim, item.endpoint_id, try_no, result, now, held=held)
        metrics.HOOK_DELIVERIES.labels(settled.outcome).inc()
        after = await self.db.transaction(record_try, settled)
        if after is not None and after["was"] == "active" and after["state"] == "paused":
            log.warning(
                "webhook endpoint %s paused after %d failed tries in a row", item.endpoint_id, after["failures_in_row"]
            )
            await notify_paused(
                self.db,
                self.mailer,
                endpoint_id=item.endpoint_id,
                account=after["account"],
                url=after["url"],
                email=after["notify_email"],
                failures=after["failures_in_row"],
                now=now,
            )

    def _notify(self) -> None:
        if self.observer is not None:
            self.observer.changed(self._busy, self._asleep_until, self._wake.is_set())


def outliving_a_send(lease_s: float) -> float:
    """The claim's lease as asked for (SVC_HOOKS_CLAIM_S), raised to LEASE_MIN_S if shorter: a lease
    that ran out while its send still waited for an answer would have another worker send the same
    delivery to a receiver that is merely slow."""
    if lease_s >= LEASE_MIN_S:
        return lease_s
    log.warning("webhooks: a claim of %g s cannot outlive one send; %g s is used", lease_s, LEASE_MIN_S)
    return LEASE_MIN_S


async def component(
    service: Service,
    *,
    policy: Policy | None = None,
    mailer: Mailer | None = None,
    lease_s: float = LEASE_S,
    task_status=trio.TASK_STATUS_IGNORED,
) -> None:
    """The scheduler as a component of the app (svc.web.supervisor), on the worker's pool and
    clock, with the address policy, the mailer and the claim's lease of the worker's settings
    (given by svc.assembly). Its handle is the Scheduler."""
    await Scheduler(service.db, service.clock, policy=policy, mailer=mailer, lease_s=outliving_a_send(lease_s)).run(
        task_status=task_status
    )
