"""Cached answers written straight from the ASGI scope, ahead of Quart: the request path of a
read whose answer is ready, with no framework and no statement.

A GET to a cacheable endpoint (one plan, counted, no plan decided by its parameters) whose key
the worker can serve from its block of calls (svc.access.allowances) and whose answer is in the
answer cache for the current data version is answered here: the same bytes and the same headers
as the full path (svc.web.pipeline, svc.web.responses, svc.web.cors, svc.web.request_id) -- the
rate-limit fields, ETag and its 304, the gzip form, Cache-Control, Vary, CORS, Request-Id --
with the same access log line and metrics. Everything else (a miss, an error of any kind, a key
the worker holds no calls of, a path Quart would refuse) goes to Quart untouched, before anything
was counted. tests/service/test_cached_reads.py compares both paths byte for byte.

The query string is read as Werkzeug reads it for Quart (urllib's parse_qsl with Werkzeug's
error handler), and the path matched against the app's own URL map, so both paths see the same
parameters.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from urllib.parse import parse_qsl

import trio
from hypercorn.typing import ASGISendCallable, Scope
from quart_trio import QuartTrio
from werkzeug.exceptions import HTTPException
from werkzeug.routing import MapAdapter

from svc.access.caller import key_from_headers
from svc.core import metrics
from svc.core.errors import ApiError
from svc.web import paging
from svc.web.cors import EXPOSED
from svc.web.encoding import Encoded, accepts_gzip
from svc.web.endpoint import Endpoint
from svc.web.params import parse
from svc.web.pipeline import answer_key, log_request
from svc.web.refusals import URL_MAX
from svc.web.request_id import HEADER, INCOMING, chosen_id
from svc.web.responses import JSON, KEYED, VARY
from svc.web.service import Service


class RawHeaders:
    """A request's headers as the ASGI scope holds them, read as Quart's Headers would be."""

    def __init__(self, raw: Iterable[tuple[bytes, bytes]]) -> None:
        self._values: dict[str, list[str]] = {}
        for name, value in raw:
            self._values.setdefault(name.decode("latin1").lower(), []).append(value.decode("latin1"))

    def getlist(self, key: str) -> list[str]:
        return self._values.get(key.lower(), [])

    def get(self, key: str, default: str = "") -> str:
        values = self._values.get(key.lower())
        return values[0] if values else default


class CachedReads:
    def __init__(self, app: QuartTrio, service: Service, endpoints: Sequence[Endpoint]) -> None:
        self._service = service
        self._endpoints = {ep.path: ep for ep in endpoints if ep.cache_ttl and ep.counted and ep.plan_for is None}
        self._app = app
        self._urls: MapAdapter | None = None  # bound at the first request, once every route is added

    async def answer(self, scope: Scope, send: ASGISendCallable) -> bool:
        """Whether the request was answered here (else Quart answers it)."""
        cache = self._service.cache
        if cache is None or scope["type"] != "http" or scope["method"] != "GET":
            return False
        started = trio.current_time()
        path, query_string = scope["path"], scope["query_string"]
        if any(segment in ("", ".", "..") for segment in path[1:].split("/")):
            return False
        if len(scope.get("raw_path") or b"") + len(query_string) > URL_MAX:
            return False
        try:
            if self._urls is None:
                self._urls = self._app.url_map.bind("")
            name, path_params = self._urls.match(path, method="GET")
        except HTTPException:
            return False
        ep = self._endpoints.get(name)
        if ep is None:
            return False
        headers = RawHeaders(scope["headers"])
        query: dict[str, list[str]] = {}
        for k, v in parse_qsl(query_string.decode(), keep_blank_values=True, errors="werkzeug.url_quote"):
            query.setdefault(k, []).append(v)
        try:
            key = key_from_headers(headers, query)
            p = parse(ep.params, query, path_params)
            window = paging.window(p, ep.path, path_params, query) if ep.paged else None
        except ApiError:
            return False  # answered by the full path, with its error and headers
        served = self._service.allowances.served_with(
            key, ep.plan, lambda plan, version: cache.get(answer_key(ep, path_params, p, window, plan), version)
        )
        if served is None:
            return False
        caller, cached = served
        metrics.CACHE.labels("hit").inc()
        rid = chosen_id(next((v for n in INCOMING if (v := headers.get(n))), ""))
        status, head, body = _answered(cached, headers)
        out = [
            *caller.headers.items(),
            *head,
            ("Access-Control-Allow-Origin", "*"),
            ("Access-Control-Expose-Headers", EXPOSED),
            (HEADER, rid),
        ]
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(k.lower().encode("latin1"), v.encode("latin1")) for k, v in out],
                "trailers": False,
            }
        )
        await send({"type": "http.response.body", "body": body, "more_body": False})
        seconds = trio.current_time() - started
        log_request("GET", path, status, seconds * 1000, caller.prefix, rid)
        metrics.REQUESTS.labels(ep.path, str(status)).inc()
        metrics.LATENCY.labels(ep.path).observe(seconds)
        return True


def _answered(answer: Encoded, headers: RawHeaders) -> tuple[int, list[tuple[str, str]], bytes]:
    """As svc.web.responses.answered: the form sent, its ETag, a 304 when the client holds it."""
    gzipped = answer.compressible and accepts_gzip(headers.get("Accept-Encoding"))
    etag = answer.gzip_etag if gzipped else answer.etag
    head = [("ETag", etag), ("Cache-Control", KEYED), ("Vary", VARY)]
    sent = headers.get("If-None-Match")
    if sent and (sent.strip() == "*" or etag in (t.strip().removeprefix("W/") for t in sent.split(","))):
        return 304, head, b""
    body = answer.gzipped() if gzipped else answer.plain
    if gzipped:
        head.append(("Content-Encoding", "gzip"))
    return 200, [*head, ("Content-Type", JSON), ("Content-Length", str(len(body)))], body
