"""ops/bench/stream_peer.py: the peer that ops/bench/stream.py compares our live stream against.

A minimal sse-starlette app, run by the bench on uvicorn (one worker, 127.0.0.1):

    .venv/bin/python -m uvicorn ops.bench.stream_peer:app --host 127.0.0.1 --port 8001 --workers 1

- GET /stream: text/event-stream; a heartbeat (sse-starlette's ping comment) every 15 s; each
  broadcast sent as one message with `event:`, `id:` and a JSON `data:` line.
- GET /publish?seq=N: broadcasts one change (id N) to every subscriber now connected and answers
  with the number of subscribers it was handed to.

The broadcast is in memory: one bounded asyncio.Queue per subscriber; a subscriber whose queue is
full is dropped (its stream ends), as our hub drops a subscriber that cannot keep up. No keys, no
slots, no database, no replay: only what a stream needs to hold a connection and fan out.
Installed with the `bench` extra (`pip install -e ".[bench]"`).
"""

from __future__ import annotations

import asyncio
import json
import time

from sse_starlette.sse import EventSourceResponse, ServerSentEvent
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

QUEUE_SIZE = 64
_DROP = object()
subscribers: set[asyncio.Queue] = set()


async def stream(request: Request) -> EventSourceResponse:
    q: asyncio.Queue = asyncio.Queue(QUEUE_SIZE)
    subscribers.add(q)

    async def events():
        try:
            while True:
                msg = await q.get()
                if msg is _DROP:
                    return
                yield msg
        finally:
            subscribers.discard(q)

    return EventSourceResponse(
        events(), ping=15, sep="\n", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    )


async def publish(request: Request) -> PlainTextResponse:
    seq = request.query_params.get("seq", "0")
    event = ServerSentEvent(json.dumps({"seq": int(seq), "at": time.time()}), event="score", id=seq, sep="\n")
    handed = 0
    for q in list(subscribers):
        try:
            q.put_nowait(event)
            handed += 1
        except asyncio.QueueFull:  # cannot keep up: dropped, never slows the others
            subscribers.discard(q)
            while not q.empty():
                q.get_nowait()
            q.put_nowait(_DROP)
    return PlainTextResponse(str(handed))


app = Starlette(routes=[Route("/stream", stream), Route("/publish", publish)])

from ops.bench import gclog, layers  # noqa: E402  (full collections and memory by layer, when the bench asks)

gclog.install()
layers.install()
