"""One HTTP request on a Quart-Trio app under Hypercorn, ending so that Hypercorn can close or
reuse the connection.

Quart-Trio runs a request as two tasks in a nursery: one sends the response, the other waits for
`http.disconnect` and cancels the first when it comes. Hypercorn queues that `http.disconnect`
itself, from inside the send of the response's last message, and then goes on, in that same
send, to finish the connection: close it (`Connection: close`, HTTP/1.0) or arm its keep-alive
timer. The queued disconnect cancels that work at its first checkpoint, so the socket stayed open
with no timer on it: 1,000 `Connection: close` requests left 1,000 sockets open for minutes
(issue "Connections that close"). A bare ASGI app is not cancelled there and closes at once.

So the last message of a response is sent shielded from that cancellation: a client that went
away still ends the body early (the cancellation reaches every earlier message), but the send
that hands the connection back to Hypercorn always finishes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import trio
from hypercorn.typing import ASGIReceiveCallable, ASGISendCallable, ASGISendEvent, Scope
from quart.typing import ResponseTypes
from quart_trio import QuartTrio
from quart_trio.asgi import TrioASGIHTTPConnection

# The last message is a few bytes (the body was sent before it); Hypercorn writes them shielded
# itself. This bounds only our part, should a checkpoint of its own ever wait.
LAST_SEND_S = 10.0


class ClosingHTTPConnection(TrioASGIHTTPConnection):
    async def _send_response(self, send: ASGISendCallable, response: ResponseTypes) -> None:
        async def send_last_shielded(message: ASGISendEvent) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                with trio.CancelScope(shield=True) as scope:
                    scope.relative_deadline = LAST_SEND_S
                    await send(message)
            else:
                await send(message)

        await super()._send_response(send_last_shielded, response)


class ServiceApp(QuartTrio):
    """Quart-Trio whose requests end as above (its extension point for the HTTP connection), with a
    layer ahead of it that answers the API's JSON endpoints itself (svc.web.direct): `answered_ahead`,
    when set, answers a request or declines it, and Quart answers what it declines."""

    asgi_http_class = ClosingHTTPConnection
    answered_ahead: Callable[[Scope, ASGIReceiveCallable, ASGISendCallable], Awaitable[bool]] | None = None

    async def __call__(self, scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        if self.answered_ahead is None or not await self.answered_ahead(scope, receive, send):
            await self.asgi_app(scope, receive, send)
