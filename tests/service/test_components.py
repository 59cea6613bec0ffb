"""A background component (the live hub, the feed, the webhook scheduler) that fails after it
started is logged and started again after a back-off, and /healthz says so meanwhile: a worker
never goes on serving with a dead part. Mock clock."""

from __future__ import annotations

import trio

from svc.core.clock import Clock
from svc.testing.live import running_app
from svc.web import supervisor
from tests.support import NOON


async def test_a_failed_component_is_started_again_and_health_says_so(db_url, mock_clock):
    starts: list[float] = []

    async def pump(service, *, task_status=trio.TASK_STATUS_IGNORED):
        starts.append(trio.current_time())
        task_status.started()
        if len(starts) < 3:
            await trio.sleep(5)
            raise RuntimeError("the connection broke")  # as asyncpg did in the outage runs
        await trio.sleep_forever()

    async with running_app(db_url, Clock(start=NOON), [pump], mock_clock=mock_clock) as (_app, client):
        ok = await client.get("/healthz")
        assert ok.status_code == 200 and ok.json()["components"] == {"pump": "running"}
        await trio.sleep(5.5)  # it failed half a second ago; back in 1 s
        down = await client.get("/healthz")
        assert down.status_code == 503 and down.json() == {
            "status": "not_ready",
            "database": "ok",
            "components": {"pump": "restarting"},
        }
        assert (await client.get("/v1/openapi.json")).status_code == 200  # the rest keeps serving
        await trio.sleep(20)
        assert len(starts) == 3
        # the back-off doubles while it keeps failing young: 1 s, then 2 s
        gaps = [round(b - a, 1) for a, b in zip(starts, starts[1:])]
        assert gaps == [5 + supervisor.BACKOFF_S[0], 5 + 2 * supervisor.BACKOFF_S[0]]
        assert (await client.get("/healthz")).status_code == 200
