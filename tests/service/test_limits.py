"""Calls a minute and a day per key, counted in PostgreSQL, on Trio's mock clock."""

from __future__ import annotations

import datetime as dt

import trio

from svc.access import keys as svc_keys
from tests.support import NOON, make_key, sql


async def test_free_minute_limit_then_the_next_minute(client, db_url, mock_clock):
    key = make_key(db_url, "free")
    for i in range(10):
        r = await client.get("/v1/series", key)
        assert r.status_code == 200
        assert r.headers["X-RateLimit-Remaining"] == str(9 - i)
    refused = await client.get("/v1/series", key)
    assert refused.status_code == 429
    assert refused.json_body["error"]["code"] == "rate_limited"
    retry = int(refused.headers["Retry-After"])
    assert 1 <= retry <= 60
    assert refused.headers["X-RateLimit-Remaining"] == "0"
    assert refused.headers["X-Quota-Remaining"] == "40"  # the refused call was not counted
    reset = int(refused.headers["X-RateLimit-Reset"])
    assert reset == int(NOON.timestamp()) + 60
    mock_clock.jump(retry)
    again = await client.get("/v1/series", key)
    assert again.status_code == 200
    assert again.headers["X-RateLimit-Remaining"] == "9"


async def test_free_day_quota_resets_at_midnight_utc(client, db_url, mock_clock):
    key = make_key(db_url, "free")
    used = 0
    while used < 50:
        for _ in range(10):
            assert (await client.get("/v1/series", key)).status_code == 200
            used += 1
        mock_clock.jump(60)
    refused = await client.get("/v1/series", key)
    assert refused.status_code == 429
    error = refused.json_body["error"]
    assert error["code"] == "quota_exceeded"
    midnight = dt.datetime.combine(NOON.date() + dt.timedelta(days=1), dt.time(), dt.UTC)
    assert error["resets_at"] == midnight.isoformat().replace("+00:00", "Z")
    now = NOON + dt.timedelta(minutes=5)
    assert int(refused.headers["Retry-After"]) == int((midnight - now).total_seconds())
    assert refused.headers["X-Quota-Remaining"] == "0"
    usage = await client.get("/v1/usage", key)  # never counted, still answers
    assert usage.status_code == 200 and usage.json_body["data"]["calls_today"] == 50
    mock_clock.jump((midnight - now).total_seconds())
    fresh = await client.get("/v1/series", key)
    assert fresh.status_code == 200
    assert fresh.headers["X-Quota-Remaining"] == "49"
    month_calls = (await client.get("/v1/usage", key)).json_body["data"]["calls_this_month"]
    assert month_calls == (51 if midnight.month == NOON.month else 1)


async def test_eleven_calls_at_once_exactly_ten_answered(client, db_url, mock_clock):
    key = make_key(db_url, "free")
    statuses: list[int] = []
    remaining: list[int] = []

    answered: list[int] = []

    async def call():
        r = await client.get("/v1/series", key)
        statuses.append(r.status_code)
        remaining.append(int(r.headers["X-RateLimit-Remaining"]))
        if r.status_code == 200:
            answered.append(remaining[-1])

    async with trio.open_nursery() as nursery:
        for _ in range(11):
            nursery.start_soon(call)
    assert sorted(statuses) == [200] * 10 + [429]
    assert min(remaining) == 0
    # calls counted together (one statement for the calls of a worker made at once) each see
    # the count as if they had come one after another
    assert sorted(answered) == list(range(10))


async def test_limits_are_per_key_not_per_account_or_address(client, db_url, mock_clock):
    first = make_key(db_url, "free", account="two-keys")
    second = make_key(db_url, "free", account="two-keys")
    for _ in range(10):
        assert (await client.get("/v1/series", first)).status_code == 200
    assert (await client.get("/v1/series", first)).status_code == 429
    assert (await client.get("/v1/series", second)).status_code == 200


async def test_validation_errors_are_not_counted_but_carry_headers(client, db_url, mock_clock):
    key = make_key(db_url, "free")
    bad = await client.get("/v1/fixtures", key, per_page=500)
    assert bad.status_code == 422
    assert bad.headers["X-RateLimit-Remaining"] == "10"
    rows = sql(
        db_url,
        "SELECT u.minute_calls FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.key_hash = $1",
        svc_keys.key_hash(key),
    )
    assert rows[0]["minute_calls"] == 0
