"""Keys: where they are read, what a missing, unknown, replaced or under-planned key gets."""

from __future__ import annotations

from svc.access import keys as svc_keys
from svc.core.db import connect_asyncio
from tests.support import make_key, run, sql

RATE_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Quota-Remaining")


def calls_today(db_url: str, key: str) -> int:
    rows = sql(
        db_url,
        "SELECT u.day_calls FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.key_hash = $1",
        svc_keys.key_hash(key),
    )
    return rows[0]["day_calls"]


async def test_bearer_and_x_api_key_are_read_identically(client, db_url):
    key = make_key(db_url, "free")
    by_bearer = await client.get("/v1/series", key)
    by_header = await client.get("/v1/series", key, header="x-api-key")
    assert by_bearer.status_code == by_header.status_code == 200
    assert by_bearer.json_body["data"] == by_header.json_body["data"]
    assert int(by_header.headers["X-RateLimit-Remaining"]) == int(by_bearer.headers["X-RateLimit-Remaining"]) - 1


async def test_key_in_query_string_is_refused_even_when_valid_and_not_counted(client, db_url):
    key = make_key(db_url, "free")
    for name in ("key", "api_key"):
        with_header_too = await client.get("/v1/series", key, **{name: key})
        query_only = await client.get("/v1/series", **{name: key})
        for r in (with_header_too, query_only):
            assert r.status_code == 400
            assert r.json_body["error"]["code"] == "bad_request"
            assert "header" in r.json_body["error"]["message"]
    assert calls_today(db_url, key) == 0


async def test_missing_unknown_and_malformed_keys_get_401_saying_which(client):
    missing = await client.get("/v1/series")
    assert missing.status_code == 401 and missing.json_body["error"]["code"] == "unauthorized"
    assert "no key" in missing.json_body["error"]["message"]
    unknown = await client.get("/v1/series", svc_keys.new_key())
    assert unknown.status_code == 401 and "unknown key" in unknown.json_body["error"]["message"]
    malformed = await client.get("/v1/series", "not-a-key")
    assert malformed.status_code == 401 and "unknown key" in malformed.json_body["error"]["message"]
    not_bearer = await client.get("/v1/series", headers={"Authorization": "Basic abc"})
    assert not_bearer.status_code == 401


async def test_replaced_key_stops_at_once_and_replacement_works(client, db_url):
    old = make_key(db_url, "free")
    assert (await client.get("/v1/series", old)).status_code == 200

    async def replace():
        conn = await connect_asyncio(db_url)
        try:
            return await svc_keys.replace_key(conn, old)
        finally:
            await conn.close()

    new = run(replace())
    refused = await client.get("/v1/series", old)
    assert refused.status_code == 401
    assert "replaced" in refused.json_body["error"]["message"]
    answered = await client.get("/v1/series", new)
    assert answered.status_code == 200
    # the replacement keeps the allowance already used today
    assert answered.headers["X-Quota-Remaining"] == "48"


async def test_endpoint_above_plan_gets_403_naming_the_plan_and_upgrade_is_immediate(client, db_url):
    key = make_key(db_url, "free", account="upgrader")
    refused = await client.get("/v1/results", key, date="2001-03-10")
    assert refused.status_code == 403
    assert refused.json_body["error"]["code"] == "upgrade_required"
    assert refused.json_body["error"]["plan"] == "archive"
    for name in RATE_HEADERS:
        assert name in refused.headers

    async def upgrade():
        conn = await connect_asyncio(db_url)
        try:
            await svc_keys.set_plan(conn, "upgrader", "archive")
        finally:
            await conn.close()

    run(upgrade())
    allowed = await client.get("/v1/results", key, date="2001-03-10")
    assert allowed.status_code == 200
    assert allowed.headers["X-RateLimit-Limit"] == "60"


async def test_error_body_has_code_message_and_docs_url(client):
    r = await client.get("/v1/series")
    error = r.json_body["error"]
    assert set(error) == {"code", "message", "docs"}
    assert error["docs"].endswith("/docs#unauthorized")
    docs = await client.get("/docs")
    assert docs.status_code == 200
