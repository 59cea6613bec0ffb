"""The habits clients bring from other APIs (Stripe, GitHub, the IETF drafts): `error.param`
naming the parameter at fault, the IETF RateLimit fields beside X-RateLimit-*, gzip with an
ETag of its own, Cache-Control and Vary, a Request-Id on every answer, and /livez beside /readyz."""

from __future__ import annotations

import datetime as dt
import functools
import gzip
import logging
import math
import re

import orjson
import pytest
import trio

from svc.access import keys as svc_keys
from svc.access.plans import PLANS
from svc.assembly import create_app, hub_component
from svc.core import pgserver
from svc.core.clock import Clock
from svc.core.logs import JsonLines, TextLines
from svc.testing.live import Reader, running_app
from svc.web import encoding
from tests.support import NOON, Client, make_key, sql

from .test_outage import own_server  # noqa: F401 -- a PostgreSQL of the test's own, to stop


@pytest.fixture(scope="module")
def keys(db_url):
    return {plan: make_key(db_url, plan) for plan in ("archive", "odds")}


PARAM_CASES = [
    # path, params, plan, status, the parameter at fault -- each judged by a handler, not the declarations
    ("/v1/h2h", {"player1": "pl_a1", "player2": "pl_a1"}, "archive", 422, "player2"),
    ("/v1/ratings", {}, "archive", 400, "discipline"),
    ("/v1/ratings", {"discipline": "MS", "date": "2999-01-01"}, "archive", 422, "date"),
    ("/v1/analysis/seeds", {"from": "2020", "to": "2010"}, "archive", 422, "from"),
    ("/v1/predict", {"player1": "pl_a1", "player2": "pl_b2", "partner1": "pl_c3"}, "odds", 422, "partner2"),
    ("/v1/predict", {"player1": "pl_a1", "player2": "pl_b2", "games": "21-0"}, "odds", 400, "games"),
]


@pytest.mark.parametrize("path,params,plan,status,param", PARAM_CASES)
async def test_an_error_about_one_parameter_names_it_in_error_param(client, keys, path, params, plan, status, param):
    r = await client.get(path, keys[plan], **params)
    error = r.json_body["error"]
    assert (r.status_code, error["param"]) == (status, param), error
    assert f"`{param}`" in error["message"]


async def test_an_error_about_no_parameter_has_no_param(client, keys):
    for r in (
        await client.get("/v1/series"),  # no key
        await client.get("/v1/players/pl_nosuchplayer1", keys["archive"]),  # no such item
        await client.get("/v1/backtest", keys["archive"]),  # above the plan
    ):
        assert r.status_code in (401, 403, 404) and "param" not in r.json_body["error"], r.json_body


# -- RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers) beside X-RateLimit-* --


def structured_list(field: str) -> dict[str, dict[str, int]]:
    """A structured-field List of Items named by Strings with integer parameters, as the draft's
    fields are: '"minute";q=10;w=60, "day";q=50;w=86400' -> {"minute": {"q": 10, "w": 60}, ...}."""
    out = {}
    for member in field.split(","):
        name, *params = member.strip().split(";")
        assert name.startswith('"') and name.endswith('"'), field
        out[name.strip('"')] = {k: int(v) for k, v in (p.split("=") for p in params)}
    return out


def assert_rate_fields_agree(r, now: float, plan: str) -> None:
    policy, limit = structured_list(r.headers["RateLimit-Policy"]), structured_list(r.headers["RateLimit"])
    assert policy == {
        "minute": {"q": PLANS[plan].per_minute, "w": 60},
        "day": {"q": PLANS[plan].per_day, "w": 86400},
    }
    assert policy["minute"]["q"] == int(r.headers["X-RateLimit-Limit"])
    assert limit["minute"]["r"] == int(r.headers["X-RateLimit-Remaining"])
    assert limit["day"]["r"] == int(r.headers["X-Quota-Remaining"])
    assert limit["minute"]["t"] == math.ceil(int(r.headers["X-RateLimit-Reset"]) - now)
    midnight = dt.datetime.combine(NOON.date() + dt.timedelta(days=1), dt.time(), dt.UTC).timestamp()
    assert limit["day"]["t"] == math.ceil(midnight - now)
    if r.status_code == 429:  # the draft: Retry-After no earlier than the refused window's end
        refused = "day" if r.json_body["error"]["code"] == "quota_exceeded" else "minute"
        assert int(r.headers["Retry-After"]) == limit[refused]["t"]


async def test_the_ietf_rate_fields_agree_with_the_x_headers_on_every_answer(client, db_url, mock_clock):
    key = make_key(db_url, "free")
    await client.get("/v1/usage", key)  # never counted; the app's clock starts at noon
    mock_clock.jump(7.5)  # mid-minute: t is 53 s to the minute's end, not a whole window
    now = NOON.timestamp() + 7.5
    answers = {"ok": await client.get("/v1/series", key)}
    answers["304"] = await client.get("/v1/series", key, headers={"If-None-Match": answers["ok"].headers["ETag"]})
    answers["404"] = await client.get("/v1/events/ev_doesnotexist", key)
    answers["422"] = await client.get("/v1/fixtures", key, per_page="0")
    answers["403"] = await client.get("/v1/players", key)
    while (r := await client.get("/v1/countries", key)).status_code == 200:
        answers["last ok"] = r
    answers["rate_limited"] = r
    mock_clock.jump(60)
    now += 60
    sql(
        db_url,
        "UPDATE key_usage SET day_calls = $2 WHERE key_id = (SELECT id FROM api_keys WHERE key_hash = $1)",
        svc_keys.key_hash(key),
        PLANS["free"].per_day,
    )
    answers["quota_exceeded"] = await client.get("/v1/series", key)
    statuses = {name: r.status_code for name, r in answers.items()}
    assert statuses == {
        "ok": 200,
        "304": 304,
        "404": 404,
        "422": 422,
        "403": 403,
        "last ok": 200,
        "rate_limited": 429,
        "quota_exceeded": 429,
    }
    assert answers["rate_limited"].json_body["error"]["code"] == "rate_limited"
    assert answers["quota_exceeded"].json_body["error"]["code"] == "quota_exceeded"
    for name, r in answers.items():
        assert_rate_fields_agree(r, now if name == "quota_exceeded" else NOON.timestamp() + 7.5, "free")
    assert structured_list(answers["last ok"].headers["RateLimit"])["minute"]["r"] == 0


async def test_a_refused_call_is_logged_with_its_key_like_a_served_one(client, db_url, caplog):
    key = make_key(db_url, "free")
    with caplog.at_level(logging.INFO, logger="svc.access"):
        while (r := await client.get("/v1/countries", key)).status_code == 200:
            pass
        over_plan = await client.get("/v1/players", key)
    assert (r.status_code, over_plan.status_code) == (429, 403)
    lines = [TextLines().format(rec) for rec in caplog.records if rec.name == "svc.access"]
    assert lines[-2].split(" GET ")[1].startswith("/v1/countries 429 ") and f"key={key[:12]} id=" in lines[-2]
    assert lines[-1].split(" GET ")[1].startswith("/v1/players 403 ") and f"key={key[:12]} id=" in lines[-1]


# -- Request-Id ---------------------------------------------------------------------------------


async def test_every_answer_carries_a_request_id_which_its_log_line_names(client, keys, caplog):
    key = keys["archive"]
    with caplog.at_level(logging.INFO, logger="svc.access"):
        served = await client.get("/v1/series", key)
        answers = [
            served,
            await client.get("/v1/series", key, headers={"If-None-Match": served.headers["ETag"]}),  # 304
            await client.get("/v1/fixtures", key, per_page="0"),  # 422
            await client.get("/v1/series"),  # 401
            await client.get("/v1/nothing-here", key),  # refused outside an endpoint
            await client.request("DELETE", "/v1/series", key),  # 405
        ]
    for probe in ("/livez", "/readyz", "/healthz", "/v1/openapi.json", "/docs"):
        answers.append(await client.get(probe))
    ids = [r.headers.get("Request-Id") for r in answers]
    assert all(rid and re.fullmatch(r"[0-9a-f]{32}", rid) for rid in ids), ids
    assert len(set(ids)) == len(ids)  # one per request
    logged = [rec for rec in caplog.records if rec.name == "svc.access"]
    assert [rec.request_id for rec in logged] == ids[:6]
    assert TextLines().format(logged[0]).endswith(f"key={key[:12]} id={ids[0]}")
    assert orjson.loads(JsonLines().format(logged[3]))["request_id"] == ids[3]


@pytest.mark.parametrize(
    "sent,kept",
    [
        ({"Request-Id": "req_7Hk2.a-b_c"}, True),
        ({"X-Request-Id": "0f8fad5b-d9cb-469f-a165-70867728950e"}, True),
        ({"Request-Id": "x" * 64}, True),
        ({"Request-Id": "x" * 65}, False),  # too long
        ({"Request-Id": "two words"}, False),
        ({"X-Request-Id": 'a"b'}, False),
        ({"Request-Id": "ok\\u2028"}, False),
    ],
)
async def test_a_short_safe_request_id_from_the_client_is_kept_any_other_replaced(client, keys, sent, kept):
    r = await client.get("/v1/series", keys["archive"], headers=sent)
    (given,) = sent.values()
    assert (r.headers["Request-Id"] == given) is kept
    if not kept:
        assert re.fullmatch(r"[0-9a-f]{32}", r.headers["Request-Id"])


# -- /livez and /readyz ---------------------------------------------------------------------------


async def test_livez_stays_200_while_readyz_says_503_without_the_database(own_server):  # noqa: F811
    """With the database stopped hard, a liveness probe must not fail (a restart cannot mend a
    database outage) while readiness takes the worker out of the balance. In process: a real
    `serve` on an empty database would first generate the demo world (over a minute)."""
    url, server = own_server
    async with create_app(url, clock=Clock(start=NOON), pool_size=2).test_app() as test_app:
        probe = Client(test_app.test_client())
        up = {path: (await probe.get(path)) for path in ("/livez", "/readyz", "/healthz")}
        assert {p: r.status_code for p, r in up.items()} == {"/livez": 200, "/readyz": 200, "/healthz": 200}
        assert up["/readyz"].json_body["database"] == "ok"
        pgserver.stop_immediately(server)
        with trio.fail_after(5):  # readyz gives the database a second, never more
            down = {path: (await probe.get(path)) for path in ("/livez", "/readyz", "/healthz")}
        assert {p: r.status_code for p, r in down.items()} == {"/livez": 200, "/readyz": 503, "/healthz": 503}
        assert down["/livez"].json_body == {"status": "ok"}
        assert down["/readyz"].json_body["database"] == "unreachable"
        assert all(r.headers["Cache-Control"] == "no-store" and r.headers["Request-Id"] for r in down.values())


# -- gzip, ETags per form, Cache-Control and Vary ----------------------------------------------


async def raw_get(client, path: str, key: str | None = None, **headers: str):
    """An answer whose body is left as sent (the test client's JSON reading would choke on gzip)."""
    sent = {"Authorization": f"Bearer {key}"} if key else {}
    response = await client._client.get(path, headers={**sent, **headers})
    return response, await response.get_data()


async def test_gzip_when_asked_decodes_to_the_plain_answer_under_an_etag_of_its_own(client, keys):
    key = keys["archive"]
    plain, plain_body = await raw_get(client, "/v1/countries", key)
    packed, packed_body = await raw_get(client, "/v1/countries", key, **{"Accept-Encoding": "gzip, deflate"})
    assert "Content-Encoding" not in plain.headers and packed.headers["Content-Encoding"] == "gzip"
    assert len(plain_body) >= encoding.FLOOR and len(packed_body) < len(plain_body) / 4
    assert orjson.loads(gzip.decompress(packed_body)) == orjson.loads(plain_body)
    assert packed.headers["ETag"] != plain.headers["ETag"]
    for r in (plain, packed):
        assert r.headers["Content-Type"] == "application/json"
        assert r.headers["Vary"] == "Authorization, X-API-Key, Accept-Encoding"
        assert r.headers["Cache-Control"] == "private, no-cache"
    # each form revalidates by its own ETag only
    same, body = await raw_get(
        client, "/v1/countries", key, **{"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]}
    )
    assert same.status_code == 304 and body == b"" and same.headers["ETag"] == packed.headers["ETag"]
    other, body = await raw_get(client, "/v1/countries", key, **{"If-None-Match": packed.headers["ETag"]})
    assert other.status_code == 200 and body == plain_body and other.headers["ETag"] == plain.headers["ETag"]
    other, body = await raw_get(
        client, "/v1/countries", key, **{"Accept-Encoding": "gzip", "If-None-Match": plain.headers["ETag"]}
    )
    assert other.status_code == 200 and other.headers["Content-Encoding"] == "gzip"


@pytest.mark.parametrize(
    "accept,packed",
    [
        ("gzip", True),
        ("x-gzip", True),
        ("*", True),
        ("br;q=1.0, gzip;q=0.5", True),
        ("identity", False),
        ("br", False),
        ("gzip;q=0", False),
        ("gzip;q=0, *", False),
        ("*;q=0", False),
        ("gzip;q=x", False),
    ],
)
async def test_accept_encoding_is_read_with_its_weights(client, keys, accept, packed):
    r, _ = await raw_get(client, "/v1/countries", keys["archive"], **{"Accept-Encoding": accept})
    assert (r.headers.get("Content-Encoding") == "gzip") is packed


async def test_a_small_answer_and_an_error_go_plain_even_when_gzip_is_asked(client, keys):
    usage, body = await raw_get(client, "/v1/usage", keys["archive"], **{"Accept-Encoding": "gzip"})
    assert len(body) < encoding.FLOOR and "Content-Encoding" not in usage.headers
    assert usage.headers["Vary"] == "Authorization, X-API-Key, Accept-Encoding"  # a bigger answer would be gzip
    error, body = await raw_get(client, "/v1/fixtures?per_page=0", keys["archive"], **{"Accept-Encoding": "gzip"})
    assert error.status_code == 422 and "Content-Encoding" not in error.headers and orjson.loads(body)["error"]


async def test_a_cached_answer_keeps_its_gzip_bytes_and_is_not_compressed_again(cached_client, keys, monkeypatch):
    made = []
    compress = gzip.compress
    monkeypatch.setattr(encoding.gzip, "compress", lambda data, **kw: made.append(len(data)) or compress(data, **kw))
    answers = [
        await raw_get(cached_client, "/v1/countries", keys["odds"], **{"Accept-Encoding": "gzip"}) for _ in range(4)
    ]
    plain, plain_body = await raw_get(cached_client, "/v1/countries", keys["odds"])
    assert len(made) == 1  # once, when the answer was stored
    assert all(r.headers["Content-Encoding"] == "gzip" and body == answers[0][1] for r, body in answers)
    assert orjson.loads(gzip.decompress(answers[0][1])) == orjson.loads(plain_body)


async def test_cache_control_says_what_each_kind_of_answer_may_become(client, keys):
    key = keys["archive"]
    served = await client.get("/v1/countries", key)
    again = await client.get("/v1/countries", key, headers={"If-None-Match": served.headers["ETag"]})
    assert again.status_code == 304
    for r in (served, again):  # made for this key: no shared cache stores it; a browser asks again
        assert (r.headers["Cache-Control"], r.headers["Vary"]) == (
            "private, no-cache",
            "Authorization, X-API-Key, Accept-Encoding",
        )
    for r in (
        await client.get("/v1/countries"),  # 401
        await client.get("/v1/players", key, per_page="500"),  # 422
        await client.get("/v1/nothing-here", key),  # 404 outside an endpoint
        await client.get("/v1/backtest", key),  # 403
    ):
        assert r.headers["Cache-Control"] == "no-store", (r.status_code, dict(r.headers))
    spec = await client.get("/v1/openapi.json")
    assert spec.headers["Cache-Control"] == "public, max-age=300" and spec.headers["Vary"] == "Accept-Encoding"
    assert (await client.get("/v1/openapi.json", headers={"If-None-Match": spec.headers["ETag"]})).status_code == 304
    assert (await client.get("/docs")).headers["Cache-Control"] == "public, max-age=300"
    for probe in ("/livez", "/readyz", "/healthz"):
        assert (await client.get(probe)).headers["Cache-Control"] == "no-store"


async def test_the_live_stream_is_never_compressed(db_url, mock_clock):
    key = make_key(db_url, "live")
    reader = Reader()
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (_app, http):
        async with trio.open_nursery() as n:
            n.start_soon(functools.partial(reader.run, http, key, **{"Accept-Encoding": "gzip"}))
            await reader.opened.wait()
            reader.kill.cancel()
    assert reader.status == 200 and reader.headers["content-type"].startswith("text/event-stream")
    assert "content-encoding" not in reader.headers and reader.headers["x-ratelimit-remaining"]


async def test_a_304_says_no_body_type(db_url, keys):
    """Read from the ASGI messages the server sends (Quart's test client would rebuild the answer
    and add its default text/html): a 304 has no body, so no Content-Type nor Content-Length."""
    async with running_app(db_url, Clock(start=NOON)) as (_app, http):
        served = await http.get("/v1/countries", headers={"X-API-Key": keys["archive"]})
        assert served.headers["content-type"] == "application/json"
        again = await http.get(
            "/v1/countries", headers={"X-API-Key": keys["archive"], "If-None-Match": served.headers["etag"]}
        )
    assert again.status_code == 304 and again.content == b""
    assert "content-type" not in again.headers and "content-length" not in again.headers
    assert again.headers["etag"] == served.headers["etag"] and again.headers["cache-control"] == "private, no-cache"
