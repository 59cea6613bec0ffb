"""The answer cache: repeated answers come from bytes, yet every call is counted, plans
see their own answers, and new data shows after an import or once the time-to-live ends."""

from __future__ import annotations

import time

import trio

from svc.core.db import connect_asyncio
from svc.world import derived as derive
from tests.support import make_key, run, sql


def rename_series(db_url: str, name: str) -> None:
    sql(db_url, "UPDATE series_stats SET name = $1 WHERE slug = 'all-england'", name)


def rebuild_derived(db_url: str) -> None:
    async def go():
        conn = await connect_asyncio(db_url)
        try:
            async with conn.transaction():
                await derive.rebuild(conn)
        finally:
            await conn.close()

    run(go())


def all_england(answer) -> str:
    return next(s["name"] for s in answer.json_body["data"] if s["series"] == "all-england")


async def test_cached_answers_are_counted_and_refresh_after_ttl_or_import(cached_client, db_url, mock_clock):
    key = make_key(db_url, "archive")
    first = await cached_client.get("/v1/series", key)
    rename_series(db_url, "Renamed meanwhile")
    second = await cached_client.get("/v1/series", key)
    assert second.json_body == first.json_body  # served from the cache
    assert int(second.headers["X-RateLimit-Remaining"]) == int(first.headers["X-RateLimit-Remaining"]) - 1
    mock_clock.jump(31)  # past the 30 s time-to-live
    assert all_england(await cached_client.get("/v1/series", key)) == "Renamed meanwhile"
    rebuild_derived(db_url)  # an import: new data version, derived tables rebuilt
    # the worker hears of the new version by NOTIFY (svc.access.allowances): within moments
    for _ in range(20):
        answer = all_england(await cached_client.get("/v1/series", key))
        if answer != "Renamed meanwhile":
            break
        await trio.to_thread.run_sync(time.sleep, 0.1)  # real time: the mock clock stands still
    assert answer != "Renamed meanwhile"


async def test_each_plan_gets_its_own_answer(cached_client, db_url):
    free, odds = make_key(db_url, "free"), make_key(db_url, "odds")
    priced = sql(
        db_url, "SELECT m.event_id FROM matches m JOIN odds o ON o.match_id = m.id WHERE m.status = 'finished' LIMIT 1"
    )[0]["event_id"]
    with_odds = await cached_client.get(f"/v1/events/{priced}", odds)
    without = await cached_client.get(f"/v1/events/{priced}", free)
    assert with_odds.json_body["data"]["odds"] is not None
    assert without.json_body["data"]["odds"] is None


async def test_an_unchanged_answer_is_a_304_by_its_etag_and_still_counted(cached_client, db_url, mock_clock):
    key = make_key(db_url, "archive")
    first = await cached_client.get("/v1/series", key)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag.startswith('"') and etag.endswith('"')
    again = await cached_client.get("/v1/series", key, headers={"If-None-Match": etag})
    assert again.status_code == 304 and await again.get_data() == b"" and again.headers["ETag"] == etag
    assert int(again.headers["X-RateLimit-Remaining"]) == int(first.headers["X-RateLimit-Remaining"]) - 1
    weak = await cached_client.get("/v1/series", key, headers={"If-None-Match": f'"other", W/{etag}'})
    assert weak.status_code == 304
    rename_series(db_url, "Renamed meanwhile")
    mock_clock.jump(31)  # the answer changes: a new ETag, and the old one gets the whole answer
    changed = await cached_client.get("/v1/series", key, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert all_england(changed) == "Renamed meanwhile"
