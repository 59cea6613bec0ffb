"""What a try's outcome means and when the next try is due (interface: Answering and retries);
without I/O: the scheduler decides here, svc_hooks.record writes."""

from __future__ import annotations

import datetime as dt
from typing import Literal

import attrs

from svc_hooks.http import SendResult

# 8 tries in all: at once, then after 5 min, 30 min, 2 h, 6 h, 12 h, 1 day, 1 day.
RETRY_DELAYS = (
    dt.timedelta(minutes=5),
    dt.timedelta(minutes=30),
    dt.timedelta(hours=2),
    dt.timedelta(hours=6),
    dt.timedelta(hours=12),
    dt.timedelta(days=1),
    dt.timedelta(days=1),
)
MAX_TRIES = len(RETRY_DELAYS) + 1  # 8
PAUSE_AFTER_FAILURES = 20  # interface: "After 20 failed tries in a row the endpoint is paused"
RETRYABLE_4XX = (408, 429)  # time-out and too-many-requests: the receiver asks us to come back

Outcome = Literal["succeeded", "retry", "ended"]


def outcome(status: int | None, tries_done: int) -> Outcome:
    """The delivery's state after its try number `tries_done` answered `status` (None: no answer)."""
    if status is not None and 200 <= status < 300:
        return "succeeded"
    if status is not None and 400 <= status < 500 and status not in RETRYABLE_4XX:
        return "ended"
    return "retry" if tries_done < MAX_TRIES else "ended"


def next_try_at(tried_at: dt.datetime, tries_done: int) -> dt.datetime:
    """When try number tries_done + 1 is due, after try number tries_done failed at tried_at."""
    return tried_at + RETRY_DELAYS[tries_done - 1]


@attrs.frozen
class Settled:
    """One try of a delivery and what follows it, decided in Trio (`settle`) before it is written
    in one transaction (svc_hooks.record): the delivery's next state and, for a retry, when."""

    delivery_id: int
    claim: str  # the claim the try was made under: a try whose lease was taken over changes nothing
    endpoint_id: str
    try_no: int
    result: SendResult
    outcome: Outcome
    at: dt.datetime
    next_try_at: dt.datetime | None


def settle(
    delivery_id: int,
    claim: str,
    endpoint_id: str,
    try_no: int,
    result: SendResult,
    at: dt.datetime,
    *,
    held: bool = True,
) -> Settled:
    """Try number `try_no` answered `result` at `at`: what the delivery becomes. A delivery whose
    event the outbox no longer holds (`held` false: nothing was sent) ends."""
    state = outcome(result.status, try_no) if held else "ended"
    return Settled(
        delivery_id,
        claim,
        endpoint_id,
        try_no,
        result,
        state,
        at,
        next_try_at(at, try_no) if state == "retry" else None,
    )
