"""Requests to the API's JSON endpoints answered straight from the ASGI scope, ahead of Quart.

Quart's part of a request (its request and app contexts, routing, the before/after hooks, the
response's way back through ASGI) cost about 0.4 ms of a worker's time per request here, more than
a cached answer costs in all. So a GET to a JSON endpoint is read from its scope (svc.web.incoming),
walked through the same pipeline (svc.web.pipeline: key, parameters, limits, the answer cache, the
handler) and sent with the headers Quart's hooks would add (svc.web.cors, svc.web.request_id).
What this layer does not answer goes to Quart untouched, before anything was counted: another
method, a path no endpoint serves or that the refusals answer (svc.web.refusals: an empty or dot
segment, a URL too long), and the pages. A stream (text/event-stream) is sent by svc.web.streaming. tests/service/
test_direct_answers.py compares both ways byte for byte, cached and not, errors included.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypercorn.typing import ASGIReceiveCallable, ASGISendCallable, HTTPResponseBodyEvent, Scope
from quart_trio import QuartTrio
from werkzeug.exceptions import HTTPException
from werkzeug.routing import MapAdapter

from svc.web.cors import HEADERS as CORS_HEADERS
from svc.web.endpoint import Endpoint
from svc.web.incoming import Incoming
from svc.web.pipeline import answer_timed
from svc.web.refusals import URL_MAX
from svc.web.request_id import HEADER
from svc.web.responses import Reply
from svc.web.service import Service
from svc.web.streaming import send_streamed

ANSWERED = frozenset({"application/json", "text/event-stream"})  # the media types of the endpoints answered here
MATCHES_KEPT = 4096  # paths whose match is kept (all forgotten at once when full)
HEADERS_KEPT = 4096  # header pairs kept encoded (likewise)
CORS_RAW = [(name.lower().encode(), value.encode()) for name, value in CORS_HEADERS]
RAW_HEADER = HEADER.lower().encode()


_RAW: dict[tuple[str, str], tuple[bytes, bytes]] = {}  # header pairs as sent, kept: most repeat


def _raw(pair: tuple[str, str]) -> tuple[bytes, bytes]:
    """A header as ASGI sends it; the same pair is the same object each time. Hypercorn keeps a
    stream's head for as long as the stream lasts: its fixed headers are then shared, not ~1 KiB
    each time (and encoding them costs nothing after the first)."""
    raw = _RAW.get(pair)
    if raw is None:
        if len(_RAW) >= HEADERS_KEPT:
            _RAW.clear()
        raw = _RAW[pair] = (pair[0].lower().encode(), pair[1].encode())
    return raw


class DirectAnswers:
    def __init__(self, app: QuartTrio, service: Service, endpoints: Sequence[Endpoint]) -> None:
        self._service = service
        self._endpoints = {ep.path: ep for ep in endpoints if ep.media_type in ANSWERED}
        self._app = app
        self._urls: MapAdapter | None = None  # bound at the first request, once every route is added
        # a path's endpoint and path parameters, or None for one this layer leaves to Quart: matching
        # costs a tenth of a cached answer, and most calls ask again for paths asked before
        self._matched: dict[str, tuple[Endpoint, dict[str, str]] | None] = {}

    async def answer(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> bool:
        """Whether the request was answered here (else Quart answers it)."""
        if scope["type"] != "http" or scope["method"] != "GET" or scope.get("root_path"):
            return False
        if len(scope.get("raw_path") or b"") + len(scope["query_string"]) > URL_MAX:
            return False
        path = scope["path"]
        if path in self._matched:
            matched = self._matched[path]
        else:
            matched = self._match(path)
            if len(self._matched) >= MATCHES_KEPT:
                self._matched.clear()
            self._matched[path] = matched
        if matched is None:
            return False
        ep, path_params = matched
        incoming = Incoming.from_scope(scope)
        reply = await answer_timed(ep, self._service, path_params, incoming, self._app)
        # as Quart's after-request hooks add them (svc.web.cors, then svc.web.request_id)
        headers = [_raw(pair) for pair in reply.headers]
        headers += [*CORS_RAW, (RAW_HEADER, incoming.request_id.encode())]
        if not isinstance(reply, Reply):  # a stream, for minutes: its frame keeps only what it sends from now
            status, body = reply.status, reply.body
            del reply, incoming  # the request as read and the head as text: ~2 KiB a stream
            await send_streamed(status, headers, body, receive, send)
            return True
        await send({"type": "http.response.start", "status": reply.status, "headers": headers, "trailers": False})
        last: HTTPResponseBodyEvent = {"type": "http.response.body", "body": reply.body, "more_body": False}
        await send(last)
        return True

    def _match(self, path: str) -> tuple[Endpoint, dict[str, str]] | None:
        if not path.startswith("/") or any(segment in ("", ".", "..") for segment in path[1:].split("/")):
            return None  # svc.web.refusals answers it
        try:
            if self._urls is None:
                self._urls = self._app.url_map.bind("")
            name, path_params = self._urls.match(path, method="GET")
        except HTTPException:
            return None
        ep = self._endpoints.get(name)
        return None if ep is None else (ep, dict(path_params))
