"""What the request pipeline reads of a request, whichever layer received it: Quart (its `request`)
or the layer ahead of it (svc.web.direct, straight from the ASGI scope). Both read the same
things the same way -- the query string as Werkzeug parses it for Quart, the headers with every
value of a name, the host URL as Werkzeug builds it -- so that an answer does not depend on the
layer that made it (tests/service/test_direct_answers.py compares them byte for byte)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol
from urllib.parse import parse_qsl

import attrs
import trio
from hypercorn.typing import HTTPScope
from quart import request
from werkzeug.sansio.utils import get_current_url, get_host

from svc.web.request_id import INCOMING, chosen_id, request_id


class RawHeaders:
    """A request's headers as the ASGI scope holds them, read as Quart's Headers are: by name in
    any case, every value of a name kept."""

    def __init__(self, raw: Iterable[tuple[bytes, bytes]]) -> None:
        self._values: dict[str, list[str]] = {}
        for name, value in raw:
            self._values.setdefault(name.decode("latin1").lower(), []).append(value.decode("latin1"))

    def getlist(self, key: str) -> list[str]:
        return self._values.get(key.lower(), [])

    def get(self, key: str, default: str = "") -> str:
        values = self._values.get(key.lower())
        return values[0] if values else default

    def __contains__(self, key: str) -> bool:
        return key.lower() in self._values


class Headers(Protocol):
    """What the pipeline asks of headers (Quart's Headers and RawHeaders both have it): every value
    of a name, as sent."""

    def getlist(self, key: str) -> list[str]: ...


@attrs.frozen
class Incoming:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: Headers
    scheme: str
    server: tuple[str, int | None] | None
    request_id: str  # as the answer's Request-Id header and the access log line give it

    @property
    def host_url(self) -> str:
        """scheme://host/ as Werkzeug makes it for Quart (only an error's docs link needs it: made
        when asked, for it costs a tenth of a cached answer)."""
        return get_current_url(self.scheme, get_host(self.scheme, self.header("Host") or None, self.server))

    def header(self, name: str) -> str:
        """The first value of a header, or ""."""
        values = self.headers.getlist(name)
        return values[0] if values else ""

    @classmethod
    def from_quart(cls) -> Incoming:
        """The request Quart is answering."""
        return cls(
            method=request.method,
            path=request.path,
            query={k: request.args.getlist(k) for k in request.args},
            headers=request.headers,
            scheme=request.scheme,
            server=request.server,
            request_id=request_id(),
        )

    @classmethod
    def from_scope(cls, scope: HTTPScope) -> Incoming:
        """A request read from its ASGI scope, as Quart would read it."""
        headers = RawHeaders(scope["headers"])
        query: dict[str, list[str]] = {}
        if scope["query_string"]:
            for k, v in parse_qsl(scope["query_string"].decode(), keep_blank_values=True, errors="werkzeug.url_quote"):
                query.setdefault(k, []).append(v)
        server = scope.get("server")
        return cls(
            method=scope["method"],
            path=scope["path"],
            query=query,
            headers=headers,
            scheme=scope["scheme"],
            server=(server[0], server[1]) if server else None,
            request_id=chosen_id(next((v for name in INCOMING if (v := headers.get(name))), "")),
        )


def receive_then_disconnect(gone: trio.Event | None = None) -> Callable[[], Awaitable[dict[str, Any]]]:
    """An ASGI `receive` for a request made in process (an MCP tool's call, svc.tools.calls; tests):
    the (empty) request once, then `http.disconnect` once `gone` is set (never, without one: the
    client stays)."""
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        if gone is None:
            await trio.sleep_forever()
        else:
            await gone.wait()
        return {"type": "http.disconnect"}

    return receive
