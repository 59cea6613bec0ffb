"""One allowance per key across server processes: two `svc serve` processes on different
ports against one database, 11 calls at once, exactly the allowance answered."""

from __future__ import annotations

import httpx
import pytest
import trio

from svc.testing.serving import serve_process
from tests.support import make_key, use_calls_today


@pytest.fixture
def two_servers(db_url, tmp_path):
    with serve_process(db_url, tmp_path) as (_, first), serve_process(db_url, tmp_path) as (_, second):
        yield [first, second]


async def wait_until_up(client: httpx.AsyncClient, base: str, log_dir) -> None:
    with trio.move_on_after(60) as waited:  # process start-up: imports, migrations check, workers
        while True:
            try:
                if (await client.get(f"{base}/v1/openapi.json")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await trio.sleep(0.2)
    if waited.cancelled_caught:
        logs = "\n".join(p.read_text() for p in log_dir.glob("server-*.log"))
        pytest.fail(f"server at {base} did not come up; its log:\n{logs}")


async def test_eleven_calls_through_two_processes_answer_exactly_ten(two_servers, db_url, tmp_path):
    key = make_key(db_url, "free")
    # 40 of the day's 50 calls already used: exactly 10 remain whatever minute the calls
    # fall in, so a minute boundary during the test cannot change the count.
    use_calls_today(db_url, key, 40)
    answers: list[httpx.Response] = []
    async with httpx.AsyncClient(timeout=30) as client:
        for base in two_servers:
            await wait_until_up(client, base, tmp_path)

        async def call(base: str) -> None:
            answers.append(await client.get(f"{base}/v1/series", headers={"X-API-Key": key}))

        async with trio.open_nursery() as nursery:
            for i in range(11):
                nursery.start_soon(call, two_servers[i % 2])
    statuses = sorted(r.status_code for r in answers)
    assert statuses == [200] * 10 + [429]
    refused = next(r for r in answers if r.status_code == 429)
    assert refused.json()["error"]["code"] == "quota_exceeded"
    assert int(refused.headers["Retry-After"]) > 0
    assert all(int(r.headers["X-Quota-Remaining"]) >= 0 for r in answers)
    assert sorted(int(r.headers["X-Quota-Remaining"]) for r in answers if r.status_code == 200) == list(range(10))
