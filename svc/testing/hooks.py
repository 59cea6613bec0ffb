"""Webhook test peers on 127.0.0.1 -- a reference receiver and an SMTP sink -- and a watch
on the scheduler that tells when it has nothing left to do.

The receiver verifies deliveries the way the interface tells owners to, written from that
text and deliberately not importing svc_hooks.signing: the signature over the raw bytes
before parsing, a constant-time comparison, t at most 300 s old, repeats dropped by event id.
A demo receiver that prints what arrives: `python -m ops.webhook_receiver` (ops/).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable

import attrs
import h11
import trio

TOLERANCE_S = 300  # interface: refuse a delivery whose t is more than 5 minutes old


@attrs.define
class Received:
    at: float  # the receiver's clock (Unix seconds)
    headers: dict[str, str]
    raw: bytes
    status: int  # what the receiver answered (0: it never answered)
    verdict: str  # "ok", "duplicate", or why it was refused

    @property
    def body(self) -> dict:
        return json.loads(self.raw)


def verify(secret: str, header: str, raw: bytes, now: float) -> str:
    """'ok' or why the signature is refused."""
    fields: dict[str, list[str]] = {}
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        fields.setdefault(key, []).append(value)
    try:
        t = int(fields["t"][0])
    except (KeyError, ValueError):
        return "no timestamp"
    expected = hmac.new(secret.encode("utf-8"), f"{t}.".encode("ascii") + raw, hashlib.sha256).hexdigest()
    if not any(hmac.compare_digest(expected, v) for v in fields.get("v1", [])):
        return "bad signature"
    if now - t > TOLERANCE_S:
        return "too old"
    return "ok"


class _LocalServer:
    """Listens on 127.0.0.1 (port 0: any free one, in `port` once serving); `_poke` wakes `_wait_until`."""

    def __init__(self) -> None:
        self.port = 0
        self._changed = trio.Event()

    async def serve(self, port: int = 0, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
        listeners = await trio.open_tcp_listeners(port, host="127.0.0.1")
        self.port = listeners[0].socket.getsockname()[1]
        await trio.serve_listeners(self._handle, listeners, task_status=task_status)

    async def _wait_until(self, done: Callable[[], bool]) -> None:
        while not done():
            await self._changed.wait()

    def _poke(self) -> None:
        self._changed.set()
        self._changed = trio.Event()


class Receiver(_LocalServer):
    """POSTs on http://127.0.0.1:<port>/hook. `answer(n, request)` picks the status for the
    n-th request (from 1) that passed verification; None means never answer."""

    def __init__(
        self, secret: str, now: Callable[[], float], answer: Callable[[int, Received], int | None] = lambda n, r: 200
    ):
        super().__init__()
        self.secret, self.now, self.answer = secret, now, answer
        self.received: list[Received] = []
        self.handled: set[str] = set()
        self.delay_s = 0.0  # how long to wait before answering (a slow receiver)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    @property
    def accepted(self) -> list[Received]:
        return [r for r in self.received if r.verdict == "ok" and 200 <= r.status < 300]

    async def wait_for(self, count: int) -> None:
        await self._wait_until(lambda: len(self.received) >= count)

    async def _handle(self, stream: trio.SocketStream) -> None:
        conn = h11.Connection(h11.SERVER)
        headers: dict[str, str] = {}
        raw = b""
        try:
            while True:
                event = conn.next_event()
                if event is h11.NEED_DATA:
                    conn.receive_data(await stream.receive_some(65536))
                elif isinstance(event, h11.Request):
                    headers = {k.decode().lower(): v.decode() for k, v in event.headers}
                elif isinstance(event, h11.Data):
                    raw += event.data
                elif isinstance(event, (h11.EndOfMessage, h11.ConnectionClosed)):
                    break
        except (trio.BrokenResourceError, h11.ProtocolError):
            return
        got = Received(self.now(), headers, raw, 0, "")
        got.verdict = verify(self.secret, headers.get("x-svc-signature", ""), raw, got.at)
        if got.verdict == "ok":
            event_id = json.loads(raw)["id"]
            if headers.get("x-svc-delivery") != event_id:
                got.verdict = "delivery header differs from body id"
            elif event_id in self.handled:
                got.verdict = "duplicate"
        self.received.append(got)
        if got.verdict == "ok":
            n = sum(1 for r in self.received if r.verdict == "ok")
            status = self.answer(n, got)
        else:
            status = 200 if got.verdict == "duplicate" else 400  # a repeat is acknowledged, not handled twice
        self._poke()
        if status is None:
            await trio.sleep_forever()  # a receiver that never answers (cancelled with the test)
        got.status = status
        if got.verdict == "ok" and 200 <= status < 300:
            self.handled.add(json.loads(raw)["id"])  # handled now, whether or not the answer arrives in time
        self._poke()
        if self.delay_s:
            await trio.sleep(self.delay_s)
        try:
            await stream.send_all(
                conn.send(h11.Response(status_code=status, headers=[("Content-Length", "0"), ("Connection", "close")]))
                + conn.send(h11.EndOfMessage())
            )
        except (trio.BrokenResourceError, h11.ProtocolError):
            pass
        await trio.aclose_forcefully(stream)


@attrs.define
class Mail:
    sender: str
    recipients: list[str]
    data: str


class SmtpSink(_LocalServer):
    """Just enough SMTP (RFC 5321) for smtplib to hand over a message; keeps them in `mails`."""

    def __init__(self) -> None:
        super().__init__()
        self.mails: list[Mail] = []

    @property
    def url(self) -> str:
        return f"smtp://127.0.0.1:{self.port}"

    async def wait_for(self, count: int) -> None:
        await self._wait_until(lambda: len(self.mails) >= count)

    async def _handle(self, stream: trio.SocketStream) -> None:
        buffer = b""

        async def line() -> str:
            nonlocal buffer
            while b"\r\n" not in buffer:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    raise EOFError
                buffer += chunk
            text, buffer = buffer.split(b"\r\n", 1)
            return text.decode("utf-8", "replace")

        async def say(text: str) -> None:
            await stream.send_all(text.encode() + b"\r\n")

        sender, recipients = "", []
        try:
            await say("220 sink ESMTP")
            while True:
                command = await line()
                verb = command[:4].upper()
                if verb in ("EHLO", "HELO"):
                    await say("250 sink")
                elif verb == "MAIL":
                    sender, recipients = command.split(":", 1)[1].strip(" <>"), []
                    await say("250 OK")
                elif verb == "RCPT":
                    recipients.append(command.split(":", 1)[1].strip(" <>"))
                    await say("250 OK")
                elif verb == "DATA":
                    await say("354 end with <CRLF>.<CRLF>")
                    lines = []
                    while (text := await line()) != ".":
                        lines.append(text[1:] if text.startswith("..") else text)
                    self.mails.append(Mail(sender, recipients, "\n".join(lines)))
                    self._poke()
                    await say("250 OK queued")
                elif verb == "QUIT":
                    await say("221 bye")
                    return
                elif verb in ("RSET", "NOOP"):
                    await say("250 OK")
                else:
                    await say("502 not implemented")
        except (EOFError, trio.BrokenResourceError):
            return
        finally:
            await trio.aclose_forcefully(stream)


class SchedulerWatch:
    """A svc_hooks.scheduler.Observer: `await settled()` returns once the scheduler sleeps
    into the future with nothing in flight and no wake-up pending, so a test may then move
    the mock clock to `asleep_until` (the moment it will look again)."""

    def __init__(self) -> None:
        self.busy = 0
        self.asleep_until: float | None = None
        self.woken = False
        self._changed = trio.Event()

    def changed(self, busy: int, asleep_until: float | None, woken: bool) -> None:
        self.busy, self.asleep_until, self.woken = busy, asleep_until, woken
        self._changed.set()
        self._changed = trio.Event()

    async def settled(self) -> None:
        while not (
            self.busy == 0
            and self.asleep_until is not None
            and self.asleep_until > trio.current_time()
            and not self.woken
        ):
            await self._changed.wait()
