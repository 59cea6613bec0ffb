"""Request logs as JSON lines (SVC_LOG_FORMAT=json): one object per request with its fields apart,
the key's public prefix and never the key or the query string."""

from __future__ import annotations

import logging

import orjson

from svc.core.logs import JsonLines
from svc.core.settings import Settings


async def test_a_request_line_as_json(client, plan_keys, caplog):
    key = plan_keys["free"]
    with caplog.at_level(logging.INFO, logger="svc.access"):
        r = await client.get("/v1/search", key, q="lee")
    assert r.status_code == 200
    lines = [JsonLines().format(rec) for rec in caplog.records if rec.name == "svc.access"]
    got = orjson.loads(lines[-1])
    assert {k: got[k] for k in ("method", "path", "status", "level", "logger")} == {
        "method": "GET", "path": "/v1/search", "status": 200, "level": "INFO", "logger": "svc.access"}
    assert got["key"] == key[:12] and isinstance(got["ms"], float) and got["time"].endswith("+00:00")
    assert key not in lines[-1] and "lee" not in lines[-1]


def test_the_format_is_a_setting():
    assert Settings.from_env({"SVC_LOG_FORMAT": "json"}).log_format == "json"
    assert Settings.from_env({}).log_format == "text"
