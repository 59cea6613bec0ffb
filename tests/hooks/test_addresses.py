"""Webhook addresses: every refused form, at add time (URL) and at send time (the
addresses a name resolves to, checked again on the address actually connected to)."""

from __future__ import annotations

import ipaddress
from functools import partial

import pytest
import trio

from svc_hooks.addresses import AddressRefused, Policy, parse_literal
from svc_hooks.http import post

STRICT = Policy(allow_local=False)
LOCAL = Policy(allow_local=True)

# (URL, words the refusal must contain)
REFUSED_URLS = [
    ("http://example.com/hook", "https"),
    ("ftp://example.com/hook", "https"),
    ("https://example.com:8443/hook", "port 443"),
    ("https://example.com:80/hook", "port 443"),
    ("https://127.0.0.1/hook", "loopback"),
    ("https://127.1/hook", "loopback"),
    ("https://0177.0.0.1/hook", "loopback"),
    ("https://2130706433/hook", "loopback"),
    ("https://0x7f000001/hook", "loopback"),
    ("https://0x7f.1/hook", "loopback"),
    ("https://0.0.0.0/hook", "unspecified"),
    ("https://0/hook", "unspecified"),
    ("https://10.1.2.3/hook", "private"),
    ("https://012.1.2.3/hook", "private"),  # octal 012 = 10
    ("https://172.16.0.1/hook", "private"),
    ("https://172.31.255.254/hook", "private"),
    ("https://192.168.1.1/hook", "private"),
    ("https://100.64.0.1/hook", "carrier-grade NAT"),
    ("https://100.127.255.254/hook", "carrier-grade NAT"),
    ("https://169.254.169.254/latest/meta-data", "link-local"),
    ("https://224.0.0.1/hook", "multicast"),
    ("https://239.255.255.250/hook", "multicast"),
    ("https://255.255.255.255/hook", "reserved"),
    ("https://[::1]/hook", "loopback"),
    ("https://[::]/hook", "unspecified"),
    ("https://[::ffff:127.0.0.1]/hook", "IPv4-mapped"),
    ("https://[::ffff:7f00:1]/hook", "IPv4-mapped"),
    ("https://[::ffff:8.8.8.8]/hook", "IPv4-mapped"),
    ("https://[::ffff:10.0.0.1]/hook", "IPv4-mapped"),
    ("https://[fc00::1]/hook", "unique local"),
    ("https://[fd12:3456::1]/hook", "unique local"),
    ("https://[fe80::1]/hook", "link-local"),
    ("https://[ff02::1]/hook", "multicast"),
    ("https://[64:ff9b::7f00:1]/hook", "NAT64"),
    ("https://[2002:7f00:1::]/hook", "6to4"),
    ("https://user:pw@example.com/hook", "user name"),
    ("https://example.com@127.0.0.1/hook", "user name"),
    ("https://exa mple.com/hook", "spaces"),
    ("https://example.com\t/hook", "control"),
    ("https:///hook", "no host"),
    ("https://exa_mple.com/hook", "neither a DNS name"),
    ("", "characters"),
]


@pytest.mark.parametrize("url,why", REFUSED_URLS)
def test_refused_urls_name_the_reason(url, why):
    with pytest.raises(AddressRefused) as exc:
        STRICT.check_url(url)
    assert why in str(exc.value)


@pytest.mark.parametrize("spelling", ["127.1", "0177.0.0.1", "2130706433", "0x7f000001", "0x7F.0.0.1", "127.0.1"])
def test_odd_spellings_read_as_the_resolver_reads_them(spelling):
    assert parse_literal(spelling) == ipaddress.ip_address("127.0.0.1")


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/hook",
        "https://example.com:443/h?x=1",
        "https://8.8.8.8/",
        "https://[2606:4700:4700::1111]/hook",
        "https://hooks.example.org./in",
    ],
)
def test_public_https_urls_are_accepted(url):
    target = STRICT.check_url(url)
    assert target.port == 443 and target.scheme == "https"


def test_allow_local_admits_http_and_loopback_only():
    assert LOCAL.check_url("http://127.0.0.1:8080/hook").port == 8080
    assert LOCAL.check_url("http://localhost:9/hook").host == "localhost"
    LOCAL.check_url("http://[::1]:8080/x")
    for url in ("http://10.0.0.1/x", "https://192.168.0.1/x", "http://169.254.169.254/", "http://[::ffff:127.0.0.1]/"):
        with pytest.raises(AddressRefused):
            LOCAL.check_url(url)


def _resolver(*addresses: str):
    calls = []

    async def resolve(host: str, port: int):
        calls.append((host, port))
        return [ipaddress.ip_address(a) for a in addresses]

    resolve.calls = calls
    return resolve


@pytest.mark.parametrize(
    "resolved",
    [
        ["127.0.0.1"],
        ["10.0.0.7"],
        ["93.184.216.34", "192.168.0.10"],
        ["::1"],
        ["::ffff:169.254.169.254"],
        ["fe80::1%2"],
        ["100.64.1.1"],
        ["0.0.0.0"],
    ],
)
async def test_a_name_resolving_to_a_refused_address_is_refused_at_send_time(resolved):
    """A name passes at add time (no literal to check); at send time every address it
    resolves to is checked, and one bad address refuses the whole name."""
    resolver = _resolver(*resolved)
    STRICT.check_url("https://rebind.example.com/hook")
    result = await post("https://rebind.example.com/hook", [], b"{}", policy=STRICT, resolver=resolver)
    assert result.status is None and result.error.startswith("refused:")
    assert resolver.calls == [("rebind.example.com", 443)]  # resolved once


async def test_the_connection_goes_to_the_vetted_address_not_a_second_lookup():
    """Resolve once, connect to that address: a receiver on 127.0.0.1 is reached through a
    name the system resolver does not know, so the address used can only be the vetted one."""
    seen = []

    async def handler(stream):
        seen.append(await stream.receive_some(4096))
        await stream.send_all(b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n")
        await stream.aclose()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, handler, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        resolver = _resolver("127.0.0.1")
        result = await post(
            f"http://no-such-name.invalid:{port}/hook?x=1",
            [("X-Svc-Event", "match.started")],
            b"{}",
            policy=LOCAL,
            resolver=resolver,
        )
        nursery.cancel_scope.cancel()
    assert result.status == 204, result
    assert seen and seen[0].startswith(b"POST /hook?x=1 HTTP/1.1\r\n")
    assert f"host: no-such-name.invalid:{port}".encode() in seen[0].lower()  # the original name, not the address


async def test_redirects_are_answers_not_followed():
    hits = []

    async def handler(stream):
        hits.append(await stream.receive_some(4096))
        await stream.send_all(
            b"HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:1/x\r\nContent-Length: 0\r\n\r\n"
        )
        await stream.aclose()

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_tcp, handler, 0, host="127.0.0.1"))
        port = listeners[0].socket.getsockname()[1]
        result = await post(f"http://127.0.0.1:{port}/hook", [], b"{}", policy=LOCAL)
        nursery.cancel_scope.cancel()
    assert result.status == 307 and len(hits) == 1


async def test_strict_policy_refuses_loopback_at_send_time_even_if_stored():
    result = await post("https://127.0.0.1/hook", [], b"{}", policy=STRICT)
    assert result.status is None and "loopback" in result.error


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    """A self-signed certificate for hooks.test, made with the openssl command."""
    import shutil
    import subprocess

    if not shutil.which("openssl"):
        pytest.skip("no openssl command to make a test certificate")
    where = tmp_path_factory.mktemp("tls")
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=hooks.test",
            "-addext",
            "subjectAltName=DNS:hooks.test",
            "-keyout",
            str(where / "key.pem"),
            "-out",
            str(where / "cert.pem"),
        ],
        check=True,
        capture_output=True,
    )
    return where / "cert.pem", where / "key.pem"


@pytest.mark.parametrize("name,verified", [("hooks.test", True), ("other.test", False)])
async def test_tls_uses_the_original_host_name_on_the_vetted_address(certificate, name, verified):
    """Connected to 127.0.0.1 (the resolved address), TLS still names and verifies the URL's host."""
    import ssl

    cert, key = certificate
    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(cert, key)
    names = []
    server_ctx.sni_callback = lambda sock, server_name, ctx: names.append(server_name)
    client_ctx = ssl.create_default_context(cafile=str(cert))

    async def handler(stream):
        try:
            await stream.receive_some(4096)
            await stream.send_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        except trio.BrokenResourceError:
            pass
        await trio.aclose_forcefully(stream)

    async with trio.open_nursery() as nursery:
        listeners = await nursery.start(partial(trio.serve_ssl_over_tcp, handler, 0, server_ctx, host="127.0.0.1"))
        port = listeners[0].transport_listener.socket.getsockname()[1]
        result = await post(
            f"https://{name}:{port}/hook", [], b"{}", policy=LOCAL, resolver=_resolver("127.0.0.1"), tls=client_ctx
        )
        nursery.cancel_scope.cancel()
    assert names == [name]  # SNI carries the original name, not the address
    if verified:
        assert result.status == 200, result
    else:
        assert result.status is None and "connection failed" in result.error  # the certificate is not for this name
