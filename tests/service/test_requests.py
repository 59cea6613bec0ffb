"""Bad input: every parameter checked, 400 for what cannot be read, 422 for what is not
acceptable, the parameter named; 404 and 405 as JSON; never a 500."""

from __future__ import annotations

import pytest

from tests.support import make_key


@pytest.fixture(scope="module")
def key(db_url):
    return make_key(db_url, "live")  # the highest limits: these tests make many calls


CASES = [
    # path, params, status, parameter named in the message
    ("/v1/fixtures", {"per_page": "0"}, 422, "per_page"),
    ("/v1/fixtures", {"per_page": "201"}, 422, "per_page"),
    ("/v1/fixtures", {"per_page": "ten"}, 400, "per_page"),
    ("/v1/fixtures", {"page": "0"}, 422, "page"),
    ("/v1/fixtures", {"page": "1.5"}, 400, "page"),
    ("/v1/fixtures", {"discipline": "XX"}, 422, "discipline"),
    ("/v1/fixtures", {"discipline": ""}, 400, "discipline"),
    ("/v1/fixtures", {"cursor": "garbage!"}, 400, "cursor"),
    ("/v1/fixtures", {"per-page": "5"}, 400, "per-page"),
    ("/v1/results", {}, 400, "date"),
    ("/v1/results", {"date": "2024-13-01"}, 400, "date"),
    ("/v1/results", {"date": "2024-02-30"}, 400, "date"),
    ("/v1/results", {"date": "yesterday"}, 400, "date"),
    ("/v1/results", {"date": "2999-01-01"}, 422, "date"),
    ("/v1/search", {}, 400, "q"),
    ("/v1/search", {"q": "lee", "limit": "0"}, 422, "limit"),
    ("/v1/search", {"q": "lee", "limit": "51"}, 422, "limit"),
    ("/v1/search", {"q": "lee", "kind": "planet"}, 422, "kind"),
    ("/v1/search", {"q": "a\x00b"}, 400, "q"),
    ("/v1/search", {"q": "x" * 201}, 422, "q"),
    ("/v1/calendar", {"year": "1898"}, 422, "year"),
    ("/v1/calendar", {"year": "MMXX"}, 400, "year"),
    ("/v1/calendar", {"level": "veteran"}, 422, "level"),
    ("/v1/calendar", {"series": "no-such-series"}, 422, "series"),
    ("/v1/calendar", {"series": "Bad Slug!"}, 400, "series"),
    ("/v1/events/mt_abc", {}, 400, "id"),
    ("/v1/events/ev_doesnotexist", {}, 404, "ev_doesnotexist"),
    ("/v1/fixtures", {"per_page": "\uff11"}, 400, "per_page"),  # fullwidth 1: integers are ASCII digits
    ("/v1/calendar", {"year": "\u0662\u0660\u0662\u0660"}, 400, "year"),  # Arabic-Indic 2020
]


@pytest.mark.parametrize("path,params,status,named", CASES)
async def test_bad_input_gets_a_clear_error(client, key, path, params, status, named):
    r = await client.get(path, key, **params)
    assert r.status_code == status, r.json_body
    error = r.json_body["error"]
    assert error["code"] == {400: "bad_request", 404: "not_found", 422: "invalid_parameter"}[status]
    assert named in error["message"]
    # like Stripe's errors: the parameter that caused a 400 or 422 by name, for a program to act on
    assert error.get("param") == (named if status != 404 else None)
    assert "X-RateLimit-Remaining" in r.headers


async def test_repeated_parameter_is_refused(client, key):
    r = await client.get("/v1/fixtures?per_page=5&per_page=6", key)
    assert r.status_code == 400 and "more than once" in r.json_body["error"]["message"]


async def test_unknown_path_is_json_404(client, key):
    r = await client.get("/v1/nothing-here", key)
    assert r.status_code == 404 and r.json_body["error"]["code"] == "not_found"


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
async def test_other_methods_get_405_with_allow_get(client, key, method):
    r = await client.request(method, "/v1/series", key)
    assert r.status_code == 405
    assert r.headers["Allow"] == "GET"
    assert r.json_body["error"]["code"] == "method_not_allowed"


async def test_browsers_on_other_origins_may_call_with_a_header_key(client, key):
    preflight = await client._client.options(
        "/v1/live/stream",
        headers={
            "Origin": "http://localhost:9000",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization, last-event-id",
        },
    )
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Origin"] == "*"
    assert "Authorization" in preflight.headers["Access-Control-Allow-Headers"]
    assert "Last-Event-ID" in preflight.headers["Access-Control-Allow-Headers"]
    r = await client.get("/v1/series", key, headers={"Origin": "http://localhost:9000"})
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    assert "X-Quota-Remaining" in r.headers["Access-Control-Expose-Headers"]
    plain_options = await client.request("OPTIONS", "/v1/series", key)
    assert plain_options.status_code == 405 and plain_options.headers["Allow"] == "GET"
    page = await client.get("/live")
    assert page.status_code == 200 and b"/v1/live/stream" in await page.get_data()
    assert b"new EventSource(" in await page.get_data()
    # the service worker that adds the key header to the page's EventSource requests: served
    # without a key, as JavaScript (browsers refuse a worker of any other type), never cached stale
    worker = await client.get("/live-worker.js")
    assert worker.status_code == 200 and worker.headers["Content-Type"].startswith("text/javascript")
    assert worker.headers["Cache-Control"] == "no-cache"
    assert b'headers.set("Authorization", "Bearer " + key)' in await worker.get_data()


RATE_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Quota-Remaining")


def remaining(r) -> int:
    return int(r.headers["X-RateLimit-Remaining"])


async def test_refusals_outside_an_endpoint_carry_the_rate_headers_and_are_not_counted(client, db_url):
    key = make_key(db_url, "free")
    first = await client.get("/v1/countries", key)
    for r in (
        await client.get("/v1/nothing-here", key),  # no such path
        await client.get("/v1/players//matches", key),  # an empty segment: no redirect
        await client.get("//v1/countries", key),  # ... leading (Werkzeug strips it)
        await client.get("/v1/countries/", key),  # ... trailing
        await client.get("/v1/./countries", key),  # a dot segment
        await client.get("/v1/series/%2e%2e%2f/champions", key),  # dots: no redirect
        await client.get("/v1/countries", key, key_=key),  # a key in the query string
        await client.request("HEAD", "/v1/countries", key),  # only GET is served
        await client.get("/v1/countries", key, q="x" * 9000),
    ):  # a URL over 8 KiB
        assert r.status_code in (400, 404, 405), r.status_code
        assert all(h in r.headers for h in RATE_HEADERS), (r.status_code, dict(r.headers))
        assert remaining(r) == remaining(first)
    head = await client.request("HEAD", "/v1/countries", key)
    assert head.status_code == 405 and head.headers["Allow"] == "GET"
    long = await client.get("/v1/countries", key, q="x" * 9000)
    assert long.json_body["error"]["code"] == "bad_request" and "8192" in long.json_body["error"]["message"]
    assert remaining(await client.get("/v1/countries", key)) == remaining(first) - 1


async def test_two_different_keys_are_refused_however_they_come(client, db_url):
    a, b = make_key(db_url, "free"), make_key(db_url, "free")
    for headers in (
        {"X-API-Key": a, "Authorization": f"Bearer {b}"},
        [("X-API-Key", a), ("X-API-Key", b)],
        [("Authorization", f"Bearer {a}"), ("Authorization", f"Bearer {b}")],
    ):
        r = await client._client.get("/v1/countries", headers=headers)
        assert r.status_code == 400, headers
    same = await client._client.get("/v1/countries", headers=[("X-API-Key", a), ("X-API-Key", a)])
    assert same.status_code == 200


async def test_a_parameter_refused_by_the_handler_is_not_counted(client, db_url):
    key = make_key(db_url, "archive")
    before = await client.get("/v1/countries", key)
    refused = await client.get("/v1/analysis/seeds", key, from_=2020, to=2010)  # judged after counting
    assert refused.status_code == 422 and remaining(refused) == remaining(before)
    missing = await client.get("/v1/players/pl_nosuchplayer1", key)  # an unknown id cost a lookup: counted
    assert missing.status_code == 404 and remaining(missing) == remaining(before) - 1


async def test_health_needs_no_key_and_names_the_components(client):
    r = await client.get("/healthz")
    assert r.status_code == 200 and r.json_body["status"] == "ok" and r.json_body["database"] == "ok"
