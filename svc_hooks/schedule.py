"""What a try's outcome means and when the next try is due (interface: Answering and retries)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

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
