"""Every answer's `Request-Id`, also on the request's access log line, so that a user who quotes it
points at the one line that is theirs.

A client's own id (`Request-Id`, or `X-Request-Id` as many proxies and SDKs send it) is kept when it
is short and safe -- 1 to 64 of `A-Z a-z 0-9 . _ -` -- so that it can be followed from the client's
logs through ours; anything else (too long, a space, a quote, a control character) is never echoed
nor logged, and the request gets an id of its own: 16 random bytes as 32 hex digits.
"""

from __future__ import annotations

import os
import random
import re

from quart import Response, g, request
from quart_trio import QuartTrio

HEADER = "Request-Id"
INCOMING = ("Request-Id", "X-Request-Id")
SAFE = re.compile(r"[A-Za-z0-9._-]{1,64}")
# An id names a request, it guards nothing: drawn from a generator seeded once per process from the
# system's random source, not read from that source per request (a system call each: 1.5 % of a
# worker's time on cached answers, ops/bench/goals).
_IDS = random.Random()
os.register_at_fork(after_in_child=_IDS.seed)  # workers are spawned, but a forked child must not repeat ids


def request_id() -> str:
    """This request's id, chosen once per request (the log line and the header read the same one)."""
    rid: str | None = g.get("request_id")  # g holds Any; only this function sets it, to a str
    if rid is None:
        rid = g.request_id = chosen_id(next((v for name in INCOMING if (v := request.headers.get(name))), ""))
    return rid


def chosen_id(sent: str) -> str:
    """The id of a request that sent `sent` (its first Request-Id or X-Request-Id, or "")."""
    return sent if SAFE.fullmatch(sent) else f"{_IDS.getrandbits(128):032x}"


def tag_every_answer(app: QuartTrio) -> None:
    @app.after_request
    async def request_id_header(response: Response) -> Response:
        response.headers[HEADER] = request_id()
        return response
