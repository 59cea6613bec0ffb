"""Metrics for an operator: `serve --workers 2 --metrics-port` answers on 127.0.0.1 only, never on
the API's port, for both workers at once; after some traffic every family shows and the request
counter agrees with the calls made."""

from __future__ import annotations

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from svc.testing.serving import free_port, serve_process
from tests.support import make_key

from .test_two_servers import wait_until_up

FAMILIES = (
    "svc_requests",
    "svc_request_seconds",
    "svc_answer_cache",
    "svc_limit_refusals",
    "svc_live_streams_open",
    "svc_live_slots_held",
    "svc_live_messages_fanned_out",
    "svc_webhook_deliveries",
    "svc_webhook_queue",
    "svc_db_connections_in_use",
    "svc_db_bridge_wait_seconds",
)


@pytest.fixture
def server(db_url, tmp_path):
    metrics_port = free_port()
    with serve_process(db_url, tmp_path, "--workers", "2", "--metrics-port", str(metrics_port), SVC_LIVE_FEED="0") as (
        _,
        base,
    ):
        yield base, f"http://127.0.0.1:{metrics_port}", tmp_path


def samples(text: str) -> dict[str, list]:
    return {f.name: f.samples for f in text_string_to_metric_families(text)}


async def test_every_family_after_traffic_and_the_request_count_agrees(server, db_url):
    base, metrics_base, home = server
    key = make_key(db_url, "free")
    async with httpx.AsyncClient(timeout=30) as client:
        await wait_until_up(client, base, home)
        before = samples((await client.get(f"{metrics_base}/metrics")).text)
        counted = sum(s.value for s in before.get("svc_requests", []) if s.labels.get("endpoint") == "/v1/countries")
        statuses = []
        for _ in range(7):  # two workers share the socket: the calls fall on either
            statuses.append((await client.get(f"{base}/v1/countries", headers={"X-API-Key": key})).status_code)
        statuses.append(
            (await client.get(f"{base}/v1/countries", params={"per_page": 0}, headers={"X-API-Key": key})).status_code
        )
        assert (await client.get(f"{base}/metrics")).status_code == 404  # never on the API's port
        after = samples((await client.get(f"{metrics_base}/metrics")).text)
    assert set(FAMILIES) <= set(after), set(FAMILIES) - set(after)
    requests = [
        s for s in after["svc_requests"] if s.name == "svc_requests_total" and s.labels["endpoint"] == "/v1/countries"
    ]
    assert sum(s.value for s in requests) - counted == len(statuses) == 8
    by_status = {s.labels["status"]: s.value for s in requests}
    assert by_status["200"] >= statuses.count(200) and by_status[str(statuses[-1])] >= 1
    latency = [
        s
        for s in after["svc_request_seconds"]
        if s.name == "svc_request_seconds_count" and s.labels["endpoint"] == "/v1/countries"
    ]
    assert sum(s.value for s in latency) >= 8
    assert any(s.value > 0 for s in after["svc_db_bridge_wait_seconds"] if s.name.endswith("_count"))
