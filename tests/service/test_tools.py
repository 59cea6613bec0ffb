"""Every endpoint as a tool for AI assistants, through the MCP SDK's own client: over streamable
HTTP at /mcp of a real `svc serve` process, and over stdio from `python -m svc mcp`.

A tool answers what the HTTP call answers, counts as one call of the key, and a refusal (plan,
limit, bad parameter) comes back as a tool error that names the plan or the wait, with a docs link
to the service's own /docs: the host the MCP request went to, or over stdio SVC_PUBLIC_URL."""

from __future__ import annotations

import os
import sys
from contextlib import asynccontextmanager

import httpx
import httpx2
import pytest
import trio
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

from svc.access import keys as svc_keys
from svc.core.settings import Settings
from svc.testing.serving import serve_process
from svc.tools.catalog import NAME_PATTERN
from tests.support import make_key, sql, use_calls_today

from .test_two_servers import wait_until_up


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    home = tmp_path_factory.mktemp("tools")
    with serve_process(db_url, home, SVC_LIVE_FEED="0") as (_, base):
        yield base, home


@asynccontextmanager
async def over_http(base: str, key: str | None):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(90)) as http:
        async with Client(streamable_http_client(f"{base}/mcp", http_client=http), cache=None) as client:
            yield client


async def up(server) -> str:
    base, home = server
    async with httpx.AsyncClient(timeout=30) as client:
        await wait_until_up(client, base, home)
    return base


async def http_json(base: str, path: str, key: str, **params) -> tuple[int, dict]:
    async with httpx.AsyncClient(timeout=30) as client:
        r = await client.get(base + path, params=params, headers={"X-API-Key": key})
        return r.status_code, r.json()


def calls_today(db_url: str, key: str) -> int:
    return sql(
        db_url,
        "SELECT u.day_calls FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.key_hash = $1",
        svc_keys.key_hash(key),
    )[0][0]


async def test_lists_45_tools_and_answers_as_http_counted_the_same(server, db_url):
    base = await up(server)
    key = make_key(db_url, "archive")
    async with over_http(base, key) as client:
        listed = (await client.list_tools()).tools
        names = [t.name for t in listed]
        assert len(names) == 45 == len(set(names))
        assert all(NAME_PATTERN.match(n) for n in names)
        assert {"search", "get_player", "player_form", "rankings_number_ones", "live_stream"} <= set(names)
        async with httpx.AsyncClient(timeout=30) as http:
            description = (await http.get(f"{base}/v1/openapi.json")).json()
        # one name for each endpoint: its tool's is its operationId, what a generated client calls it
        assert names == [item["get"]["operationId"] for item in description["paths"].values()]
        get_player = next(t for t in listed if t.name == "get_player")
        assert get_player.input_schema["required"] == ["id"] and get_player.description
        before = calls_today(db_url, key)
        player = sql(db_url, "SELECT id, name FROM players ORDER BY id LIMIT 1")[0]
        answers = [
            await client.call_tool("get_player", {"id": player["id"]}),
            await client.call_tool("search", {"q": player["name"].split()[-1]}),
            await client.call_tool("player_matches", {"id": player["id"], "per_page": 5}),
        ]
    # listing is free; each call is one call. The worker claims calls in blocks and gives back the
    # unused ones after 2 s idle (svc.access.allowances): the day's count is exact once it has
    counted = calls_today(db_url, key)
    with trio.move_on_after(10):
        while counted != before + 3:
            await trio.sleep(0.2)
            counted = calls_today(db_url, key)
    assert counted == before + 3
    for result, (path, params) in zip(
        answers,
        [
            (f"/v1/players/{player['id']}", {}),
            ("/v1/search", {"q": player["name"].split()[-1]}),
            (f"/v1/players/{player['id']}/matches", {"per_page": 5}),
        ],
    ):
        assert not result.is_error, result.content
        status, body = await http_json(base, path, key, **params)
        assert status == 200 and result.structured_content["data"] == body["data"]


async def test_refusals_are_tool_errors_naming_the_plan_or_the_wait(server, db_url):
    base = await up(server)
    free = make_key(db_url, "free")
    async with over_http(base, free) as client:
        upgrade = await client.call_tool("get_player", {"id": "pl_x"})
        assert upgrade.is_error and upgrade.structured_content["error"]["plan"] == "archive"
        assert upgrade.structured_content["status"] == 403
        assert upgrade.structured_content["error"]["docs"] == f"{base}/docs#upgrade_required"
        missing = await client.call_tool("get_player", {})  # arguments that cannot make a request
        assert missing.is_error and missing.structured_content["status"] == 400
        assert missing.structured_content["error"]["docs"] == f"{base}/docs#bad_request"
        bad = await client.call_tool("countries", {"per_page": 0})
        assert bad.is_error and bad.structured_content["status"] in (400, 422)
        assert "per_page" in bad.structured_content["error"]["message"]
        # the day's calls used up: the next call is refused with the time to wait
        use_calls_today(db_url, free, 50)
        limited = await client.call_tool("countries", {})
        assert limited.is_error and limited.structured_content["status"] == 429
        assert limited.structured_content["retry_after_s"] > 0
    async with over_http(base, None) as client:
        assert len((await client.list_tools()).tools) == 45  # listing needs no key
        anonymous = await client.call_tool("countries", {})
        assert anonymous.is_error and anonymous.structured_content["status"] == 401
    async with httpx.AsyncClient() as http:
        r = await http.post(f"{base}/mcp?key={free}", json={})
        assert r.status_code == 400 and "header" in r.json()["error"]["message"]
        assert r.json()["error"]["docs"] == f"{base}/docs#bad_request"


async def test_the_live_stream_tool_collects_messages_for_the_seconds_asked(server, db_url):
    base = await up(server)
    key = make_key(db_url, "live")
    in_play = {r["id"] for r in sql(db_url, "SELECT id FROM matches WHERE status = 'live'")}
    assert in_play
    async with over_http(base, key) as client:
        started = trio.current_time()
        result = await client.call_tool("live_stream", {"seconds": 2})
        took = trio.current_time() - started
    assert not result.is_error, result.content
    messages = result.structured_content["data"]
    assert {m["data"]["match"] for m in messages if m["event"] == "match"} == in_play
    assert 2 <= took < 4  # the client side leaves at 2 s and the stream ends at once
    assert sql(db_url, "SELECT count(*) FROM live_stream_slots")[0][0] == 0  # the stream's slot is free again


def test_the_public_url_of_stdio_links_defaults_to_serves_own_address():
    assert Settings.from_env({}).public_url == "http://localhost:8000"
    assert Settings.from_env({"SVC_PUBLIC_URL": "https://api.example/"}).public_url == "https://api.example"


async def test_stdio_server_from_the_command_line(db_url, tmp_path):
    key = make_key(db_url, "archive")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "svc", "mcp"],
        env={
            "DATABASE_URL": db_url,
            "SVC_API_KEY": key,
            "SVC_HOME": str(tmp_path),
            "SVC_LOG_LEVEL": "WARNING",
            "SVC_PUBLIC_URL": "https://badminton.example:8443/",
            "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
            "PATH": os.environ.get("PATH", ""),
        },
    )
    with trio.fail_after(90):
        async with Client(params, cache=None) as client:
            assert len((await client.list_tools()).tools) == 45
            country = sql(db_url, "SELECT code FROM countries ORDER BY code LIMIT 1")[0]["code"]
            result = await client.call_tool("get_country", {"code": country})
            unknown = await client.call_tool("get_country", {"code": "ZZZ"})
    assert not result.is_error, result.content
    assert result.structured_content["data"]["code"] == country
    assert unknown.is_error and unknown.structured_content["status"] == 404
    assert unknown.structured_content["error"]["docs"] == "https://badminton.example:8443/docs#not_found"
