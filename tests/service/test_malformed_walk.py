"""A walk of malformed requests over every endpoint, generated from the OpenAPI description:
every parameter given empty, too long, of the wrong type, in other scripts' digits, with control
characters, quotes and percent-escapes, twice, unknown, and every path id mangled -- each with a
valid key in each header. No answer is a 5xx, every body is a JSON error or a JSON answer, and
every answer carries the rate-limit headers."""

from __future__ import annotations

import itertools
from urllib.parse import quote

import pytest

from svc.assembly import openapi_description
from tests.support import make_key, sql

RATE_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Quota-Remaining")
BAD_VALUES = [
    "",
    " ",
    "x" * 300,
    "-1",
    "0",
    "99999999999",
    "1.5",
    "abc",
    "\uff11",
    "\u0661\u0669",
    "\x00",
    "%00",
    "%zz",
    "'; DROP TABLE players; --",
    "2024-02-30",
    "9999-99-99",
    "true",
    "null",
    "pl_",
    "ev_%2F..%2F",
    "\u202e",
    "🏸",
    "[]",
    "{}",
    "1e9",
    " 1",
    "+1",
    "--1",
    "0x10",
    "NaN",
]
BAD_IDS = ["x", "pl_", "mt_" + "a" * 80, "%2e%2e", "..", "ev_abc%00", "tr_\u00e9", "ev_" + "9" * 5, "%20", "🏸"]
HEADERS = ("Authorization", "X-API-Key")


@pytest.fixture(scope="module")
def live_key(db_url):
    key = make_key(db_url, "live")
    sql(db_url, "UPDATE plans SET per_minute = 1000000000, per_day = 1000000000 WHERE name = 'live'")
    return key


def requests_from_description() -> list[str]:
    """Paths with malformed query strings (and mangled path ids), from /v1/openapi.json."""
    out: list[str] = []
    for path, item in openapi_description()["paths"].items():
        if path == "/v1/live/stream":
            continue  # a good call stays open for minutes; tests/live/ cover its refusals
        params = item["get"].get("parameters", [])
        in_path = [p["name"] for p in params if p["in"] == "path"]
        good_path = path
        for name in in_path:
            good_path = good_path.replace("{" + name + "}", "pl_x")
        for name in in_path:
            for bad in BAD_IDS:
                out.append(path.replace("{" + name + "}", quote(bad, safe="%")))
        for p in (p for p in params if p["in"] == "query"):
            for bad in BAD_VALUES:
                out.append(f"{good_path}?{p['name']}={quote(bad, safe='%')}")
            out.append(f"{good_path}?{p['name']}=1&{p['name']}=2")
        out.append(f"{good_path}?no_such_parameter=1")
        out.append(f"{good_path}?=&&=&")
        for a, b in itertools.combinations([p["name"] for p in params if p["in"] == "query"], 2):
            out.append(f"{good_path}?{a}=%ff&{b}=%00")
    return out


async def test_malformed_requests_get_json_errors_with_rate_headers(client, live_key):
    paths = requests_from_description()
    seen = 0
    statuses: dict[int, int] = {}
    for path, header in itertools.product(paths, HEADERS):
        sent = {"Authorization": f"Bearer {live_key}"} if header == "Authorization" else {"X-API-Key": live_key}
        r = await client._client.get(path, headers=sent)
        seen += 1
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        assert r.status_code < 500, (path, r.status_code, await r.get_data())
        body = await r.get_json()
        assert body is not None and ("error" in body or "data" in body), (path, await r.get_data())
        if r.status_code >= 400:
            assert body["error"]["code"] and body["error"]["message"], path
        assert all(h in r.headers for h in RATE_HEADERS), (path, r.status_code, dict(r.headers))
    assert seen >= 6000, seen
    # the parameters were read (a walk answered only 404s would prove nothing)
    assert statuses.get(400, 0) > 2000 and statuses.get(422, 0) > 100, statuses
