"""JSON answers on the wire: the content type, gzip when asked (svc.web.encoding), a strong ETag
with its 304, what caches may do with the answer, and the error body.

Cache-Control by kind of answer: an answer made for a key (its plan decides what it holds, and each
call is counted) is `private, no-cache` -- a shared cache never stores it, a browser may keep it but
asks again each time, with its ETag, to get a 304 -- and varies by the key headers and by
Accept-Encoding; an error is `no-store`. What needs no key and changes only with a release (the
OpenAPI description, /docs) is `public, max-age=300` (svc.web.docs).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Protocol

import attrs
import orjson
from quart import Response
from werkzeug.datastructures import Headers

from svc.core.errors import ApiError
from svc.web.encoding import Encoded, accepts_gzip
from svc.web.incoming import Incoming

JSON = "application/json"
KEYED = "private, no-cache"
VARY = "Authorization, X-API-Key, Accept-Encoding"
NEVER_STORED = "no-store"
PUBLIC = "public, max-age=300"  # the same for everyone; a release shows within five minutes


@attrs.frozen
class Reply:
    """An answer as it goes on the wire: status, headers in order, body. The layer ahead of Quart
    (svc.web.direct) sends it as it is; a Quart view hands Quart its Response."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes = b""

    def response(self) -> Response:
        response = Response(self.body, status=self.status, headers=Headers(self.headers))
        if self.status == 304:  # Quart would say text/html, and a length of 0 the answer does not have
            for name in ("Content-Type", "Content-Length"):
                response.headers.pop(name, None)
        return response


class StreamBody(Protocol):
    """A streamed answer's body: its chunks in order until it ends by itself (the last one its
    goodbye); `client_gone()`, called from another task, ends it soon and without a goodbye."""

    def __aiter__(self) -> AsyncIterator[bytes]: ...

    def client_gone(self) -> None: ...


@attrs.frozen
class Streamed:
    """A streamed answer (Server-Sent Events): status, headers in order, and its body. The layer
    ahead of Quart sends it itself (svc.web.streaming); a Quart view hands Quart a Response of it,
    which Quart cancels when the client goes away."""

    status: int
    headers: list[tuple[str, str]]
    body: StreamBody

    def response(self) -> Response:
        response = Response(self.body, status=self.status, headers=Headers(self.headers))
        response.timeout = None  # Quart's RESPONSE_TIMEOUT (60 s) would cut a long stream
        return response


def json_reply(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    return Reply(status, [*(headers or {}).items(), ("Content-Type", JSON), ("Content-Length", str(len(body)))], body)


def answered(
    answer: Encoded, headers: dict[str, str], incoming: Incoming, *, caching: str = KEYED, vary: str = VARY
) -> Reply:
    """A 200 with the ETag of the form sent (plain, or gzip when the request accepts it and the
    answer is big enough); 304 without a body when the request's If-None-Match already holds that
    ETag. Either way the call was counted."""
    gzipped = answer.compressible and accepts_gzip(incoming.header("Accept-Encoding"))
    etag = answer.gzip_etag if gzipped else answer.etag
    head = {**headers, "ETag": etag, "Cache-Control": caching, "Vary": vary}
    sent = incoming.header("If-None-Match")
    if sent and (sent.strip() == "*" or etag in (t.strip().removeprefix("W/") for t in sent.split(","))):
        # the validators and cache headers the 200 would carry, and no body, hence no body's type or length
        return Reply(304, list(head.items()))
    if gzipped:
        return json_reply(answer.gzipped(), 200, {**head, "Content-Encoding": "gzip"})
    return json_reply(answer.plain, 200, head)


def error_reply(err: ApiError, incoming: Incoming) -> Reply:
    docs = incoming.host_url.rstrip("/") + "/docs"
    return json_reply(orjson.dumps(err.body(docs)), err.status, {"Cache-Control": NEVER_STORED, **err.headers})
