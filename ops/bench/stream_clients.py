"""The live-stream benchmark's client side (ops/bench/stream.py): subscribers on raw Trio sockets
(cheap, so the client side takes little of the cores it shares with the server), the keys ours
hold, and the triggers of a change (ours: a change committed in PostgreSQL as the feed writes it;
the peer: GET /publish)."""

from __future__ import annotations

import datetime as dt
import os
import time

import trio


async def make_keys(url: str, n: int) -> list[str]:
    from svc.access import keys as svc_keys
    from svc.core.db import connect_asyncio

    conn = await connect_asyncio(url)
    try:
        return [
            await svc_keys.create_key(conn, plan="live", account=f"bench-stream-{os.getpid()}-{i}") for i in range(n)
        ]
    finally:
        await conn.close()


async def publish_one(url: str) -> tuple[int, float]:
    """Writes one change of a match in play as the feed would; (seq, commit time)."""
    from svc.core.db import connect_asyncio
    from svc.core.sqlrun import Tx
    from svc.world.feed.publish import publish

    conn = await connect_asyncio(url)
    try:
        # a match in play, else the latest to start (a world whose play has stopped still gets changes)
        mid = await conn.fetchval(
            "SELECT id FROM matches WHERE start_at IS NOT NULL ORDER BY status = 'live' DESC, start_at DESC, id LIMIT 1"
        )
        async with conn.transaction():
            seq = await publish(Tx(conn), mid, "score", dt.datetime.now(dt.UTC))
        return seq, time.perf_counter()
    finally:
        await conn.close()


class Client:
    def __init__(self) -> None:
        self.buf = bytearray()
        self.ok = False
        self.arrived: dict[bytes, float] = {}
        self.want: bytes | None = None


async def publish_peer(port: int, seq: int) -> tuple[int, float]:
    """Triggers one broadcast on the peer; (seq, time the request was sent)."""
    s = await trio.open_tcp_stream("127.0.0.1", port)
    async with s:
        sent = time.perf_counter()
        await s.send_all(f"GET /publish?seq={seq} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
        while await s.receive_some(65536):
            pass
    return seq, sent


async def stream_client(
    port: int, request: bytes, c: Client, opened: trio.MemorySendChannel, opening: trio.CapacityLimiter
) -> None:
    told = False
    try:
        async with opening:  # held until the response head arrives
            s = await trio.open_tcp_stream("127.0.0.1", port)
            await s.send_all(request)
            while not told:
                chunk = await s.receive_some(65536)
                if not chunk:
                    await s.aclose()
                    return
                c.buf += chunk
                if b"\r\n\r\n" in c.buf:
                    c.ok = c.buf.startswith(b"HTTP/1.1 200")
                    told = True
                    await opened.send(c.ok)
        async with s:
            while True:
                chunk = await s.receive_some(65536)
                if not chunk:
                    return
                c.buf += chunk
                if c.want is not None and c.want in c.buf and c.want not in c.arrived:
                    c.arrived[c.want] = time.perf_counter()
                if len(c.buf) > 1 << 14:
                    del c.buf[
                        : len(c.buf) - 4096
                    ]  # keep a tail longer than one message: the marker may straddle chunks
    except (OSError, trio.BrokenResourceError):
        pass
    finally:
        if not told:
            with trio.CancelScope(shield=True):
                await opened.send(False)
