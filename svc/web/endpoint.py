"""Endpoint declarations: path, plan, parameters, record type, handler.

Routing, validation, the OpenAPI description and the docs all read this registry.
"""

from __future__ import annotations

import base64
import hashlib
from typing import Any, Awaitable, Callable, Mapping

import attrs
import orjson

from svc.access.caller import Caller
from svc.access.plans import PLANS, Plan
from svc.core.clock import Clock
from svc.core.db import Database
from svc.core.errors import bad_request, invalid
from svc.web.params import PAGING_NAMES, NoParams, Paging
from svc.web.service import Service


@attrs.frozen
class Page:
    """What a paged handler returns: one page of items and the size of the whole list."""
    items: list[Any]
    total: int
    meta: dict[str, Any] = attrs.field(factory=dict)


@attrs.frozen
class Answer:
    """What an unpaged handler returns."""
    data: Any
    meta: dict[str, Any] = attrs.field(factory=dict)


@attrs.define
class Call:
    """Everything a handler may use."""
    p: Any  # the parsed parameters
    db: Database
    clock: Clock
    caller: Caller  # key, account, plan, counters
    service: Service  # the process's pool, clock, settings and running components
    offset: int = 0
    limit: int = 50

    @property
    def plan(self) -> Plan:
        return self.caller.plan

    @property
    def sees_odds(self) -> bool:
        """Prices are part of the Odds plan (and the Live plan above it)."""
        return self.plan.rank >= PLANS["odds"].rank

    def page(self, rows: list[Any], shape: Callable[[Any], Any], meta: dict[str, Any] | None = None,
             total: int | None = None) -> Page:
        """A Page from rows of a statement that selects `total` (the size of the whole list)
        beside each row of the page asked for, or of one whose `total` was counted apart."""
        if not rows and self.offset > 0:
            raise invalid("parameter `page` (or `cursor`) is past the last page")
        if total is None:
            total = rows[0]["total"] if rows else 0
        return Page([shape(r) for r in rows], total, meta or {})


Handler = Callable[[Call], Awaitable[Answer | Page]]


@attrs.frozen
class Endpoint:
    path: str  # OpenAPI form: /v1/events/{id}
    plan: str  # lowest plan that has it
    summary: str
    description: str
    params: type
    returns: Any  # record type of one item (lists: of each item)
    many: bool
    handler: Handler
    counted: bool = True  # /v1/usage is never counted
    # Some answers need a higher plan for some parameter values (results on another day, the
    # points of a match in play): decided before the call is counted, so a refused call is
    # never counted. Called as `await plan_for(params, db, clock)`; returns a plan name.
    plan_for: Callable[[Any, Database, Clock], Awaitable[str]] | None = None
    # Seconds an answer may be served again from the answer cache (svc/web/cache.py) while the
    # data version holds. None: the default, 30 s, except for Live-plan endpoints (never).
    cache_seconds: float | None = None
    media_type: str = "application/json"  # text/event-stream for the live stream

    @property
    def cache_ttl(self) -> float:
        if self.cache_seconds is not None:
            return self.cache_seconds
        return 0.0 if self.plan == "live" or not self.counted else DEFAULT_CACHE_SECONDS

    @property
    def paged(self) -> bool:
        return issubclass(self.params, Paging)

    @property
    def rule(self) -> str:
        return self.path.replace("{", "<").replace("}", ">")


REGISTRY: list[Endpoint] = []
DEFAULT_CACHE_SECONDS = 30.0  # archive data changes only on import (which moves the data version) or corrections


def endpoint(path: str, *, plan: str, summary: str, returns: Any, many: bool = False, params: type = NoParams,
             description: str = "", counted: bool = True,
             plan_for: Callable[[Any, Database, Clock], Awaitable[str]] | None = None,
             cache_seconds: float | None = None, media_type: str = "application/json"):
    def register(handler: Handler) -> Handler:
        REGISTRY.append(Endpoint(path=path, plan=plan, summary=summary, description=description or summary,
                                 params=params, returns=returns, many=many, handler=handler, counted=counted,
                                 plan_for=plan_for, cache_seconds=cache_seconds, media_type=media_type))
        return handler

    return register


# -- cursors ---------------------------------------------------------------------
# A cursor is the offset of the next page plus a fingerprint of the query it belongs to,
# so a cursor used with other filters is refused instead of silently paging another list.

def fingerprint(path: str, query: Mapping[str, list[str]]) -> str:
    stable = sorted((k, v) for k, vs in query.items() if k not in PAGING_NAMES for v in vs)
    return hashlib.sha256(orjson.dumps([path, stable])).hexdigest()[:12]


def encode_cursor(offset: int, fp: str) -> str:
    return base64.urlsafe_b64encode(orjson.dumps({"o": offset, "f": fp})).decode().rstrip("=")


def decode_cursor(cursor: str, fp: str) -> int:
    try:
        raw = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        offset, their_fp = raw["o"], raw["f"]
        if not isinstance(offset, int) or offset < 0 or not isinstance(their_fp, str):
            raise ValueError
    except (ValueError, TypeError, KeyError, orjson.JSONDecodeError):
        raise bad_request("parameter `cursor` is not one this service made; pass meta.next_cursor unchanged") from None
    if their_fp != fp:
        raise bad_request("parameter `cursor` belongs to a list with other filters; keep the same parameters while paging")
    return offset


def page_window(p: Paging, fp: str) -> tuple[int, int]:
    offset = decode_cursor(p.cursor, fp) if p.cursor else (p.page - 1) * p.per_page
    return offset, p.per_page


def page_meta(page: Page, offset: int, per_page: int, fp: str) -> dict[str, Any]:
    if offset >= page.total and offset > 0:
        raise invalid(f"parameter `page` is past the last page ({max(1, -(-page.total // per_page))})")
    meta: dict[str, Any] = {
        "page": offset // per_page + 1,
        "per_page": per_page,
        "total": page.total,
        "pages": -(-page.total // per_page),
    }
    nxt = offset + len(page.items)
    # interface.md: next_cursor is "absent or empty" on the last page; empty keeps the member there
    meta["next_cursor"] = encode_cursor(nxt, fp) if nxt < page.total else ""
    meta.update(page.meta)
    return meta
