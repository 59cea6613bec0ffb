"""Who is calling and may they: key header -> account, plan, limits.

One statement (authorize-and-count) reads the key and counts the call, for every call of the
worker made at once; a refused call is never counted. The answers' rate-limit headers come
from the same row: the interface's X-RateLimit-* and X-Quota-Remaining, and the same numbers as
the IETF's RateLimit-Policy and RateLimit fields.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
from collections.abc import Mapping
from typing import Any, Protocol

import asyncpg
import attrs

from svc.access import keys
from svc.access.plans import PLANS, Plan
from svc.core.clock import Clock
from svc.core.db import Database
from svc.core.errors import ApiError, bad_request
from svc.core.sqlfiles import Q

UTC = dt.UTC
QUERY_KEY_NAMES = ("key", "api_key")  # interface.md, Authentication rule 4
USE_A_HEADER = "send the key in a header (Authorization: Bearer <key> or X-API-Key: <key>)"


@attrs.frozen
class Windows:
    minute: dt.datetime
    day: dt.date
    month: dt.date
    now: dt.datetime

    @classmethod
    def at(cls, now: dt.datetime) -> Windows:
        minute = now.replace(second=0, microsecond=0)
        return cls(minute=minute, day=now.date(), month=now.date().replace(day=1), now=now)

    def seconds_to(self, at: dt.datetime) -> int:
        """Whole seconds from now until `at`, rounded up: never 0 before `at` (delay-seconds)."""
        return math.ceil((at - self.now).total_seconds())

    @property
    def minute_reset(self) -> dt.datetime:
        return _resets(self.minute, self.day)[0]

    @property
    def day_reset(self) -> dt.datetime:
        return _resets(self.minute, self.day)[1]


@attrs.frozen
class Caller:
    key_id: int
    prefix: str
    account: str
    plan: Plan
    minute_calls: int
    day_calls: int
    month_calls: int
    windows: Windows
    data_version: str  # moves on every import; keys the answer cache

    @property
    def headers(self) -> dict[str, str]:
        w, plan = self.windows, self.plan
        minute_left = max(0, plan.per_minute - self.minute_calls)
        day_left = max(0, plan.per_day - self.day_calls)
        minute_reset, day_reset, minute_reset_at = _resets(w.minute, w.day)
        return {
            "X-RateLimit-Limit": str(plan.per_minute),
            "X-RateLimit-Remaining": str(minute_left),
            "X-RateLimit-Reset": minute_reset_at,
            "X-Quota-Remaining": str(day_left),
            # draft-ietf-httpapi-ratelimit-headers-10 (September 2025; its editors' copy -11 of May 2026
            # reads the same), sections 3 and 4: each field a structured-field List (RFC 9651) with one
            # Item per policy, named by a String. RateLimit-Policy: q = the quota, w = its window in
            # seconds; RateLimit: r = what is left, t = seconds until the window resets. The minute and
            # the day are calendar ones (UTC), so t says when, and w only how long.
            "RateLimit-Policy": _policy(plan.per_minute, plan.per_day),
            "RateLimit": f'"minute";r={minute_left};t={w.seconds_to(minute_reset)}, '
            f'"day";r={day_left};t={w.seconds_to(day_reset)}',
        }


# Every answer carries these; they change once a minute (or with a plan), so each is made once: the
# headers cost 5.6 us a call made afresh, 2.0 us with these kept.
@functools.lru_cache(maxsize=8)
def _resets(minute: dt.datetime, day: dt.date) -> tuple[dt.datetime, dt.datetime, str]:
    """When the minute and the day reset, and the minute's reset as X-RateLimit-Reset gives it."""
    minute_reset = minute + dt.timedelta(minutes=1)
    day_reset = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), UTC)
    return minute_reset, day_reset, str(int(minute_reset.timestamp()))


@functools.lru_cache(maxsize=16)
def _policy(per_minute: int, per_day: int) -> str:
    return f'"minute";q={per_minute};w=60, "day";q={per_day};w=86400'


class Refused(ApiError):
    """A known key turned away (replaced, below the plan, over a limit). It keeps the key's public
    prefix, so that the access log shows who was refused as it shows who was served."""

    def __init__(self, caller: Caller, code: str, message: str, **kwargs: Any) -> None:
        super().__init__(code, message, **kwargs)
        self.prefix = caller.prefix


class SentHeaders(Protocol):
    """A request's headers with every value of a name, as sent (quart's and werkzeug's Headers):
    a plain mapping would keep one value and hide a second, different key."""

    def getlist(self, key: str) -> list[str]: ...


def _one_header(headers: SentHeaders, name: str) -> str:
    """A header sent once, or the same value sent again; two different values are refused."""
    values = {v.strip() for v in headers.getlist(name)}
    values.discard("")
    if len(values) > 1:
        raise bad_request(f"{len(values)} different {name} headers; send one key")
    return values.pop() if values else ""


def header_key(headers: SentHeaders) -> str:
    """The key of the Authorization or X-API-Key header, or ApiError: 401 for none, 400 for two."""
    bearer = _one_header(headers, "Authorization")
    from_bearer = bearer[7:].strip() if bearer[:7].lower() == "bearer " else None
    if bearer and from_bearer is None:
        raise ApiError("unauthorized", "the Authorization header must read `Bearer <key>`")
    from_header = _one_header(headers, "X-API-Key") or None
    if from_bearer and from_header and from_bearer != from_header:
        raise bad_request("Authorization and X-API-Key carry different keys; send one")
    key = from_bearer or from_header
    if not key:
        raise ApiError("unauthorized", f"no key: {USE_A_HEADER}")
    return key


def key_from_headers(headers: SentHeaders, query: Mapping[str, list[str]]) -> str:
    """The key sent, or ApiError: 400 for a key in the query string or two keys, 401 for none."""
    sent = [name for name in QUERY_KEY_NAMES if name in query]
    if sent:
        raise bad_request(f"a key in the query string is refused, even a valid one; {USE_A_HEADER}", sent[0])
    return header_key(headers)


UNKNOWN_FORM = f"unknown key: a key reads {keys.KEY_MARKER} followed by 40 letters and digits"
UNKNOWN_KEY = "unknown key: no key like it was ever made"


async def authorize(db: Database, clock: Clock, key: str, *, need: str, count: bool) -> Caller:
    """Identify the key, check its plan, and (when `count`) count the call, in one statement. The
    service counts through svc.access.allowances (calls claimed in blocks); this reads a key's
    counters for the calls never counted, and counts one call at a time for whoever has no blocks."""
    if not keys.well_formed(key):
        raise ApiError("unauthorized", UNKNOWN_FORM)
    windows = Windows.at(clock.now())
    digest = keys.key_hash(key)
    row = await _authorize(db, digest, windows, need=need, count=count)
    if row is None or not keys.same_hash(row["key_hash"], digest):
        raise ApiError("unauthorized", UNKNOWN_KEY)
    caller = caller_of(row, windows)
    check(caller, row["state"], need)
    if count and not row["counted"]:
        # Refused by a limit. Read the counters afresh: a concurrent call may have moved them.
        fresh = await _authorize(db, digest, windows, need=need, count=False)
        assert fresh is not None, "the key's row was read a moment ago, and no statement deletes a key"
        raise limit_error(caller_of(fresh, windows))
    return caller


def check(caller: Caller, state: str, need: str) -> None:
    """Refused: a key replaced, or whose plan does not include what `need` names."""
    if state != "current":
        raise Refused(
            caller,
            "unauthorized",
            "this key was replaced and no longer works; use its replacement",
            headers=caller.headers,
        )
    if caller.plan.rank < PLANS[need].rank:
        raise Refused(
            caller,
            "upgrade_required",
            f"this needs the {PLANS[need].title} plan; the key's account is on {caller.plan.title}",
            extra={"plan": need},
            headers=caller.headers,
        )


async def refund(db: Database, caller: Caller) -> Caller:
    """Takes back a call counted before it was refused (no free stream slot, a parameter only the
    handler could judge, a failure of ours): a refused call is never counted. The caller as after."""
    row = await db.fetchrow(
        Q.access.refund,
        key_id=caller.key_id,
        minute=caller.windows.minute,
        day=caller.windows.day,
        month=caller.windows.month,
    )
    if row is None:
        return caller
    return attrs.evolve(
        caller, minute_calls=row["minute_calls"], day_calls=row["day_calls"], month_calls=row["month_calls"]
    )


async def _authorize(db: Database, digest: bytes, w: Windows, *, need: str, count: bool) -> asyncpg.Record | None:
    # Calls of this worker made at once share one statement (Database.batched): one round trip
    # per batch, each call still answered exactly.
    batch = db.batched(Q.access.authorize_and_count_batch, _batch_params, alone=(Q.access.authorize_and_count, _params))
    return await batch.fetchrow((w.minute, w.day, w.month), key_hash=digest, need_rank=PLANS[need].rank, count=count)


def _batch_params(windows: tuple[dt.datetime, dt.date, dt.date], calls: list[dict[str, Any]]) -> dict[str, Any]:
    minute, day, month = windows
    return {
        "key_hashes": [c["key_hash"] for c in calls],
        "need_ranks": [c["need_rank"] for c in calls],
        "counts": [c["count"] for c in calls],
        "minute": minute,
        "day": day,
        "month": month,
    }


def _params(windows: tuple[dt.datetime, dt.date, dt.date], call: dict[str, Any]) -> dict[str, Any]:
    minute, day, month = windows
    return {**call, "minute": minute, "day": day, "month": month}


def caller_of(row: asyncpg.Record, windows: Windows) -> Caller:
    return Caller(
        key_id=row["id"],
        prefix=row["prefix"],
        account=row["account"],
        plan=PLANS[row["plan"]],
        minute_calls=row["minute_calls"],
        day_calls=row["day_calls"],
        month_calls=row["month_calls"],
        windows=windows,
        data_version=row["data_version"] or "0",
    )


def limit_error(caller: Caller) -> Refused:
    # Retry-After is the refused policy's t (RateLimit above): the draft (section 6) wants it no
    # earlier than the end of the effective window.
    w = caller.windows
    if caller.day_calls >= caller.plan.per_day:
        wait = w.seconds_to(w.day_reset)
        return Refused(
            caller,
            "quota_exceeded",
            f"today's {caller.plan.per_day} calls are used; they return at 00:00 UTC",
            extra={"resets_at": w.day_reset.isoformat().replace("+00:00", "Z")},
            headers={**caller.headers, "Retry-After": str(max(1, wait))},
        )
    wait = w.seconds_to(w.minute_reset)
    return Refused(
        caller,
        "rate_limited",
        f"more than {caller.plan.per_minute} calls this minute; wait {max(1, wait)} s",
        headers={**caller.headers, "Retry-After": str(max(1, wait))},
    )
