"""Rotating an endpoint's signing secret (`hooks rotate ID [--overlap 24h]`).

The new secret is made, stored and shown once; the one it replaces keeps signing beside it for
the overlap, so that every delivery in that time carries both signatures and a receiver holding
either secret verifies (svc_hooks.signing). After the overlap only the new secret signs. An
endpoint keeps at most two secrets: rotating again during an overlap ends the oldest at once.
"""

from __future__ import annotations

import datetime as dt
import re

import attrs

from svc.core.db import Database
from svc.core.sqlfiles import Q
from svc_hooks.signing import new_secret
from svc_hooks.store import HookError, check_endpoint_id

# Why a day: the owner has to put the new secret into a running receiver; a day covers a deploy
# on the next working day from any time zone, and a secret rotated because it leaked stops
# signing within that day (an owner who cannot wait rotates with --overlap 0).
DEFAULT_OVERLAP = dt.timedelta(hours=24)
# An old secret signing longer than a week is a second standing secret, not a rotation.
MAX_OVERLAP = dt.timedelta(days=7)
_OVERLAP = re.compile(r"^(\d+)\s*([smhd]?)$")
_UNIT_S = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@attrs.frozen
class Rotated:
    endpoint_id: str
    account: str
    secret: str  # the new secret: shown once, never again
    previous_until: dt.datetime | None  # the old secret signs before this moment; None: no overlap
    cut_short: dt.datetime | None  # a secret of an earlier rotation that would have signed until then, ended now


def parse_overlap(text: str) -> dt.timedelta:
    """'24h', '90m', '2d', '3600s' or '3600' (seconds), '0' for none; at most MAX_OVERLAP."""
    found = _OVERLAP.match(text.strip().lower())
    if not found:
        raise HookError(f"--overlap {text!r} is not a duration: a whole number and s, m, h or d (24h, 90m, 0)")
    overlap = dt.timedelta(seconds=int(found[1]) * _UNIT_S[found[2] or "s"])
    if overlap > MAX_OVERLAP:
        raise HookError(f"--overlap {text} is longer than the most allowed, {MAX_OVERLAP.days} days")
    return overlap


async def rotate(
    db: Database, endpoint_id: str, *, now: dt.datetime, overlap: dt.timedelta = DEFAULT_OVERLAP
) -> Rotated:
    if overlap < dt.timedelta(0) or overlap > MAX_OVERLAP:
        raise HookError(f"an overlap is between 0 and {MAX_OVERLAP.days} days")
    secret = new_secret()
    previous_until = now + overlap if overlap else None
    row = await db.fetchrow(
        Q.hooks.endpoint_rotate,
        id=check_endpoint_id(endpoint_id),
        secret=secret,
        previous_until=previous_until,
        now=now,
    )
    if row is None:
        raise HookError(f"no endpoint {endpoint_id}")
    return Rotated(endpoint_id, row["account"], secret, previous_until, row["dropped_until"])
