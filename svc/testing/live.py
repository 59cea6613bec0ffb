"""The whole app in-process for live tests (running_app), with an httpx transport that
streams its response body, so a real SSE client (httpx-sse) can read /v1/live/stream under
Trio's mock clock; a background stream Reader; and publish_changes, which writes changes the
way the feed does.

(httpx.ASGITransport collects the whole body before returning, which never happens for a
stream.) Closing the response tells the app the client disconnected; `kill()` on the
returned stream does the same without a goodbye, as a vanished client would.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import trio

# This module alone of svc/testing drives the app through an HTTP client, and that client is a test
# dependency: the installed service (the wheel, the zipapp) does not carry it, and a bare
# ModuleNotFoundError would not say where to get it.
try:
    import httpx
    from httpx_sse import aconnect_sse
except ModuleNotFoundError as missing:
    raise ModuleNotFoundError(
        f"svc.testing.live needs the test extra ({missing.name} is not installed): pip install 'badminton-svc[test]'",
        name=missing.name,
    ) from missing

from svc.assembly import create_app
from svc.world.feed.publish import publish

CHUNKS_BUFFERED = 1  # body chunks in flight between app and reader: a reader that stops reading stalls the app's send


class _Body(httpx.AsyncByteStream):
    def __init__(self, chunks: trio.MemoryReceiveChannel, disconnect: trio.Event) -> None:
        self.chunks = chunks
        self.disconnect = disconnect

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self.chunks:
            yield chunk

    async def aclose(self) -> None:
        self.disconnect.set()
        self.chunks.close()


class StreamingASGITransport(httpx.AsyncBaseTransport):
    def __init__(self, app: Any, nursery: trio.Nursery) -> None:
        self.app = app
        self.nursery = nursery

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": request.method,
            "scheme": request.url.scheme,
            "path": request.url.path,
            "raw_path": request.url.raw_path.split(b"?")[0],
            "query_string": request.url.query,
            "root_path": "",
            "headers": [(k.lower(), v) for k, v in request.headers.raw],
            "client": ("127.0.0.1", 50000),
            "server": (request.url.host, request.url.port or 80),
        }
        chunk_send, chunk_receive = trio.open_memory_channel[bytes](CHUNKS_BUFFERED)
        disconnect = trio.Event()
        started = trio.Event()
        head: dict[str, Any] = {}
        sent_request = False

        async def receive() -> dict:
            nonlocal sent_request
            if not sent_request:
                sent_request = True
                return {"type": "http.request", "body": body, "more_body": False}
            await disconnect.wait()
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            if message["type"] == "http.response.start":
                head.update(message)
                started.set()
            elif message["type"] == "http.response.body":
                try:
                    if message.get("body"):
                        await chunk_send.send(message["body"])
                    if not message.get("more_body", False):
                        chunk_send.close()
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    disconnect.set()

        async def serve() -> None:
            try:
                await self.app(scope, receive, send)
            finally:
                chunk_send.close()
                started.set()

        self.nursery.start_soon(serve)
        await started.wait()
        if "status" not in head:
            raise httpx.ConnectError("the app ended without answering")
        headers = [(bytes(k), bytes(v)) for k, v in head.get("headers", [])]
        return httpx.Response(head["status"], headers=headers, stream=_Body(chunk_receive, disconnect), request=request)


# -- an app with the live components, for tests ---------------------------------------


@asynccontextmanager
async def running_app(db_url: str, clock: Any, components: Any = (), mock_clock: Any = None, step: float = 0.02):
    """The app (svc.assembly.create_app) started with `components`, and an httpx client talking to
    it in-process. With `mock_clock`, virtual time stands still while the app starts and
    stops (their timeouts must not fire while a database thread works) and otherwise jumps
    whenever every task has waited `step` real seconds."""
    app = create_app(db_url, clock=clock, pool_size=4, components=list(components))
    if mock_clock is not None:
        _RUNNING[id(mock_clock)] = _RUNNING.get(id(mock_clock), 0) + 1
        mock_clock.autojump_threshold = float("inf")
    try:
        async with app.test_app():
            if mock_clock is not None:
                mock_clock.autojump_threshold = step
            try:
                async with trio.open_nursery() as requests:  # the app's side of each request
                    transport = StreamingASGITransport(app, requests)
                    async with httpx.AsyncClient(transport=transport, base_url="http://live.test") as client:
                        yield app, client
                    requests.cancel_scope.cancel()  # streams still open
            finally:
                # Virtual time stands still while the app stops: its components' cleanup (slot
                # releases) waits on the database thread, not on Trio's clock.
                if mock_clock is not None:
                    mock_clock.autojump_threshold = float("inf")
    finally:
        if mock_clock is not None:
            _RUNNING[id(mock_clock)] -= 1
            if _RUNNING[id(mock_clock)]:  # another app still runs on this clock: time moves on
                mock_clock.autojump_threshold = step


_RUNNING: dict[int, int] = {}  # apps running per mock clock (several may share one test)


# -- reading a stream and writing changes, as a client and the feed do ----------------------

LIVE_SQL = "SELECT id, discipline FROM matches WHERE status = 'live' ORDER BY id"


def auth(key: str, **extra: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", **extra}


async def publish_changes(app, match_ids: list[str], kind: str = "score") -> list[int]:
    service = app.extensions["svc"]
    seqs = []
    for mid in match_ids:
        now = service.clock.now()  # read on the Trio side; the work runs on asyncpg's thread
        seqs.append(await service.db.transaction(lambda conn, mid=mid, now=now: publish(conn, mid, kind, now)))
    return seqs


class Reader:
    """Reads one stream in the background, noting each event with the virtual time it came."""

    def __init__(self) -> None:
        self.events: list[tuple[float, object]] = []
        self.status: int | None = None
        self.headers: httpx.Headers | None = None
        self.body: dict | None = None
        self.opened = trio.Event()
        self.closed = trio.Event()
        self.kill = trio.CancelScope()

    async def run(self, client: httpx.AsyncClient, key: str, path: str = "/v1/live/stream", **headers: str) -> None:
        try:
            with self.kill:
                async with aconnect_sse(client, "GET", path, headers=auth(key, **headers)) as source:
                    self.status, self.headers = source.response.status_code, source.response.headers
                    if self.status != 200:
                        self.body = (await source.response.aread()) and source.response.json()
                        return
                    self.opened.set()
                    async for event in source.aiter_sse():
                        self.events.append((trio.current_time(), event))
        finally:
            self.opened.set()
            self.closed.set()

    def named(self, name: str):
        return [(t, e) for t, e in self.events if e.event == name]
