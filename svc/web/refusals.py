"""Requests no endpoint answers: a URL too long, an empty or dot segment, HEAD, no such path, a
method other than GET, an error nothing else caught. Each is answered as the API answers its
errors (JSON naming the problem), never counted, and with the rate-limit headers when the request
carries a valid key; each has its access log line.
"""

from __future__ import annotations

import logging

from quart import Response, request
from quart_trio import QuartTrio
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed, NotFound

from svc.core import metrics
from svc.core.errors import ApiError
from svc.web.incoming import Incoming
from svc.web.pipeline import log_request, valid_key_headers
from svc.web.responses import error_reply
from svc.web.service import Service

log = logging.getLogger("svc.access")
URL_MAX = 8192  # bytes of path and query string


def refuse_what_no_endpoint_serves(app: QuartTrio, service: Service) -> None:
    """Adds the checks that run before routing, and the answer to what routing refuses."""

    @app.before_request
    async def url_length() -> Response | None:
        # Hypercorn (svc.serve) lets a request head of up to 256 KiB through so that a long URL gets
        # this JSON answer instead of an empty 431; a head beyond that still gets Hypercorn's 431.
        if len(request.scope.get("raw_path", b"")) + len(request.scope.get("query_string", b"")) > URL_MAX:
            return await refused(
                service,
                ApiError(
                    "bad_request", f"the URL is longer than {URL_MAX} bytes; no parameter of this API needs that much"
                ),
            )
        return None

    @app.before_request
    async def path_segments() -> Response | None:
        # Werkzeug strips leading slashes (request.path, and again before matching), so
        # `//v1/countries` would be served as `/v1/countries`; an empty or dot segment anywhere is
        # an unknown path instead (README), never served under another path's name nor redirected.
        path = request.scope.get("path") or request.path
        if any(segment in ("", ".", "..") for segment in path[1:].split("/")):
            return await refused(
                service,
                ApiError(
                    "not_found",
                    f"no endpoint at {path}: a path has no empty, '.' or '..' segment; see /v1/openapi.json",
                ),
            )
        return None

    @app.before_request
    async def only_get() -> Response | None:
        # Werkzeug serves HEAD for every GET rule; the contract serves GET only, so HEAD is refused
        # like any other method (and never counted).
        if request.method == "HEAD":
            return await refused(
                service,
                ApiError(
                    "method_not_allowed", "HEAD is not served; every endpoint answers GET", headers={"Allow": "GET"}
                ),
            )
        return None

    @app.errorhandler(HTTPException)
    async def http_error(exc: HTTPException) -> Response:
        if isinstance(exc, MethodNotAllowed):
            err = ApiError(
                "method_not_allowed",
                f"{request.method} is not served; every endpoint answers GET",
                headers={"Allow": "GET"},
            )
        elif isinstance(exc, NotFound):
            err = ApiError("not_found", f"no endpoint at {request.path}; see /v1/openapi.json")
        elif isinstance(exc, InternalServerError):
            log.error("unhandled error on %s", request.path, exc_info=exc.original_exception)
            err = ApiError("internal_error", "an internal error; it has been logged")
        else:
            err = ApiError("bad_request", f"the request cannot be read: {exc.description}")
        return await refused(service, err)


async def refused(service: Service, err: ApiError) -> Response:
    """An error answered outside an endpoint: never counted, with the rate-limit headers when the
    request carries a valid key."""
    incoming = Incoming.from_quart()
    headers, prefix = await valid_key_headers(service, incoming) if err.status < 500 else ({}, "-")
    err.headers = {**headers, **err.headers}
    log_request(incoming.method, incoming.path, err.status, 0.0, prefix, incoming.request_id)
    metrics.REQUESTS.labels("unmatched", str(err.status)).inc()
    return error_reply(err, incoming).response()
