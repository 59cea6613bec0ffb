"""The OpenAPI 3.1 `webhooks` section: what an owner's endpoint receives.

svc.web.openapi.build() adds it (svc.assembly passes it) as `"webhooks": webhooks(components)`; the data schema is the
Event record (the same shape as GET /v1/events/{id}), put in components if missing.
"""

from __future__ import annotations

from typing import Any

from svc.changelog.changes import EVENT_TYPES
from svc_hooks.catchup import CATCH_UP_WINDOW
from svc_hooks.rotation import DEFAULT_OVERLAP
from svc_hooks.schedule import MAX_TRIES, PAUSE_AFTER_FAILURES, RETRY_DELAYS
from svc_hooks.store import MAX_ENDPOINTS

EMITTED_WHEN = {
    "match.started": "the first rally of a match is played",
    "match.finished": "a match ends: won, retired or walkover, with the score",
    "result.corrected": "a finished match's score or winner is changed afterwards",
}


def _delay(seconds: float) -> str:
    for unit, size in (("day", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if unit == 'day' and n > 1 else ''}"
    return f"{seconds:g} s"


ROTATION_TEXT = _delay(DEFAULT_OVERLAP.total_seconds())
SCHEDULE_TEXT = ", ".join(["at once"] + [f"+{_delay(d.total_seconds())}" for d in RETRY_DELAYS])

DESCRIPTION = f"""Sent as an HTTP POST to each active endpoint subscribed to the event's type (Live plan; up to
{MAX_ENDPOINTS} endpoints per account, https on port 443 to a public address).

**Signature.** `X-Svc-Signature: t=<unix seconds>,v1=<hex>` where v1 is the hex HMAC-SHA256 of the text
`t`, a dot, and the raw body bytes, keyed with the endpoint's signing secret (`whsec_...`, the whole
string). Check it against the raw bytes before parsing, compare in constant time, and refuse a `t` more
than 300 seconds old. Stripe's verifiers accept it as a `Stripe-Signature`.

**Standard Webhooks.** The same delivery is signed by the Standard Webhooks scheme too
(https://www.standardwebhooks.com), so its libraries verify it with the same secret: `webhook-id` (the
event id), `webhook-timestamp` (the same unix seconds as `t`) and `webhook-signature: v1,<base64>`, the
HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>` keyed with the bytes the secret's text after
`whsec_` base64-decodes to.

**Rotation.** For an overlap after the owner rotates the secret ({ROTATION_TEXT} by default) every delivery is
signed with the new and the old secret: two `v1=` entries in `X-Svc-Signature`, two space-separated `v1,`
entries in `webhook-signature`; a receiver holding either secret verifies. Then the new one alone signs.

**Answering.** Answer any 2xx within 10 seconds. Anything else (another status, a time-out, a refused
connection, 408 or 429) is retried, {MAX_TRIES} tries in all: {SCHEDULE_TEXT}. Another 4xx ends the delivery at
once. After {PAUSE_AFTER_FAILURES} failed tries in a row the endpoint is paused and its owner e-mailed; when it
is resumed, its pending deliveries and the events written during the pause (those at most
{CATCH_UP_WINDOW.days} days old) are sent, in the order the events were written. Redirects are not followed.
The event id (`id`, `X-Svc-Delivery`, `webhook-id`) is the same on every try and every endpoint; `t` and the
signatures are fresh on every try. A delivery may arrive more than once: skip ids already handled."""


def _body_schema(event_type: str) -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["id", "type", "created", "data"],
        "properties": {
            "id": {
                "type": "string",
                "pattern": "^evt_",
                "description": "event id; identical for every endpoint and every try, used to drop repeats",
            },
            "type": {"const": event_type},
            "created": {"type": "string", "format": "date-time", "description": "creation time, ISO 8601 UTC"},
            "data": {"$ref": "#/components/schemas/Event", "description": "the match, shaped as GET /v1/events/{id}"},
            "test": {"const": True, "description": "present only on deliveries sent by the Test action"},
        },
    }


def _header(name: str, description: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "in": "header", "required": True, "description": description, "schema": schema}


def webhooks(components: dict[str, Any] | None = None) -> dict[str, Any]:
    """The section; given the spec's components.schemas, makes sure the Event schema is there."""
    if components is not None:
        from svc.web.convert import json_schema
        from svc.web.records import Event

        json_schema(Event, components)
    out: dict[str, Any] = {}
    for event_type in EVENT_TYPES:
        out[event_type] = {
            "post": {
                "summary": f"{event_type}: {EMITTED_WHEN[event_type]}",
                "description": DESCRIPTION,
                "tags": ["Live"],
                "x-plan": "live",
                "x-retry-schedule-seconds": [0] + [int(d.total_seconds()) for d in RETRY_DELAYS],
                "x-pause-after-failures": PAUSE_AFTER_FAILURES,
                "parameters": [
                    _header("X-Svc-Event", "the event type", {"const": event_type}),
                    _header(
                        "X-Svc-Delivery", "the event id (same as the body's id)", {"type": "string", "pattern": "^evt_"}
                    ),
                    _header(
                        "X-Svc-Signature",
                        "t=<unix seconds>,v1=<hex HMAC-SHA256 of t + '.' + raw body>; a second v1= during a "
                        "rotation's overlap (the old secret's)",
                        {"type": "string", "pattern": "^t=[0-9]+(,v1=[0-9a-f]{64}){1,2}$"},
                    ),
                    _header(
                        "webhook-id",
                        "Standard Webhooks: the event id (as X-Svc-Delivery), the same on every try",
                        {"type": "string", "pattern": "^evt_"},
                    ),
                    _header(
                        "webhook-timestamp",
                        "Standard Webhooks: unix seconds of this try (the same as t in X-Svc-Signature)",
                        {"type": "string", "pattern": "^[0-9]+$"},
                    ),
                    _header(
                        "webhook-signature",
                        "Standard Webhooks: v1,<base64 HMAC-SHA256 of id + '.' + timestamp + '.' + raw body>, keyed "
                        "with the base64-decoded secret; two, space-separated, during a rotation's overlap",
                        {"type": "string", "pattern": "^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)?$"},
                    ),
                ],
                "requestBody": {
                    "required": True,
                    "content": {"application/json": {"schema": _body_schema(event_type)}},
                },
                "responses": {
                    "2XX": {"description": "received; the delivery succeeded (answer within 10 seconds)"},
                    "408": {"description": "retried"},
                    "429": {"description": "retried"},
                    "4XX": {"description": "any other 4xx: the delivery ends at once"},
                    "default": {"description": "anything else, a time-out or a connection failure: retried"},
                },
            }
        }
    return out
