"""The baseline: a bare ASGI app answering a fixed JSON body, served by Hypercorn with the same
settings as the service. What the HTTP layer alone costs on this machine. The body is a small one,
or the bytes of the file BARE_BODY (ops/bench/wrk.py: the very answer the service gives)."""

import os
from pathlib import Path

BODY = Path(os.environ["BARE_BODY"]).read_bytes() if os.environ.get("BARE_BODY") else b'{"data":[],"meta":{}}'


async def app(scope, receive, send):
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await send(
        {
            "type": "http.response.start",
            "status": 200,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": BODY})
