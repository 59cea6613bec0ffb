"""The Quart-Trio application: the path of one request.

key header -> authorize (one statement: key, plan, limits, counting) -> parameters ->
handler (named SQL through svc.core.db) -> attrs records -> JSON bytes {data, meta},
with X-RateLimit-* and X-Quota-Remaining on every answer where the key is known.
"""

from __future__ import annotations

import hashlib
import logging
from functools import partial
from typing import Any, Awaitable, Callable, Sequence

import orjson
import trio
from quart import Response, request
from quart_trio import QuartTrio
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed, NotFound

from svc.access.caller import Caller, authorize, header_key, key_from_headers, refund
from svc.core import metrics
from svc.core.clock import Clock
from svc.core.db import Database, DatabaseUnavailable
from svc.core.errors import ApiError
from svc.core.settings import Settings
from svc.core.sqlfiles import Q
from svc.web import openapi
from svc.web.cache import AnswerCache
from svc.web.connection import ServiceApp
from svc.web.convert import to_json
from svc.web.docs import register_docs
from svc.web.endpoint import Call, Endpoint, fingerprint, page_meta, page_window
from svc.web.params import parse
from svc.web.service import Service

log = logging.getLogger("svc.access")
JSON = "application/json"
# A counted call that ends in one of these still counts (interface: an unknown id cost a lookup);
# any other error after counting -- no free stream slot, a parameter only the handler could judge,
# a failure of ours -- is taken back.
COUNTED_ERRORS = frozenset({"not_found"})
COMPONENT_CLEANUP_S = 5
COMPONENT_BACKOFF_S = (1.0, 30.0)  # a failed component starts again after 1 s, doubling up to 30 s
COMPONENT_GOOD_RUN_S = 60.0        # ... and after this long running well, its back-off starts afresh
HEALTH_DB_S = 1.0
URL_MAX = 8192  # bytes of path and query string  # at shutdown: time for components to release what they hold
CORS_EXPOSED = "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Quota-Remaining, Retry-After, ETag"


def _json_response(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status=status, headers=headers or {}, content_type=JSON)


def _answered(body: bytes, headers: dict[str, str]) -> Response:
    """A 200 with a strong ETag (a hash of the body: it changes exactly when the answer does,
    whatever moved it: an import, a correction, a match going live); 304 without the body when
    the request's If-None-Match already holds it. Either way the call was counted."""
    etag = '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'
    sent = request.headers.get("If-None-Match", "")
    if sent and (sent.strip() == "*" or etag in (t.strip().removeprefix("W/") for t in sent.split(","))):
        return Response(b"", status=304, headers={**headers, "ETag": etag})
    return _json_response(body, 200, {**headers, "ETag": etag})


def error_response(err: ApiError) -> Response:
    docs = request.host_url.rstrip("/") + "/docs" if request else "/docs"
    return _json_response(orjson.dumps(err.body(docs)), err.status, err.headers)


# A background component runs for the app's lifetime in the app's nursery:
# `async def run(service, *, task_status=trio.TASK_STATUS_IGNORED)`, calling
# task_status.started() once ready (the app serves only after every component started).
Component = Callable[..., Awaitable[None]]
Pages = Callable[[QuartTrio], None]  # adds routes that need no key (e.g. the live page)
Webhooks = Callable[[dict[str, Any]], dict[str, Any]]  # the OpenAPI `webhooks` section


def create_app(database_url: str, *, endpoints: Sequence[Endpoint], clock: Clock | None = None,
               pool_size: int = 8, db: Database | None = None, components: Sequence[Component] = (),
               cache: bool = False, settings: Settings | None = None, pages: Sequence[Pages] = (),
               webhooks: Webhooks | None = None) -> QuartTrio:
    """The app serving `endpoints` (svc.assembly puts the service together and calls this)."""
    app = ServiceApp(__name__)
    app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False
    # No redirects: `/v1/players//matches` is a 404 like any other unknown path, not a 308 to a
    # merged path answered before the key is checked.
    app.url_map.merge_slashes = False
    app.url_map.strict_slashes = False
    own_db = db is None
    clock = clock or Clock()
    db = db or Database(database_url, pool_size=pool_size)
    service = Service(db=db, clock=clock,
                      settings=settings or Settings(database_url=database_url, pool_size=pool_size, cache=cache),
                      cache=AnswerCache(clock) if cache else None)
    app.extensions["svc"] = service

    # Components run until the app stops serving: each in a cancel scope of its own, cancelled
    # first at shutdown (else the lifespan nursery would wait on them forever), and given a few
    # seconds to finish their cleanup (e.g. freeing stream slots) before the pool closes.
    running: list[tuple[trio.CancelScope, trio.Event]] = []

    async def run_component(component: Component, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        await run_in_scope(partial(_keep_running, service, component), task_status=task_status)

    async def run_in_scope(run: Callable[..., Awaitable[None]], *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        done = trio.Event()
        try:
            with trio.CancelScope() as scope:
                running.append((scope, done))
                await run(task_status=task_status)
        finally:
            done.set()

    @app.before_serving
    async def start_parts() -> None:
        if own_db:
            await service.db.open()
        await app.nursery.start(run_in_scope, service.take_backs.run)
        for component in components:
            await app.nursery.start(run_component, component)

    @app.after_serving
    async def stop_parts() -> None:
        for scope, _ in running:
            scope.cancel()
        with trio.move_on_after(COMPONENT_CLEANUP_S):
            for _, done in running:
                await done.wait()
        if own_db:
            await service.db.close()

    for ep in endpoints:
        app.add_url_rule(ep.rule, endpoint=ep.path, view_func=_view(ep, service), methods=["GET"],
                         provide_automatic_options=False)
    register_docs(app, lambda: openapi.build(endpoints, webhooks))
    async def healthz() -> Response:
        return await health(service)

    app.add_url_rule("/healthz", endpoint="healthz", view_func=healthz, methods=["GET"], provide_automatic_options=False)
    for add_pages in pages:
        add_pages(app)

    @app.before_request
    async def url_length() -> Response | None:
        # Hypercorn (svc.serve) lets a request head of up to 256 KiB through so that a long URL gets
        # this JSON answer instead of an empty 431; a head beyond that still gets Hypercorn's 431.
        if len(request.scope.get("raw_path", b"")) + len(request.scope.get("query_string", b"")) > URL_MAX:
            return await _refused(service, ApiError("bad_request", f"the URL is longer than {URL_MAX} bytes; "
                                                                   "no parameter of this API needs that much"))
        return None

    @app.before_request
    async def path_segments() -> Response | None:
        # Werkzeug strips leading slashes (request.path, and again before matching), so
        # `//v1/countries` would be served as `/v1/countries`; an empty or dot segment anywhere is
        # an unknown path instead (README), never served under another path's name nor redirected.
        path = request.scope.get("path") or request.path
        if any(segment in ("", ".", "..") for segment in path[1:].split("/")):
            return await _refused(service, ApiError("not_found", f"no endpoint at {path}: a path has no "
                                                    "empty, '.' or '..' segment; see /v1/openapi.json"))
        return None

    @app.before_request
    async def only_get() -> Response | None:
        # Werkzeug serves HEAD for every GET rule; the contract serves GET only, so HEAD is refused
        # like any other method (and never counted).
        if request.method == "HEAD":
            return await _refused(service, ApiError("method_not_allowed", "HEAD is not served; every endpoint "
                                                    "answers GET", headers={"Allow": "GET"}))
        return None

    @app.before_request
    async def cors_preflight() -> Response | None:
        # A page on another origin may call the API from a browser: keys travel in headers and
        # no cookies are used, so any origin may ask. Other OPTIONS requests get the 405.
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            return Response(b"", status=204, headers={
                "Access-Control-Allow-Methods": "GET",
                "Access-Control-Allow-Headers": "Authorization, X-API-Key, Last-Event-ID",
                "Access-Control-Max-Age": "600",
            })
        return None

    @app.after_request
    async def cors_headers(response: Response) -> Response:
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Expose-Headers"] = CORS_EXPOSED
        return response

    @app.errorhandler(HTTPException)
    async def http_error(exc: HTTPException) -> Response:
        if isinstance(exc, MethodNotAllowed):
            err = ApiError("method_not_allowed", f"{request.method} is not served; every endpoint answers GET",
                           headers={"Allow": "GET"})
        elif isinstance(exc, NotFound):
            err = ApiError("not_found", f"no endpoint at {request.path}; see /v1/openapi.json")
        elif isinstance(exc, InternalServerError):
            log.error("unhandled error on %s", request.path, exc_info=exc.original_exception)
            err = ApiError("internal_error", "an internal error; it has been logged")
        else:
            err = ApiError("bad_request", f"the request cannot be read: {exc.description}")
        return await _refused(service, err)

    return app


def service_of(app: QuartTrio) -> Service:
    """The per-process state of an app made by create_app."""
    return app.extensions["svc"]


class _Started:
    """The task_status a component is given: marks it running, and tells the app it may serve
    the first time only (a restarted component starts again into an app already serving)."""

    def __init__(self, service: Service, name: str, outer: Any) -> None:
        self.service, self.name, self.outer = service, name, outer

    def started(self, value: Any = None) -> None:
        self.service.health[self.name] = "running"
        if self.outer is not None:
            outer, self.outer = self.outer, None
            outer.started(value)


async def _keep_running(service: Service, component: Component, *, task_status: Any) -> None:
    """Runs a component for the app's lifetime. One that fails after it started is logged loudly
    and started again after a back-off (1 s doubling to 30 s; back to 1 s after a minute of good
    running), so a worker never goes on serving with a dead hub, feed or scheduler. A failure
    before the first start fails the app's start-up."""
    name = component_name(component)
    status = _Started(service, name, task_status)
    backoff = COMPONENT_BACKOFF_S[0]
    while True:
        service.health[name] = "starting"
        began = trio.current_time()
        try:
            await component(service, task_status=status)
            service.health[name] = "stopped"
            return
        except Exception:
            if status.outer is not None:
                raise  # never started: the app must not serve without it
            if trio.current_time() - began > COMPONENT_GOOD_RUN_S:
                backoff = COMPONENT_BACKOFF_S[0]
            service.health[name] = "restarting"
            log.exception("component %s failed; starting it again in %.0f s", name, backoff)
        await trio.sleep(backoff)
        backoff = min(COMPONENT_BACKOFF_S[1], backoff * 2)


def component_name(component: Component) -> str:
    """The name /healthz shows: the function's (svc_live's `hub`), or its module's when the function
    is just called `component` (the feed's and the scheduler's: `feed`, `scheduler`)."""
    if component.__name__ == "component":
        return component.__module__.rsplit(".", 1)[-1]
    return component.__name__


async def health(service: Service) -> Response:
    """/healthz: no key, never counted. 200 when the database answers within a second and every
    component runs; 503 otherwise (a load balancer stops sending work here)."""
    database = "unreachable"
    with trio.move_on_after(HEALTH_DB_S):
        try:
            await service.db.fetchval(Q.world.has_matches)
            database = "ok"
        except DatabaseUnavailable:
            pass
    ready = database == "ok" and all(state == "running" for state in service.health.values())
    body = {"status": "ok" if ready else "not_ready", "database": database, "components": dict(service.health)}
    return _json_response(orjson.dumps(body), 200 if ready else 503, {"Cache-Control": "no-store"})


async def _valid_key_headers(service: Service) -> tuple[dict[str, str], str]:
    """The rate-limit headers (and key prefix) of the request's header key when it is valid, counting
    nothing; none when there is no valid key or no database."""
    try:
        caller = await authorize(service.db, service.clock, header_key(request.headers), need="free", count=False)
    except (ApiError, DatabaseUnavailable):
        return {}, "-"
    return caller.headers, caller.prefix


async def _refused(service: Service, err: ApiError) -> Response:
    """An error answered outside an endpoint (no such path, a method other than GET): never counted,
    with the rate-limit headers when the request carries a valid key."""
    headers, prefix = await _valid_key_headers(service) if err.status < 500 else ({}, "-")
    err.headers = {**headers, **err.headers}
    _log(request.method, request.path, err.status, 0.0, prefix)
    metrics.REQUESTS.labels("unmatched", str(err.status)).inc()
    return error_response(err)


def _view(ep: Endpoint, service: Service):
    async def view(**path_params: Any) -> Response:
        started = trio.current_time()
        prefix = "-"
        status = 500
        try:
            response, prefix = await _answer(ep, service, path_params)
            status = response.status_code
            return response
        finally:
            seconds = trio.current_time() - started
            _log(request.method, request.path, status, seconds * 1000, prefix)
            metrics.REQUESTS.labels(ep.path, str(status)).inc()
            metrics.LATENCY.labels(ep.path).observe(seconds)

    view.__name__ = ep.path
    return view


async def _answer(ep: Endpoint, service: Service, path_params: dict[str, str]) -> tuple[Response, str]:
    caller: Caller | None = None
    counted = False
    query = {k: request.args.getlist(k) for k in request.args}
    try:
        try:
            key = key_from_headers(request.headers, query)
        except ApiError as bad:
            if bad.status == 400:  # a key in the query string: the header's key, if valid, still gets its headers
                headers, prefix = await _valid_key_headers(service)
                bad.headers = {**headers, **bad.headers}
                return error_response(bad), prefix
            raise
        fp = fingerprint(ep.path + repr(sorted(path_params.items())), query)
        try:
            p = parse(ep.params, query, path_params)
            window = page_window(p, fp) if ep.paged else (0, 0)
            need = await ep.plan_for(p, service.db, service.clock) if ep.plan_for else ep.plan
        except ApiError as bad:
            # Who is calling comes first (401/403), then what is wrong with the request.
            caller = await authorize(service.db, service.clock, key, need=ep.plan, count=False)
            raise bad  # answered below with the caller's rate-limit headers
        caller = await authorize(service.db, service.clock, key, need=need, count=ep.counted)
        counted = ep.counted
        call = Call(p=p, db=service.db, clock=service.clock, caller=caller, service=service)
        cache_key = (ep.path, tuple(sorted(path_params.items())), repr(p), window, caller.plan.name)
        if service.cache is not None and ep.cache_ttl:
            cached = service.cache.get(cache_key, caller.data_version)
            metrics.CACHE.labels("hit" if cached is not None else "miss").inc()
            if cached is not None:
                return _answered(cached, caller.headers), caller.prefix
        if ep.paged:
            call.offset, call.limit = window
            page = await ep.handler(call)
            meta = page_meta(page, call.offset, call.limit, fp)
            if not page.items:
                await _note_coverage(service, caller.data_version, meta)
            body = to_json({"data": page.items, "meta": meta})
        else:
            answer = await ep.handler(call)
            if isinstance(answer, Response):  # a stream (e.g. Server-Sent Events) made by the handler
                answer.headers.update(caller.headers)
                return answer, caller.prefix
            if answer.data == [] or answer.data == {}:
                await _note_coverage(service, caller.data_version, answer.meta)
            body = to_json({"data": answer.data, "meta": answer.meta})
        if service.cache is not None and ep.cache_ttl:
            service.cache.put(cache_key, caller.data_version, body, ep.cache_ttl)
        return _answered(body, caller.headers), caller.prefix
    except ApiError as err:
        if err.status == 429:
            metrics.REFUSALS.labels(err.kind.code).inc()
        if caller is not None:
            if counted and err.kind.code not in COUNTED_ERRORS:
                caller = await _refund(service, caller)
            err.headers = {**caller.headers, **err.headers}
        return error_response(err), caller.prefix if caller else "-"
    except DatabaseUnavailable as exc:
        log.warning("database unavailable: %s", exc)
        err = ApiError("unavailable", "the database cannot be reached for a moment; retry shortly",
                       headers={"Retry-After": "2"})
        if caller is not None and counted:
            await _refund(service, caller)
        return error_response(err), caller.prefix if caller else "-"
    except Exception:
        log.exception("unhandled error on %s", request.path)
        if caller is not None and counted:
            await _refund(service, caller)
        return error_response(ApiError("internal_error", "an internal error; it has been logged")), "-"


async def _refund(service: Service, caller: Caller) -> Caller:
    """Takes back a call refused after it was counted; when the database is the fault, the
    worker takes it back once the database answers again (svc.access.take_backs)."""
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


def _log(method: str, path: str, status: int, ms: float, prefix: str) -> None:
    # Never the query string: a key sent there must not reach the logs.
    log.info("%s %s %d %.1fms key=%s", method, path, status, ms, prefix,
             extra={"method": method, "path": path, "status": status, "ms": round(ms, 1), "key": prefix})

