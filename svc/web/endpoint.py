"""Endpoint declarations: path, plan, parameters, record type, handler; and the Call a handler
is given.

Routing, validation, the OpenAPI description and the docs all read this registry. An endpoint's
name (`Endpoint.name`, from its path) is its OpenAPI operationId and the name of its MCP tool.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import attrs

from svc.access.caller import Caller
from svc.access.plans import PLANS, Plan
from svc.core.clock import Clock
from svc.core.db import Database
from svc.core.errors import ApiError
from svc.web.incoming import Headers
from svc.web.paging import Page as Page  # re-exported: a paged handler imports it with Call
from svc.web.paging import Paging, page_of
from svc.web.params import NoParams
from svc.web.responses import Streamed


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
    offset: int = 0  # the page asked for (svc.web.paging.Window), on paged endpoints
    limit: int = 50
    # the request's headers, for a handler that reads one of its own (a stream's Last-Event-ID)
    headers: Headers | None = None
    # the app answering: its extensions hold what svc.assembly hands the endpoints (the live hub)
    app: Any = None

    @property
    def plan(self) -> Plan:
        return self.caller.plan

    @property
    def sees_odds(self) -> bool:
        """Prices are part of the Odds plan (and the Live plan above it)."""
        return self.plan.rank >= PLANS["odds"].rank

    def page(
        self, rows: list[Any], shape: Callable[[Any], Any], meta: dict[str, Any] | None = None, total: int | None = None
    ) -> Page:
        """This call's page from its rows (svc.web.paging.page_of)."""
        return page_of(rows, shape, self.offset, meta, total)


# A paged endpoint's handler answers a Page, any other an Answer, or a Streamed it made itself (a
# stream: svc_live's Server-Sent Events).
Handler = Callable[[Call], Awaitable[Answer | Page | Streamed]]
HandlerT = TypeVar("HandlerT", bound=Handler)  # @endpoint hands back the handler as declared

# plurals whose singular is not the word less its final s
SINGULAR = {"countries": "country", "series": "series", "odds": "odds", "matches": "match"}


def operation_name(path: str) -> str:
    """What an endpoint answers, as a name: /v1/players/{id} -> get_player; /v1/players/{id}/form
    -> player_form; /v1/rankings/number-ones -> rankings_number_ones; /v1/search -> search."""
    parts = path.removeprefix("/v1/").split("/")
    words: list[str] = []
    for i, part in enumerate(parts):
        if part.startswith("{"):
            words[-1] = SINGULAR.get(words[-1], words[-1].removesuffix("s"))
            if i == len(parts) - 1:
                words.insert(0, "get")
            continue
        words.append(part.replace("-", "_"))
    return "_".join(words)


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
    # What the key's plan does cover, for a 403 upgrade_required that plan_for's answer led to
    # (results: the days the Free key covers). Called as `plan_note(params, clock, refused)`; it
    # adds to the refusal's message and extra members.
    plan_note: Callable[[Any, Clock, ApiError], None] | None = None
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
    def name(self) -> str:
        """The OpenAPI operationId, which the MCP tool of this endpoint is named after."""
        return operation_name(self.path)

    @property
    def rule(self) -> str:
        return self.path.replace("{", "<").replace("}", ">")


REGISTRY: list[Endpoint] = []
DEFAULT_CACHE_SECONDS = 30.0  # archive data changes only on import (which moves the data version) or corrections


def endpoint(
    path: str,
    *,
    plan: str,
    summary: str,
    returns: Any,
    many: bool = False,
    params: type = NoParams,
    description: str = "",
    counted: bool = True,
    plan_for: Callable[[Any, Database, Clock], Awaitable[str]] | None = None,
    plan_note: Callable[[Any, Clock, ApiError], None] | None = None,
    cache_seconds: float | None = None,
    media_type: str = "application/json",
) -> Callable[[HandlerT], HandlerT]:
    def register(handler: HandlerT) -> HandlerT:
        REGISTRY.append(
            Endpoint(
                path=path,
                plan=plan,
                summary=summary,
                description=description or summary,
                params=params,
                returns=returns,
                many=many,
                handler=handler,
                counted=counted,
                plan_for=plan_for,
                plan_note=plan_note,
                cache_seconds=cache_seconds,
                media_type=media_type,
            )
        )
        return handler

    return register
