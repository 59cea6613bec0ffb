"""A streamed answer (svc.web.responses.Streamed: the live stream's Server-Sent Events) sent by the
layer ahead of Quart (svc.web.direct) as ASGI messages itself.

Quart-Trio answers a request with a nursery of two tasks, one sending the body and one waiting for
`http.disconnect` to cancel it, under a request context and a Response: per open stream, kept for
its ~5 minutes, that was a third of a stream's memory and most of the time taken to open one
(ops/bench/stream.py). Here the body runs in the request's own task, and one small task waits for
`http.disconnect` and tells the body the client went away (`client_gone`): the body ends by itself,
so nothing is cancelled. Hypercorn's `send` does not tell: it swallows a write to a closed socket.

The end is sent as Quart sends it, an empty last message; shielded, as svc.web.connection explains
(Hypercorn finishes the connection inside that send). To a client that went away nothing more is
sent: Hypercorn closed the stream already.
"""

from __future__ import annotations

import trio
from hypercorn.typing import ASGIReceiveCallable, ASGISendCallable

from svc.web.connection import LAST_SEND_S
from svc.web.responses import StreamBody


async def send_streamed(
    status: int,
    headers: list[tuple[bytes, bytes]],
    body: StreamBody,
    receive: ASGIReceiveCallable,
    send: ASGISendCallable,
) -> None:
    """Sends a Streamed answer, its `headers` encoded (its own and the ones the layer adds), until
    its body ends or the client goes away."""
    gone = _Gone()
    await send({"type": "http.response.start", "status": status, "headers": headers, "trailers": False})
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_watch, receive, body, gone)
        try:
            async for chunk in body:
                if not gone.seen:  # else the body is ending: what it still yields has no one to go to
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
                # not kept while the body waits for its next message, often 15 s: the first chunk
                # holds every match in play (a few KiB per stream, ops/bench/stream.py's memory)
                del chunk
        finally:
            nursery.cancel_scope.cancel()
    if not gone.seen:
        with trio.CancelScope(shield=True) as scope:
            scope.relative_deadline = LAST_SEND_S
            await send({"type": "http.response.body", "body": b"", "more_body": False})


class _Gone:
    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen = False  # http.disconnect came: the client went away


async def _watch(receive: ASGIReceiveCallable, body: StreamBody, gone: _Gone) -> None:
    """Until the client goes away; then the body is told (a module function, not a closure: it
    lives as long as the stream)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    gone.seen = True
    body.client_gone()
