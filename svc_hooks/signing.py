"""The delivery body, its signatures, and the secrets that make them.

Every delivery carries two signatures made from one secret (docs/webhooks.md):

X-Svc-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + raw body> -- the interface's
scheme, Stripe's: keyed with the secret string itself, whole (`whsec_...`, UTF-8), as Stripe's
verifiers key it.

webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<t>." + raw
body> -- Standard Webhooks: keyed with the bytes the text after `whsec_` base64-decodes to, as
that spec's libraries key it.

A secret is `whsec_` + base64 of 32 random bytes. Secrets made before Standard Webhooks were
`whsec_` + 48 hex digits; hex digits are base64 letters and 48 is a multiple of 4, so such a
secret decodes too (to 36 bytes carrying its 192 random bits, the spec's floor) and serves both
schemes unchanged. During a rotation's overlap a delivery is signed with the new secret and the
old one: two `v1=` entries, two space-separated `v1,` entries; a receiver holding either verifies.

The body is made once per try from the stored event; the timestamp and signatures are fresh per try.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Any

import attrs
import orjson

SECRET_PREFIX = "whsec_"  # interface: a signing secret per endpoint, shown once; Standard Webhooks' prefix too
# 256 bits: an HMAC-SHA256 key as long as the hash (RFC 2104 discourages shorter), inside
# Standard Webhooks' 24 to 64 bytes.
SECRET_BYTES = 32


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def standard_key(secret: str) -> bytes:
    """The HMAC key Standard Webhooks derives from a secret: the base64 text after the prefix, decoded."""
    text = secret.removeprefix(SECRET_PREFIX)
    try:
        return base64.b64decode(text, validate=True)
    except binascii.Error:
        raise ValueError("a signing secret is whsec_ and base64 text") from None


@attrs.frozen
class SigningSecrets:
    """An endpoint's secret, and the one it replaced while that one's overlap lasts."""

    current: str
    previous: str | None = None
    previous_until: dt.datetime | None = None  # the previous secret signs before this moment only

    def in_force(self, t: int) -> list[str]:
        """The secrets a delivery stamped `t` (unix seconds) is signed with, the current one first."""
        if self.previous is not None and self.previous_until is not None and t < self.previous_until.timestamp():
            return [self.current, self.previous]
        return [self.current]


def iso_utc(ts: dt.datetime) -> str:
    return ts.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def body(event_id: str, type_: str, created: dt.datetime, data: Any, *, test: bool = False) -> bytes:
    """The JSON body: {id, type, created, data} and test: true on test deliveries only."""
    doc: dict[str, Any] = {"id": event_id, "type": type_, "created": iso_utc(created), "data": data}
    if test:
        doc["test"] = True
    return orjson.dumps(doc)


def _stripe_v1(secret: str, t: int, raw: bytes) -> str:
    return hmac.new(secret.encode(), str(t).encode() + b"." + raw, hashlib.sha256).hexdigest()


def signature(secret: str | Sequence[str], t: int, raw: bytes) -> str:
    """X-Svc-Signature: `t=<t>` and a `v1=` entry per secret."""
    keys = [secret] if isinstance(secret, str) else list(secret)
    return ",".join([f"t={t}", *(f"v1={_stripe_v1(s, t, raw)}" for s in keys)])


def standard_signature(secret: str | Sequence[str], msg_id: str, t: int, raw: bytes) -> str:
    """webhook-signature: a `v1,<base64>` entry per secret, space-separated."""
    keys = [secret] if isinstance(secret, str) else list(secret)
    signed = f"{msg_id}.{t}.".encode() + raw
    return " ".join(
        "v1," + base64.b64encode(hmac.new(standard_key(s), signed, hashlib.sha256).digest()).decode("ascii")
        for s in keys
    )


def headers(event_id: str, type_: str, secret: str | Sequence[str], t: int, raw: bytes) -> list[tuple[str, str]]:
    """The delivery's headers, signed with each of `secret` (one, or the secrets in force)."""
    return [
        ("Content-Type", "application/json"),
        ("X-Svc-Event", type_),
        ("X-Svc-Delivery", event_id),
        ("X-Svc-Signature", signature(secret, t, raw)),
        # Standard Webhooks: the message id is the event's, the same on every try (the spec's
        # idempotency key), and holds no "." (the signed text is id.t.body).
        ("webhook-id", event_id),
        ("webhook-timestamp", str(t)),
        ("webhook-signature", standard_signature(secret, event_id, t, raw)),
    ]
