"""The delivery body and its signature header.

X-Svc-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + raw body, keyed with the
endpoint's secret> -- Stripe's scheme, so Stripe-style verifiers accept it. The body is
made once per delivery try from the stored event; `t` and the signature are fresh per try.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from typing import Any

import orjson

SECRET_PREFIX = "whsec_"  # interface: a signing secret per endpoint, shown once
SECRET_BYTES = 24  # 192 bits: far beyond guessing, short enough to paste


def new_secret() -> str:
    return SECRET_PREFIX + secrets.token_hex(SECRET_BYTES)


def iso_utc(ts: dt.datetime) -> str:
    return ts.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def body(event_id: str, type_: str, created: dt.datetime, data: Any, *, test: bool = False) -> bytes:
    """The JSON body: {id, type, created, data} and test: true on test deliveries only."""
    doc: dict[str, Any] = {"id": event_id, "type": type_, "created": iso_utc(created), "data": data}
    if test:
        doc["test"] = True
    return orjson.dumps(doc)


def signature(secret: str, t: int, raw: bytes) -> str:
    mac = hmac.new(secret.encode(), str(t).encode() + b"." + raw, hashlib.sha256).hexdigest()
    return f"t={t},v1={mac}"


def headers(event_id: str, type_: str, secret: str, t: int, raw: bytes) -> list[tuple[str, str]]:
    return [
        ("Content-Type", "application/json"),
        ("X-Svc-Event", type_),
        ("X-Svc-Delivery", event_id),
        ("X-Svc-Signature", signature(secret, t, raw)),
    ]
