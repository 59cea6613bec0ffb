"""A tool call made as the HTTP call it stands for: through the app's own request path, in
process (key check, plan, limits, counting, answer cache, logs: one tool call is one call).

The app is called as ASGI with a GET of the endpoint's path and query, the caller's key in the
Authorization header, and the host and scheme of the service as its caller reaches it (`origin`),
so that the answer's links (an error's `docs`) are the service's own. For the live stream the
client side disconnects after the asked number of seconds, as an HTTP client closing its
connection would: the stream ends there and frees its slot.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import attrs
import orjson
import trio

from svc.tools.catalog import STREAM_SECONDS_DEFAULT, STREAM_SECONDS_MAX, Tool
from svc.web.incoming import receive_then_disconnect

ASGIApp = Callable[[dict, Callable[[], Awaitable[dict]], Callable[[dict], Awaitable[None]]], Awaitable[None]]
STREAM_CLOSE_S = 5.0  # after the client side leaves, the app's stream has this long to end


@attrs.frozen
class Outcome:
    status: int
    body: bytes
    headers: dict[str, str]

    @property
    def ok(self) -> bool:
        return self.status == 200


class ArgumentError(ValueError):
    """Arguments that cannot make a request (a missing path parameter, a stray type)."""


def request_target(tool: Tool, arguments: dict[str, Any]) -> tuple[str, str]:
    """The path and query string for `arguments` (path parameters filled in, lists repeated)."""
    args = dict(arguments)
    if tool.stream:
        args.pop("seconds", None)
    path = tool.path
    for name in tool.path_params:
        value = args.pop(name, None)
        if value is None or value == "":
            raise ArgumentError(f"argument `{name}` is required")
        path = path.replace("{" + name + "}", quote(str(value), safe=""))
    pairs: list[tuple[str, str]] = []
    for name, value in args.items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            if isinstance(v, (dict, list)):
                raise ArgumentError(f"argument `{name}` takes a string, a number or a list of them")
            pairs.append((name, "true" if v is True else "false" if v is False else str(v)))
    return path, urlencode(pairs)


async def call(app: ASGIApp, tool: Tool, arguments: dict[str, Any], key: str | None, origin: str) -> Outcome:
    """The endpoint's answer to `arguments` with `key` (None: no key, as a call without one), asked
    of the service at `origin` (scheme://host[:port], as its caller reaches it)."""
    path, query = request_target(tool, arguments)
    scheme, host, server = _origin(origin)
    headers = [(b"host", host.encode("latin-1", "replace")), (b"user-agent", b"svc-tools")]
    if key:
        headers.append((b"authorization", b"Bearer " + key.encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": scheme,
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 0),
        "server": server,
    }
    seconds = (
        min(STREAM_SECONDS_MAX, max(1, int(arguments.get("seconds", STREAM_SECONDS_DEFAULT)))) if tool.stream else 0
    )
    head: dict[str, Any] = {}
    chunks: list[bytes] = []
    leave = trio.Event()
    receive = receive_then_disconnect(leave)

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            head.update(message)
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                leave.set()

    done = trio.Event()

    async def serve() -> None:
        try:
            await app(scope, receive, send)
        finally:
            done.set()
            leave.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(serve)
        if tool.stream:
            with trio.move_on_after(seconds):
                await done.wait()
            leave.set()  # the client side leaves: the stream ends and frees its slot
            with trio.move_on_after(STREAM_CLOSE_S):
                await done.wait()
            nursery.cancel_scope.cancel()
    got = {bytes(k).decode("latin-1").lower(): bytes(v).decode("latin-1") for k, v in head.get("headers", [])}
    return Outcome(head.get("status", 500), b"".join(chunks), got)


def _origin(origin: str) -> tuple[str, str, tuple[str, int]]:
    """The scheme, the Host header and the ASGI `server` of a request to `origin`."""
    where = urlsplit(origin)
    scheme = where.scheme if where.scheme in ("http", "https") else "http"
    default = 443 if scheme == "https" else 80
    try:
        port = where.port or default
    except ValueError:  # a Host header's port that is not a number: the app answers as for any host
        port = default
    return scheme, where.netloc or "localhost", (where.hostname or "localhost", port)


def stream_messages(body: bytes) -> list[dict[str, Any]]:
    """Server-Sent Events as messages: event, id, data (parsed as JSON where it is JSON)."""
    out = []
    for block in body.decode("utf-8", "replace").replace("\r\n", "\n").split("\n\n"):
        event: dict[str, Any] = {}
        data: list[str] = []
        for line in block.split("\n"):
            if not line or line.startswith(":"):
                continue
            field, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if field == "data":
                data.append(value)
            elif field in ("event", "id"):
                event[field] = value
        if data:
            text = "\n".join(data)
            try:
                event["data"] = orjson.loads(text)
            except orjson.JSONDecodeError:
                event["data"] = text
            event.setdefault("event", "message")
            out.append(event)
    return out
