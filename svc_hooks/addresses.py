"""Which webhook URLs and IP addresses may be sent to.

Only https on port 443 to public addresses. A URL is checked when it is added, and the
addresses its host resolves to are checked again at send time, every one of them, and the
connection goes to one of those vetted addresses (never a second lookup), so a name that
later resolves inside someone's network is refused too.

Host spellings are read the way the C resolver reads them (inet_aton: 127.1, 0177.0.0.1,
2130706433, 0x7f000001 are all 127.0.0.1), so an odd spelling cannot hide an address.

SVC_HOOKS_ALLOW_LOCAL=1 (tests and development only) also admits http, any port, and
loopback addresses; nothing else private.
"""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from urllib.parse import urlsplit

import attrs

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

HTTPS_PORT = 443  # interface: "Addresses must use https on port 443"
MAX_URL_LEN = 2048  # longer URLs are refused rather than stored and sent
# A DNS name: labels of letters, digits and hyphens (a trailing dot allowed). Anything else
# (spaces, '%', '@', '\\') is refused before it can reach a resolver that reads it oddly.
_HOSTNAME = re.compile(
    r"^(?=.{1,253}\.?$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$"
)
_NUMERIC_V4 = re.compile(r"^[0-9a-fx.]+$", re.I)  # what inet_aton may read as an IPv4 address

# Blocks with the reason given to the user. ipaddress's is_global is the final catch-all.
_V4_BLOCKS = [
    ("0.0.0.0/8", "unspecified ('this network')"),
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "carrier-grade NAT (100.64/10)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "IETF protocol assignments"),
    ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "benchmarking"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),
]
_V6_BLOCKS = [
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::ffff:0:0/96", "IPv4-mapped"),
    ("::/96", "IPv4-compatible"),
    ("64:ff9b::/96", "NAT64 (an IPv4 address in disguise)"),
    ("64:ff9b:1::/48", "NAT64 (an IPv4 address in disguise)"),
    ("2002::/16", "6to4 (an IPv4 address in disguise)"),
    ("2001::/32", "Teredo (an IPv4 address in disguise)"),
    ("fc00::/7", "unique local (private)"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
]
_V4 = [(ipaddress.ip_network(n), why) for n, why in _V4_BLOCKS]
_V6 = [(ipaddress.ip_network(n), why) for n, why in _V6_BLOCKS]
_LOOPBACK = (ipaddress.ip_network("127.0.0.0/8"), ipaddress.ip_network("::1/128"))


class AddressRefused(Exception):
    """A webhook URL or address that may not be sent to; the message says why."""


@attrs.frozen
class Target:
    """A checked URL: where to connect and what to send."""

    scheme: str
    host: str  # the name (or literal) as written, lower case: TLS SNI and certificate check
    port: int
    target: str  # path and query
    host_header: str
    literal: IPAddress | None  # set when the host is an IP address, however spelled


@attrs.frozen
class Policy:
    allow_local: bool = False  # Settings.hooks_allow_local (SVC_HOOKS_ALLOW_LOCAL=1)

    def check_url(self, url: str) -> Target:
        """The parsed target, or AddressRefused saying what is wrong with the URL."""
        if not isinstance(url, str) or not url or len(url) > MAX_URL_LEN:
            raise AddressRefused(f"the URL must be 1 to {MAX_URL_LEN} characters")
        if any(ord(c) <= 0x20 or ord(c) == 0x7F or ord(c) > 0x7E for c in url):
            raise AddressRefused("the URL holds spaces, control or non-ASCII characters; percent-encode them")
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as exc:
            raise AddressRefused(f"the URL cannot be read: {exc}") from None
        scheme = parts.scheme.lower()
        allowed = ("https", "http") if self.allow_local else ("https",)
        if scheme not in allowed:
            raise AddressRefused(f"the URL must use https, not {scheme or 'no scheme'}")
        if parts.username is not None or parts.password is not None or "@" in parts.netloc:
            raise AddressRefused("the URL may not carry a user name or password")
        host = (parts.hostname or "").lower()
        if not host:
            raise AddressRefused("the URL has no host")
        default = HTTPS_PORT if scheme == "https" else 80
        if port is None:
            port = default
        if not self.allow_local and port != HTTPS_PORT:
            raise AddressRefused(f"the URL must use port {HTTPS_PORT}, not {port}")
        literal = parse_literal(host)
        if literal is None and not _HOSTNAME.match(host):
            raise AddressRefused(f"the host {host!r} is neither a DNS name nor an IP address")
        if literal is not None:
            self.check_address(literal)
        shown = f"[{host}]" if ":" in host else host
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return Target(
            scheme=scheme,
            host=host,
            port=port,
            target=target,
            host_header=shown if port == default else f"{shown}:{port}",
            literal=literal,
        )

    def check_address(self, address: IPAddress) -> None:
        """Nothing when the address is public (or loopback under ALLOW_LOCAL); else AddressRefused."""
        why = refusal(address)
        if why is None:
            return
        if self.allow_local and any(address in net for net in _LOOPBACK if net.version == address.version):
            return
        raise AddressRefused(f"{address} is {why}; only public addresses are served")

    def check_addresses(self, addresses: Iterable[IPAddress]) -> list[IPAddress]:
        """All of them vetted (one refused refuses the name), in the resolver's order, without repeats."""
        seen: list[IPAddress] = []
        for address in addresses:
            self.check_address(address)
            if address not in seen:
                seen.append(address)
        if not seen:
            raise AddressRefused("the host resolves to no address")
        return seen


def parse_literal(host: str) -> IPAddress | None:
    """The IP address a host string spells, read as the C resolver would; None for a name."""
    text = host.strip("[]")
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        pass
    if _NUMERIC_V4.match(text) and not text.endswith("."):
        try:
            # inet_aton reads 127.1, 0177.0.0.1, 2130706433 and 0x7f000001 as 127.0.0.1,
            # exactly as getaddrinfo would when connecting.
            return ipaddress.IPv4Address(socket.inet_aton(text))
        except OSError:
            return None
    return None


def refusal(address: IPAddress) -> str | None:
    """Why an address may not be sent to, or None when it is public."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.scope_id:
            return "scoped (link-local)"
        blocks = _V6
    else:
        blocks = _V4
    for net, why in blocks:
        if address in net:
            return why
    if not address.is_global:
        return "not globally routable"
    return None
