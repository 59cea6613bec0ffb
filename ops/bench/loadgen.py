"""A small HTTP/1.1 keep-alive load generator on Trio: N connections, each sending one
request after another for a fixed time, recording every latency. Written here because
the bench must run on a machine with only Python (no wrk), and it is fast enough
(well above what one Hypercorn worker answers) to measure the server, not itself."""

from __future__ import annotations

import time

import attrs
import trio


@attrs.define
class Result:
    latencies: list[float] = attrs.field(factory=list)
    statuses: dict[int, int] = attrs.field(factory=dict)
    seconds: float = 0.0
    reconnects: int = 0

    @property
    def requests(self) -> int:
        return len(self.latencies)

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    def pct(self, q: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000  # ms


async def _more(stream: trio.SocketStream, buf: bytearray) -> None:
    chunk = await stream.receive_some(65536)
    if not chunk:  # the server closed the connection
        raise ConnectionError("server closed the connection")
    buf += chunk


async def _read_response(stream: trio.SocketStream, buf: bytearray) -> int:
    while b"\r\n\r\n" not in buf:
        await _more(stream, buf)
    head_end = buf.index(b"\r\n\r\n") + 4
    head = bytes(buf[:head_end]).decode("latin-1").lower()
    status = int(head.split(" ", 2)[1])
    del buf[:head_end]
    if "transfer-encoding: chunked" in head:
        while b"0\r\n\r\n" not in buf:
            await _more(stream, buf)
        del buf[: buf.index(b"0\r\n\r\n") + 5]
        return status
    length = 0
    for line in head.split("\r\n"):
        if line.startswith("content-length:"):
            length = int(line.split(":", 1)[1])
    while len(buf) < length:
        await _more(stream, buf)
    del buf[:length]
    return status


async def _connection(host: str, port: int, requests: list[bytes], until: float, out: Result) -> None:
    i = 0
    while trio.current_time() < until:
        # Hypercorn closes a keep-alive connection after keep_alive_max_requests (1,000):
        # open a new one and go on, as a browser or HTTP library would.
        stream = await trio.open_tcp_stream(host, port)
        buf = bytearray()
        async with stream:
            try:
                while trio.current_time() < until:
                    started = time.perf_counter()
                    await stream.send_all(requests[i % len(requests)])
                    status = await _read_response(stream, buf)
                    out.latencies.append(time.perf_counter() - started)
                    out.statuses[status] = out.statuses.get(status, 0) + 1
                    i += 1
            except (ConnectionError, trio.BrokenResourceError):
                out.reconnects += 1


def request_bytes(path: str, headers: dict[str, str]) -> bytes:
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in headers.items()), "", ""]
    return "\r\n".join(lines).encode()


async def load(host: str, port: int, requests_per_connection: list[list[bytes]], seconds: float) -> Result:
    """Each connection cycles through its own list of requests (e.g. with its own key)."""
    out = Result()
    started = trio.current_time()
    until = started + seconds
    async with trio.open_nursery() as nursery:
        for reqs in requests_per_connection:
            nursery.start_soon(_connection, host, port, reqs, until, out)
    out.seconds = trio.current_time() - started
    return out
