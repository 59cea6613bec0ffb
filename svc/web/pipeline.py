"""The path of one request to an endpoint, in the order it is walked:

key (from the headers) -> parameters (parsed; with the page window on lists) -> authorize (key,
plan, limits, counting: from the worker's key cache and block of the key's calls, else one
statement claiming a block -- svc.access.allowances) -> the answer cache -> the handler (named SQL through
svc.core.db) -> the answer shaped as JSON bytes {data, meta} (gzipped when asked: svc.web.encoding),
with X-RateLimit-* and X-Quota-Remaining -> on an error after counting, the call taken back -> one
access log line (with the Request-Id of svc.web.request_id).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Hashable, Mapping
from typing import Any

import attrs
import trio
from quart import Response, current_app

from svc.access.caller import Caller, Refused, header_key, key_from_headers, refund
from svc.core import metrics
from svc.core.db import DatabaseUnavailable
from svc.core.errors import ApiError
from svc.core.replicas import reads_as_of
from svc.core.sqlfiles import Q
from svc.web import paging
from svc.web.convert import to_json
from svc.web.encoding import Encoded
from svc.web.endpoint import Answer, Call, Endpoint
from svc.web.incoming import Incoming
from svc.web.params import parse
from svc.web.responses import Reply, Streamed, answered, error_reply
from svc.web.service import Service

log = logging.getLogger("svc.access")
# A counted call that ends in one of these still counts (interface: an unknown id cost a lookup);
# any other error after counting -- no free stream slot, a parameter only the handler could judge,
# a failure of ours -- is taken back.
COUNTED_ERRORS = frozenset({"not_found"})


def view(ep: Endpoint, service: Service) -> Callable[..., Awaitable[Response]]:
    """The view Quart routes `ep` to (what svc.web.direct does not answer ahead of it)."""

    async def answer_in_quart(**path_params: Any) -> Response:
        answer = await answer_timed(ep, service, path_params, Incoming.from_quart(), current_app)
        return answer.response()

    answer_in_quart.__name__ = ep.path
    return answer_in_quart


async def answer_timed(
    ep: Endpoint, service: Service, path_params: dict[str, str], incoming: Incoming, app: Any
) -> Reply | Streamed:
    """The answer, then its log line and metrics, whatever happened (`app`: the app answering)."""
    started = trio.current_time()
    prefix = "-"
    status = 500
    try:
        reply, prefix = await answer(ep, service, path_params, incoming, app)
        status = reply.status
        return reply
    finally:
        seconds = trio.current_time() - started
        log_request(incoming.method, incoming.path, status, seconds * 1000, prefix, incoming.request_id)
        metrics.labelled(metrics.REQUESTS, ep.path, str(status)).inc()
        metrics.labelled(metrics.LATENCY, ep.path).observe(seconds)


async def answer(
    ep: Endpoint, service: Service, path_params: dict[str, str], incoming: Incoming, app: Any = None
) -> tuple[Reply | Streamed, str]:
    """The answer to this request for `ep` (a Streamed: a stream the handler made), and the prefix
    of the key that made it ("-": none)."""
    caller: Caller | None = None
    counted = False
    query = incoming.query
    try:
        try:
            key = key_from_headers(incoming.headers, query)
        except ApiError as bad:
            if bad.status == 400:  # a key in the query string: the header's key, if valid, still gets its headers
                headers, prefix = await valid_key_headers(service, incoming)
                bad.headers = {**headers, **bad.headers}
                return error_reply(bad, incoming), prefix
            raise
        try:
            p = parse(ep.params, query, path_params)
            window = paging.window(p, ep.path, path_params, query) if ep.paged else None
            need = await ep.plan_for(p, service.db, service.clock) if ep.plan_for else ep.plan
        except ApiError as bad:
            # Who is calling comes first (401/403), then what is wrong with the request.
            caller = await service.allowances.authorize(key, need=ep.plan, count=False)
            raise bad  # answered below with the caller's rate-limit headers
        try:
            caller = await service.allowances.authorize(key, need=need, count=ep.counted)
        except ApiError as refused:
            if ep.plan_note is not None and refused.kind.code == "upgrade_required" and need != ep.plan:
                ep.plan_note(p, service.clock, refused)  # a plan_for's refusal: what the key's plan covers
            raise
        counted = ep.counted
        cache_key = answer_key(ep, path_params, p, window, caller.plan.name)
        if service.cache is not None and ep.cache_ttl:
            cached = service.cache.get(cache_key, caller.data_version)
            metrics.labelled(metrics.CACHE, "hit" if cached is not None else "miss").inc()
            if cached is not None:
                return answered(cached, caller.headers, incoming), caller.prefix
        call = Call(p=p, db=service.db, clock=service.clock, caller=caller, headers=incoming.headers, app=app)
        if window is not None:
            call.offset, call.limit = window.offset, window.limit
        with reads_as_of(caller.data_version):  # replicas behind the primary's data version do not answer
            body = await _run(ep, call, window, service)
        if isinstance(body, Streamed):  # a stream (e.g. Server-Sent Events) made by the handler: never compressed
            return attrs.evolve(body, headers=[*body.headers, *caller.headers.items()]), caller.prefix
        encoded = Encoded(body)
        if service.cache is not None and ep.cache_ttl:
            service.cache.put(cache_key, caller.data_version, encoded, ep.cache_ttl)
        return answered(encoded, caller.headers, incoming), caller.prefix
    except ApiError as err:
        if err.status == 429:
            metrics.REFUSALS.labels(err.kind.code).inc()
        if caller is not None:
            if counted and err.kind.code not in COUNTED_ERRORS:
                caller = await _take_back(service, caller)
            err.headers = {**caller.headers, **err.headers}
        # a refused key (replaced, below the plan, over a limit) is named in the log like a served one
        prefix = caller.prefix if caller else err.prefix if isinstance(err, Refused) else "-"
        return error_reply(err, incoming), prefix
    except DatabaseUnavailable as exc:
        log.warning("database unavailable: %s", exc)
        unavailable = ApiError(
            "unavailable", "the database cannot be reached for a moment; retry shortly", headers={"Retry-After": "2"}
        )
        if caller is not None and counted:
            await _take_back(service, caller)
        return error_reply(unavailable, incoming), caller.prefix if caller else "-"
    except Exception:
        log.exception("unhandled error on %s", incoming.path)
        if caller is not None and counted:
            await _take_back(service, caller)
        return error_reply(ApiError("internal_error", "an internal error; it has been logged"), incoming), "-"


def answer_key(
    ep: Endpoint, path_params: Mapping[str, Any], p: Any, window: paging.Window | None, plan: str
) -> Hashable:
    """What the answer cache keys an answer by (the same for every layer answering: svc.web.direct, Quart)."""
    return (ep.path, tuple(sorted(path_params.items())), repr(p), window, plan)


async def _run(ep: Endpoint, call: Call, window: paging.Window | None, service: Service) -> bytes | Streamed:
    """The handler's answer as JSON bytes {data, meta} (a list's meta from svc.web.paging), or the
    stream a handler made itself."""
    if window is not None:
        page = await paging.page_from(_page_handler(ep), call)
        meta = paging.meta(page, window)
        if not page.items:
            await _note_coverage(service, call.caller.data_version, meta)
        return to_json({"data": page.items, "meta": meta})
    answer = await ep.handler(call)
    if isinstance(answer, Streamed):
        return answer
    assert isinstance(answer, Answer), f"{ep.path} is not paged: its handler answers an Answer"
    if answer.data == [] or answer.data == {}:
        await _note_coverage(service, call.caller.data_version, answer.meta)
    return to_json({"data": answer.data, "meta": answer.meta})


def _page_handler(ep: Endpoint) -> Callable[[Call], Awaitable[paging.Page]]:
    """The handler of a paged endpoint, which answers a Page."""

    async def page(call: Call) -> paging.Page:
        got = await ep.handler(call)
        assert isinstance(got, paging.Page), f"{ep.path} is paged: its handler answers a Page"
        return got

    return page


async def valid_key_headers(service: Service, incoming: Incoming) -> tuple[dict[str, str], str]:
    """The rate-limit headers (and key prefix) of the request's header key when it is valid, counting
    nothing; none when there is no valid key or no database."""
    try:
        caller = await service.allowances.authorize(header_key(incoming.headers), need="free", count=False)
    except (ApiError, DatabaseUnavailable):
        return {}, "-"
    return caller.headers, caller.prefix


async def _take_back(service: Service, caller: Caller) -> Caller:
    """Takes back a call refused after it was counted; when the database is the fault, the
    worker takes it back once the database answers again (svc.access.take_backs). A call served
    from the worker's block of calls goes back to the block, with no statement."""
    returned = service.allowances.take_back(caller)
    if returned is not None:
        return returned
    try:
        return await refund(service.db, caller)
    except DatabaseUnavailable:
        service.take_backs.owe(caller)
        return caller


async def _note_coverage(service: Service, data_version: str, meta: dict[str, Any]) -> None:
    """An empty answer over a world that does not cover everything (the real world: no odds,
    no live play, 2018-2020 matches) says so in meta.note; read once per data version."""
    if service.coverage is None or service.coverage[0] != data_version:
        service.coverage = (data_version, await service.db.fetchval(Q.world.coverage))
    if service.coverage[1]:
        meta.setdefault("note", service.coverage[1])


def log_request(method: str, path: str, status: int, ms: float, prefix: str, rid: str) -> None:
    """The access log line of one request, with the Request-Id its answer carries. Never the query
    string: a key sent there must not reach the logs."""
    log.info(
        "%s %s %d %.1fms key=%s id=%s",
        method,
        path,
        status,
        ms,
        prefix,
        rid,
        extra={"method": method, "path": path, "status": status, "ms": round(ms, 1), "key": prefix, "request_id": rid},
    )
