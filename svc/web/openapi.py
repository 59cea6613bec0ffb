"""The OpenAPI 3.1 description, built from the endpoint registry (the same declarations
the app validates with) so it cannot drift."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from svc import API_VERSION
from svc.access.plans import PLANS
from svc.core.errors import ERRORS
from svc.web.convert import json_schema
from svc.web.endpoint import Endpoint
from svc.web.openapi_errors import LIMIT_HEADERS, error_responses
from svc.web.openapi_tags import tag_objects, tag_of
from svc.web.params import openapi_parameters

RATE_HEADERS = {
    "X-RateLimit-Limit": "Calls allowed a minute on the plan.",
    "X-RateLimit-Remaining": "Calls left this minute.",
    "X-RateLimit-Reset": "When the minute resets, Unix time.",
    "X-Quota-Remaining": "Calls left today (UTC).",
}
# What a JSON answer made for a key says to caches (svc.web.responses, svc.web.encoding).
JSON_HEADERS = {
    "Cache-Control": {
        "description": "`private, no-cache`: made for this key (and counted), so no shared cache may store it; a "
        "client revalidates with If-None-Match before reusing it.",
        "schema": {"type": "string"},
    },
    "Vary": {
        "description": "`Authorization, X-API-Key, Accept-Encoding`: the answer differs by key and by encoding.",
        "schema": {"type": "string"},
    },
    "Content-Encoding": {
        "description": "`gzip` when the request's Accept-Encoding accepts it and the answer is at least 1,024 bytes "
        "(each form has its own ETag); absent otherwise.",
        "schema": {"type": "string", "enum": ["gzip"]},
    },
}

DESCRIPTION = """Read-only JSON API for world badminton: results and draws back to 1899, players, head to head,
rankings, ratings, odds and live scores.

* Every successful answer is `{"data", "meta"}`; every error is `{"error": {"code", "message", "docs"}}`
  (plus `plan` on `upgrade_required`, `resets_at` on `quota_exceeded`, `pages` and `total` on a page past the
  last, `covers` on a day of `/v1/results` the Free key does not cover).
* Send the key as `Authorization: Bearer <key>` or `X-API-Key: <key>`. A key in the query string is refused (400).
* Status codes: 400 `bad_request` = the request cannot be read (missing required parameter, unknown or repeated
  parameter, wrong type, malformed date, id or cursor); 422 `invalid_parameter` = a well-formed value that is not
  acceptable (out of range, not in the vocabulary, `from` after `to`, a page past the last); 404 `not_found`;
  405 for methods other than GET (with `Allow: GET`); 429 `rate_limited` / `quota_exceeded` with `Retry-After`.
* Counting: a call is counted when it passes authentication, plan and limits and its parameters are valid;
  401, 403, 400/422 from parameter checks, 429 and 5xx are never counted (a 5xx answered while the database was
  away is taken back once it returns). `/v1/usage` is never counted.
  Limits are per key; a replacement key keeps its predecessor's counters.
* Paths: an empty or dot segment anywhere (`//v1/countries`, `/v1/countries/`) is an unknown path (404), never
  a redirect. A request that cannot be read as HTTP/1.1 (a raw byte outside printable ASCII or a space in the
  target, a bad `Content-Length`, a head over 256 KiB) is refused by the HTTP server beneath with an empty 400
  (431 for the head): the only answers that are not JSON.
* Connections: closed after an answer to `Connection: close` or HTTP/1.0, otherwise after the server's
  keep-alive time without a request (5 s unless its operator set another).
* Headers: beside `X-RateLimit-*` and `X-Quota-Remaining`, the IETF draft's `RateLimit-Policy`
  (`"minute";q=60;w=60, "day";q=5000;w=86400`) and `RateLimit` (`"minute";r=59;t=31, "day";r=4990;t=43193`: what
  is left, and the seconds until each window resets) on every answer that carries them. Every answer has a
  `Request-Id` (also in our log; quote it): the client's own `Request-Id` or `X-Request-Id` when it is 1-64 of
  `A-Za-z0-9._-`, else 32 hex digits. JSON answers of 1,024 bytes or more are gzipped when Accept-Encoding allows
  (never the event stream), each form with its own strong ETag. Answers made for a key are
  `Cache-Control: private, no-cache` with `Vary: Authorization, X-API-Key, Accept-Encoding`; errors `no-store`;
  this description and /docs `public, max-age=300`. A 304 has no body and no Content-Type.
* Probes (no key, never counted): `/livez` answers 200 while the process runs, touching nothing else; `/readyz`
  (and `/healthz`) 200 when the database answers within a second and every component runs, else 503.
* Paging: `page` (from 1), `per_page` (1-200, default 50) and `cursor`. `meta` carries `page`, `per_page`,
  `total`, `pages` and `next_cursor` (an empty string on the last page). A cursor is tied to the filters it was made
  with and takes precedence over `page`. Lists that change while you walk them (fixtures) are ordered by a
  stable key; an item may move across a page boundary when its status changes. A page past the last answers 422
  `invalid_parameter` saying how many pages and items the list has (`error.pages`, `error.total`).
* Event `status`: results, fixtures and events/{id} use `scheduled`, `live`, `finished`; the calendar uses
  `finished`, `in_progress`, `upcoming`, `unknown`.
* Event `odds` is filled for keys on the Odds plan and above, and on `/v1/results/yesterday` for every plan
  (closing prices); otherwise null.
* An empty answer over a world that does not cover what was asked (the real world of public BWF data: World
  Tour matches 2018-2020, rankings 2022-11 to 2025-01, no odds or live play) carries `meta.note` saying so.
"""


def _response_schema(ep: Endpoint, components: dict[str, Any]) -> dict[str, Any]:
    item = json_schema(ep.returns, components)
    data = {"type": "array", "items": item} if ep.many else item
    meta: dict[str, Any] = {"type": "object"}
    if ep.paged:
        meta = {
            "type": "object",
            "required": ["page", "per_page", "total", "pages", "next_cursor"],
            "properties": {
                "page": {"type": "integer"},
                "per_page": {"type": "integer"},
                "total": {"type": "integer"},
                "pages": {"type": "integer"},
                "next_cursor": {"type": "string", "description": "cursor of the next page; empty on the last page"},
            },
        }
    return {
        "type": "object",
        "required": ["data", "meta"],
        "additionalProperties": False,
        "properties": {"data": data, "meta": meta},
    }


def _operation(ep: Endpoint, components: dict[str, Any]) -> dict[str, Any]:
    headers = {name: {"description": text, "schema": {"type": "integer"}} for name, text in RATE_HEADERS.items()}
    errors = error_responses(
        ep.plan, openapi_parameters(ep.params), dict(headers), stream=ep.media_type == "text/event-stream"
    )
    if ep.media_type == "application/json":
        content = {"application/json": {"schema": _response_schema(ep, components)}}
    else:  # a stream: each message's JSON `data` is one item of ep.returns
        content = {
            ep.media_type: {
                "schema": {
                    "type": "string",
                    "description": "Server-Sent Events; each `data` is JSON: "
                    + json_schema(ep.returns, components)["$ref"],
                }
            }
        }
    headers.update(LIMIT_HEADERS)  # after the errors took the X- ones: the IETF pair and Request-Id
    responses: dict[str, Any] = {"200": {"description": "OK", "headers": headers, "content": content}}
    if ep.media_type == "application/json":
        headers.update(JSON_HEADERS)
        headers["ETag"] = {
            "description": "A strong validator of this answer (a hash of its body): send it back "
            "as If-None-Match to get 304 while the answer is unchanged.",
            "schema": {"type": "string"},
        }
        responses["304"] = {
            "description": "Not modified: the answer is the one whose ETag the request sent in "
            "If-None-Match (no body; the call counts like any other).",
            "headers": {k: v for k, v in headers.items()},
        }
    responses.update(errors)
    plan = PLANS[ep.plan]
    return {
        "operationId": ep.name,  # the MCP tool's name too (svc.tools.catalog)
        "summary": ep.summary,
        "description": ep.description
        + f"\n\nPlan: {plan.title} and above."
        + ("" if ep.counted else " Never counted against limits."),
        "tags": [tag_of(ep.path)],  # the resource; the plan is x-plan
        "x-plan": ep.plan,
        "parameters": openapi_parameters(ep.params),
        "responses": responses,
    }


def build(
    endpoints: Sequence[Endpoint], webhooks: Callable[[dict[str, Any]], dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The OpenAPI 3.1 description of `endpoints`; `webhooks(schemas)`, when given,
    makes the `webhooks` section (the assembly passes svc_hooks' own)."""
    components: dict[str, Any] = {
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {
                    "type": "object",
                    "required": ["code", "message", "docs"],
                    "properties": {
                        "code": {"enum": sorted(ERRORS)},
                        "message": {"type": "string"},
                        "docs": {"type": "string", "format": "uri"},
                        "plan": {"enum": list(PLANS), "description": "on upgrade_required: the plan that has it"},
                        "resets_at": {"type": "string", "format": "date-time", "description": "on quota_exceeded"},
                        "param": {
                            "type": "string",
                            "description": "on bad_request and invalid_parameter caused by one query or path "
                            "parameter: its name as sent",
                        },
                        "pages": {"type": "integer", "description": "on a page past the last: the list's pages"},
                        "total": {"type": "integer", "description": "on a page past the last: the list's items"},
                        "covers": {
                            "type": "object",
                            "required": ["from", "to"],
                            "properties": {
                                "from": {"type": "string", "format": "date"},
                                "to": {"type": "string", "format": "date"},
                            },
                            "description": "on upgrade_required for a day of /v1/results: the first and last day the "
                            "Free key covers (yesterday and today, UTC)",
                        },
                    },
                }
            },
        }
    }
    paths: dict[str, Any] = {}
    for ep in endpoints:
        paths.setdefault(ep.path, {})["get"] = _operation(ep, components)

    return {
        "openapi": "3.1.0",
        "info": {"title": "Badminton data service", "version": API_VERSION, "description": DESCRIPTION},
        "servers": [{"url": "/"}],
        "security": [{"bearer": []}, {"apiKeyHeader": []}],
        "tags": tag_objects({op["tags"][0] for item in paths.values() for op in item.values()}),
        "paths": paths,
        **({"webhooks": webhooks(components)} if webhooks else {}),
        "components": {
            "schemas": components,
            "securitySchemes": {
                "bearer": {"type": "http", "scheme": "bearer", "description": "Authorization: Bearer <key>"},
                "apiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
            },
        },
        "x-plans": {
            p.name: {"title": p.title, "per_minute": p.per_minute, "per_day": p.per_day} for p in PLANS.values()
        },
    }
