"""The error answers an operation declares in the OpenAPI description: their headers and an
example of each, made by the service's own ApiError so that /docs shows the real code, the
members it carries (`plan`, `resets_at`) and a docs URL of the form the service writes.
"""

from __future__ import annotations

from typing import Any

from svc.access.caller import USE_A_HEADER
from svc.access.plans import PLANS
from svc.core.errors import ERRORS, ApiError

# The form every error's `docs` takes: the /docs page of the host the request was sent to, the
# code as its anchor (svc.web.responses.error_reply). Shown with `serve`'s own default address.
EXAMPLE_DOCS = "http://localhost:8000/docs"
EXAMPLE_RESETS_AT = "2026-01-02T00:00:00Z"  # quota_exceeded: the next 00:00 UTC
EXAMPLE_WAIT_S = 17

# What an error answer may carry besides what the 200 declares. None is required: a refusal
# before the key is known (401, a key in the query string) has no limits to report, and the
# IETF pair and Request-Id are sent by servers from their version on.
LIMIT_HEADERS: dict[str, dict[str, Any]] = {
    "RateLimit-Policy": {
        "description": "The key's quota policies (IETF RateLimit-Policy): each policy's quota `q` and its "
        "window `w` in seconds.",
        "schema": {"type": "string"},
    },
    "RateLimit": {
        "description": "What is left of each policy (IETF RateLimit): calls remaining `r`, seconds to its reset `t`.",
        "schema": {"type": "string"},
    },
    "Request-Id": {
        "description": "This request's id, as the service's log names it: quote it when reporting a problem.",
        "schema": {"type": "string"},
    },
}
RETRY_AFTER = {
    "description": "Seconds to wait before calling again.",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}


def _headers(status: int, rate_headers: dict[str, dict[str, Any]]) -> dict[str, Any]:
    out = {name: {**decl, "required": False} for name, decl in rate_headers.items()}
    for name, decl in LIMIT_HEADERS.items():
        out.setdefault(name, {**decl, "required": False})
    if status in (429, 503):
        out["Retry-After"] = RETRY_AFTER
    return out


def _example(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"summary": code, "value": ApiError(code, message, extra=extra).body(EXAMPLE_DOCS)}


def _upgrade(plan: str) -> dict[str, Any]:
    """upgrade_required as a key on the plan below the operation's would get it (a Free endpoint:
    the parts of it that need Archive, as results on another day)."""
    ranked = sorted(PLANS.values(), key=lambda p: p.rank)
    need = PLANS[plan] if PLANS[plan].rank > 0 else ranked[1]
    below = ranked[need.rank - 1]
    return _example(
        "upgrade_required",
        f"this needs the {need.title} plan; the key's account is on {below.title}",
        plan=need.name,
    )


def _not_found(parameters: list[dict[str, Any]]) -> dict[str, Any]:
    ids = [p for p in parameters if p["schema"].get("pattern", "").endswith("[A-Za-z0-9-]+$")]
    path = [p for p in parameters if p["in"] == "path"]
    named = next(iter(path or ids), None)
    if named is None:
        return _example("not_found", "no such item")
    prefix = named["schema"].get("pattern", "^").removeprefix("^").split("[")[0]  # ids: pl_, tr_, ...
    what = f"id {prefix}unknown" if prefix else f"{named['name']} unknown"
    where = "" if named["in"] == "path" else f" (parameter `{named['name']}`)"
    return _example("not_found", f"no item with {what}{where}")


def _invalid(parameters: list[dict[str, Any]]) -> dict[str, Any]:
    """A well-formed value out of range or outside the vocabulary, as the parameter checks word it
    (svc.web.params)."""
    for p in parameters:
        s = p["schema"]
        if "maximum" in s:
            low, high = s.get("minimum"), s["maximum"]
            return _example(
                "invalid_parameter", f"parameter `{p['name']}` must be between {low} and {high}, not {high + 1}"
            )
        if "enum" in s:
            return _example(
                "invalid_parameter", f"parameter `{p['name']}` must be one of {', '.join(s['enum'])}, not 'XX'"
            )
    return _example("invalid_parameter", "a parameter's value is well formed but not acceptable; the message names it")


def error_responses(
    plan: str, parameters: list[dict[str, Any]], rate_headers: dict[str, dict[str, Any]], *, stream: bool
) -> dict[str, Any]:
    """The declared error responses (400, 401, 403, 404, 422, 429, 405, 503) of an operation of
    `plan` with `parameters` (its OpenAPI parameter objects); `rate_headers`, those its 200
    declares, are declared on each, not required."""
    minute, day = PLANS[plan].per_minute, PLANS[plan].per_day
    examples: dict[int, list[dict[str, Any]]] = {
        400: [_example("bad_request", f"a key in the query string is refused, even a valid one; {USE_A_HEADER}")],
        401: [_example("unauthorized", f"no key: {USE_A_HEADER}")],
        403: [_upgrade(plan)],
        404: [_not_found(parameters)],
        422: [_invalid(parameters)],
        429: [
            _example("rate_limited", f"more than {minute} calls this minute; wait {EXAMPLE_WAIT_S} s"),
            _example(
                "quota_exceeded", f"today's {day} calls are used; they return at 00:00 UTC", resets_at=EXAMPLE_RESETS_AT
            ),
        ]
        + (
            [
                _example(
                    "too_many_streams",
                    f"two live streams are already open on this key; close one or retry after {EXAMPLE_WAIT_S} s",
                )
            ]
            if stream
            else []
        ),
        405: [_example("method_not_allowed", "POST is not served; every endpoint answers GET")],
        503: [_example("unavailable", "the database cannot be reached for a moment; retry shortly")],
    }
    responses: dict[str, Any] = {}
    for status, shown in examples.items():
        media: dict[str, Any] = {"schema": {"$ref": "#/components/schemas/Error"}}
        if len(shown) == 1:
            media["example"] = shown[0]["value"]
        else:
            media["examples"] = {e["summary"]: e for e in shown}
        codes = ", ".join(e["summary"] for e in shown)
        headers = _headers(status, rate_headers)
        if status == 405:
            headers["Allow"] = {
                "description": "The methods served: GET.",
                "required": True,
                "schema": {"type": "string"},
            }
        responses[str(status)] = {"description": codes, "headers": headers, "content": {"application/json": media}}
    assert {int(s) for s in responses} >= {k.status for k in ERRORS.values() if k.status != 500}
    return responses
