"""One webhook POST over a connection to a vetted address.

Why not httpx: its pool resolves the host itself (a second lookup we cannot vet), honours
HTTPS_PROXY from the environment (a proxy would carry the request wherever it likes), and
reuses connections across deliveries. Here every send resolves once, checks every address,
connects to one of them, and runs TLS with the original host name (SNI and certificate
check); h11 (already installed with Hypercorn) reads the answer. One connection per try,
closed afterwards; redirects are answers like any other and never followed.

Every deadline is on Trio's clock (fail_after), so the mock clock drives time-outs in tests.
"""

from __future__ import annotations

import ipaddress
import ssl
from collections.abc import Awaitable, Callable

import attrs
import h11
import trio

from svc_hooks.addresses import AddressRefused, IPAddress, Policy, Target

ANSWER_WITHIN_S = 10  # interface: "a 2xx within 10 seconds"
READ_CHUNK = 16384
MAX_HEAD_BYTES = 65536  # an answer's status line and headers; more is a broken receiver
USER_AGENT = "badminton-svc-webhooks/1"

Resolver = Callable[[str, int], Awaitable[list[IPAddress]]]


@attrs.frozen
class SendResult:
    status: int | None  # the HTTP status, None when no answer came
    error: str | None  # why no (usable) answer came
    latency_ms: float


async def resolve(host: str, port: int) -> list[IPAddress]:
    """Every address the system resolver gives for host, in its order."""
    infos = await trio.socket.getaddrinfo(host, port, type=trio.socket.SOCK_STREAM)
    found: list[IPAddress] = []
    for family, _, _, _, sockaddr in infos:
        address = ipaddress.ip_address(sockaddr[0])
        if family == trio.socket.AF_INET6 and len(sockaddr) > 3 and sockaddr[3] and not address.scope_id:
            address = ipaddress.ip_address(f"{sockaddr[0]}%{sockaddr[3]}")  # keep the scope: it is refused
        found.append(address)
    return found


_ssl_context: ssl.SSLContext | None = None


def _tls() -> ssl.SSLContext:
    global _ssl_context
    if _ssl_context is None:  # loading the CA store costs milliseconds: once per process
        _ssl_context = ssl.create_default_context()
    return _ssl_context


async def _connect(target: Target, policy: Policy, resolver: Resolver, tls: ssl.SSLContext) -> trio.abc.Stream:
    if target.literal is not None:
        addresses = policy.check_addresses([target.literal])
    else:
        try:
            found = await resolver(target.host, target.port)
        except OSError as exc:
            raise ConnectionError(f"cannot resolve {target.host}: {exc}") from None
        addresses = policy.check_addresses(found)  # every one vetted; one bad refuses the name
    last: OSError | None = None
    for address in addresses:
        try:
            tcp = await trio.open_tcp_stream(str(address), target.port)
        except OSError as exc:
            last = exc
            continue
        if target.scheme != "https":
            return tcp
        stream = trio.SSLStream(tcp, tls, server_hostname=target.host, https_compatible=True)
        try:
            await stream.do_handshake()
        except BaseException:
            await trio.aclose_forcefully(stream)
            raise
        return stream
    raise ConnectionError(f"cannot connect to {target.host}: {last}")


async def _exchange(stream: trio.abc.Stream, target: Target, headers: list[tuple[str, str]], raw: bytes) -> int:
    conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=MAX_HEAD_BYTES)
    request = h11.Request(
        method="POST",
        target=target.target,
        headers=[
            ("Host", target.host_header),
            ("User-Agent", USER_AGENT),
            ("Content-Length", str(len(raw))),
            ("Connection", "close"),
            *headers,
        ],
    )
    await stream.send_all(conn.send(request) + conn.send(h11.Data(data=raw)) + conn.send(h11.EndOfMessage()))
    while True:
        event = conn.next_event()
        if event is h11.NEED_DATA:
            conn.receive_data(await stream.receive_some(READ_CHUNK))
        elif isinstance(event, h11.Response):
            return event.status_code
        elif isinstance(event, h11.InformationalResponse):
            continue  # 100 Continue and the like: the real answer follows
        else:  # ConnectionClosed before an answer
            raise ConnectionError("the connection closed before an answer")


async def post(
    url: str,
    headers: list[tuple[str, str]],
    raw: bytes,
    *,
    policy: Policy,
    resolver: Resolver = resolve,
    timeout_s: float = ANSWER_WITHIN_S,
    tls: ssl.SSLContext | None = None,
) -> SendResult:
    """POST raw to url; the status, or why there is none. Never raises but for cancellation.
    `tls` replaces the system's trust store (tests trust their own certificate authority)."""
    started = trio.current_time()

    def done(status: int | None, error: str | None) -> SendResult:
        return SendResult(status, error, round((trio.current_time() - started) * 1000, 1))

    try:
        target = policy.check_url(url)
        with trio.fail_after(timeout_s):
            stream = await _connect(target, policy, resolver, tls or _tls())
            try:
                status = await _exchange(stream, target, headers, raw)
            finally:
                await trio.aclose_forcefully(stream)
        return done(status, None)
    except AddressRefused as exc:
        return done(None, f"refused: {exc}")
    except trio.TooSlowError:
        return done(None, f"no answer within {timeout_s:g} s")
    except (ConnectionError, OSError, trio.BrokenResourceError, ssl.SSLError) as exc:
        return done(None, f"connection failed: {exc}" if str(exc) else f"connection failed: {type(exc).__name__}")
    except h11.ProtocolError as exc:
        return done(None, f"not an HTTP answer: {exc}")
