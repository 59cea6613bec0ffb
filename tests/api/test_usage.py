"""/v1/usage: a key's plan, limits and calls so far, never counted itself."""

from __future__ import annotations

from tests.support import make_key


async def test_usage_is_never_counted(client, db_url, mock_clock):
    key = make_key(db_url, "free")
    for _ in range(15):
        r = await client.get("/v1/usage", key)
        assert r.status_code == 200
    data = r.json_body["data"]
    assert data["plan"] == "free"
    assert data["calls_today"] == 0 and data["calls_this_minute"] == 0
    assert data["limits"] == {"per_minute": 10, "per_day": 50}
    assert r.headers["X-RateLimit-Remaining"] == "10"
