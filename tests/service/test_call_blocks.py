"""Calls claimed in blocks (svc.access.allowances) across `serve` processes against one database:
a key replaced or a plan changed is seen at once by every process, N+1 calls at once answer exactly
N while processes hold blocks, and the block of a worker killed outright comes back within its
lease and a sweep."""

from __future__ import annotations

import os
import signal

import httpx
import pytest
import trio

from svc.access import allowances
from svc.access import keys as svc_keys
from svc.core.db import connect_asyncio
from svc.testing.serving import serve_process
from tests.service.test_two_servers import wait_until_up
from tests.support import make_key, run, sql, use_calls_today

SEEN_WITHIN_S = 2.0  # a notification's way; far below allowances.FRESH_S, the bound without one


@pytest.fixture
def two_servers(db_url, tmp_path):
    with serve_process(db_url, tmp_path) as (_, first), serve_process(db_url, tmp_path) as (_, second):
        yield [first, second]


def counters(db_url: str, key: str):
    return sql(
        db_url,
        "SELECT u.minute_calls, u.day_calls FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.key_hash = $1",
        svc_keys.key_hash(key),
    )[0]


async def answered_within(client: httpx.AsyncClient, url: str, key: str, status: int) -> httpx.Response:
    """The first answer with `status`, asking again until SEEN_WITHIN_S has passed."""
    with trio.move_on_after(SEEN_WITHIN_S):
        while (r := await client.get(url, headers={"X-API-Key": key})).status_code != status:
            await trio.sleep(0.05)
        return r
    pytest.fail(f"{url} still answered {r.status_code} {SEEN_WITHIN_S} s later, not {status}")


async def test_a_key_replaced_and_a_plan_changed_are_seen_by_the_other_process(two_servers, db_url, tmp_path):
    key = make_key(db_url, "archive", account="changes")
    async with httpx.AsyncClient(timeout=30) as client:
        for base in two_servers:
            await wait_until_up(client, base, tmp_path)
            # each process now holds the key in its cache and a block of its calls
            assert (await client.get(f"{base}/v1/series", headers={"X-API-Key": key})).status_code == 200
        first, second = two_servers

        async def change(work):
            conn = await connect_asyncio(db_url)
            try:
                return await work(conn)
            finally:
                await conn.close()

        await trio.to_thread.run_sync(run, change(lambda conn: svc_keys.set_plan(conn, "changes", "free")))
        refused = await answered_within(client, f"{second}/v1/countries/FRA", key, 403)
        assert refused.json()["error"]["code"] == "upgrade_required"
        free = await answered_within(client, f"{first}/v1/series", key, 200)
        assert free.headers["X-RateLimit-Limit"] == "10"

        new_key = await trio.to_thread.run_sync(run, change(lambda conn: svc_keys.replace_key(conn, key)))
        for base in two_servers:
            gone = await answered_within(client, f"{base}/v1/series", key, 401)
            assert "replaced" in gone.json()["error"]["message"]
            assert (await client.get(f"{base}/v1/series", headers={"X-API-Key": new_key})).status_code == 200


async def test_n_plus_one_calls_at_once_through_two_processes_holding_blocks_answer_n(two_servers, db_url, tmp_path):
    key = make_key(db_url, "archive")
    # 60 of the day's calls left, as many as the minute's: a block holds up to 7 of them, and the
    # minute boundary cannot change the count
    use_calls_today(db_url, key, 4940)
    statuses: list[int] = []
    async with httpx.AsyncClient(timeout=30, limits=httpx.Limits(max_connections=100)) as client:
        for base in two_servers:
            await wait_until_up(client, base, tmp_path)

        async def call(base: str) -> None:
            statuses.append((await client.get(f"{base}/v1/series", headers={"X-API-Key": key})).status_code)

        for base in two_servers:  # each process claims a block: one call used, 6 held
            await call(base)
        # then the 59 other calls at once, all to the first: it needs the second's unused calls,
        # which the second gives back when asked (before its idle give-back, IDLE_S later)
        async with trio.open_nursery() as nursery:
            for _ in range(59):
                nursery.start_soon(call, two_servers[0])
    assert sorted(statuses) == [200] * 60 + [429]
    assert counters(db_url, key)["day_calls"] == 5000


async def test_the_block_of_a_worker_killed_comes_back_within_its_lease(db_url, tmp_path):
    """What the killed worker's block held unused comes back; the calls it served stay counted."""
    key = make_key(db_url, "archive")
    served = 4
    with serve_process(db_url, tmp_path, "--workers", "2") as (_, base):
        async with httpx.AsyncClient(timeout=30) as client:  # one kept-alive connection: one worker
            await wait_until_up(client, base, tmp_path)
            for _ in range(served):
                assert (await client.get(f"{base}/v1/series", headers={"X-API-Key": key})).status_code == 200
            assert counters(db_url, key)["day_calls"] == 60 // allowances.SHARE  # the block, counted whole
            await trio.sleep(2 * allowances.TEND_S)  # the worker notes what its block still holds
            [holder] = sql(db_url, "SELECT holder FROM call_blocks")
            os.kill(int(holder["holder"].split(":")[1]), signal.SIGKILL)  # no give-back at shutdown
            bound = allowances.LEASE_S + allowances.SWEEP_S + allowances.TEND_S
            started = trio.current_time()
            with trio.move_on_after(bound + 5):
                while counters(db_url, key)["day_calls"] == 60 // allowances.SHARE:
                    await trio.sleep(0.5)
            waited = trio.current_time() - started
    assert counters(db_url, key)["day_calls"] == served, f"not the {served} calls served {waited:.0f} s after the kill"
    assert waited <= bound + 1
