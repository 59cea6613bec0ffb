"""Request logs as JSON lines (SVC_LOG_FORMAT=json): one object per request with its fields apart,
the key's public prefix and never the key or the query string."""

from __future__ import annotations

import logging
import sys

import orjson

from svc.core.logs import JsonLines, TextLines
from svc.core.settings import Settings


async def test_a_request_line_as_json(client, plan_keys, caplog):
    key = plan_keys["free"]
    with caplog.at_level(logging.INFO, logger="svc.access"):
        r = await client.get("/v1/search", key, q="lee")
    assert r.status_code == 200
    lines = [JsonLines().format(rec) for rec in caplog.records if rec.name == "svc.access"]
    got = orjson.loads(lines[-1])
    assert {k: got[k] for k in ("method", "path", "status", "level", "logger")} == {
        "method": "GET",
        "path": "/v1/search",
        "status": 200,
        "level": "INFO",
        "logger": "svc.access",
    }
    assert got["key"] == key[:12] and isinstance(got["ms"], float) and got["time"].endswith("+00:00")
    assert key not in lines[-1] and "lee" not in lines[-1]


def test_the_format_is_a_setting():
    assert Settings.from_env({"SVC_LOG_FORMAT": "json"}).log_format == "json"
    assert Settings.from_env({}).log_format == "text"


FORGED = "/v1/players/pl_x%0A2026-11-24%2002:50:00,000%2015660%20svc.access%20INFO%20GET%20/v1/admin%20200"


async def test_a_path_cannot_forge_a_line_or_write_a_nul_in_the_text_log(client, plan_keys, caplog):
    with caplog.at_level(logging.INFO, logger="svc.access"):
        await client.get(FORGED, plan_keys["archive"])
        await client.get("/v1/players/pl_x%00y", plan_keys["archive"])
    forged, nul = [TextLines().format(rec) for rec in caplog.records if rec.name == "svc.access"][-2:]
    assert "\n" not in forged and "pl_x\\n2026-11-24 02:50:00,000 15660 svc.access INFO GET /v1/admin 200" in forged
    assert "\x00" not in nul and "pl_x\\x00y" in nul
    # JSON escapes by its own rules: one line, the path exactly as it came
    got = orjson.loads(JsonLines().format(next(r for r in caplog.records if r.name == "svc.access")))
    assert got["path"].startswith("/v1/players/pl_x\n2026-11-24")


def test_a_traceback_is_indented_in_text_and_apart_from_the_message_in_json():
    """Through the worker's queue (svc.core.logs._Queued) as a serving worker logs: the message a
    line of its own, the traceback on indented lines in text and in `exception` in JSON, where
    the standard QueueHandler would have merged it into `message`."""
    import queue

    from svc.core.logs import _Queued

    try:
        raise ValueError("bad value\n2026-11-24 00:00:00,000 1 svc.access INFO forged")
    except ValueError:
        record = logging.getLogger("svc.test").makeRecord(
            "svc.test", logging.ERROR, __file__, 1, "failed on %s", ("/v1/x\n",), sys.exc_info()
        )
    records: queue.SimpleQueue = queue.SimpleQueue()
    _Queued(records).emit(record)
    queued = records.get_nowait()
    text = TextLines().format(queued).split("\n")
    assert text[0].endswith("svc.test ERROR failed on /v1/x\\n")
    assert len(text) > 2 and all(line.startswith("    ") for line in text[1:])
    assert any("ValueError: bad value" in line for line in text) and not any(
        line.startswith("2026-11-24 00:00:00") for line in text
    )
    got = orjson.loads(JsonLines().format(queued))
    assert got["message"] == "failed on /v1/x\n" and "ValueError: bad value" in got["exception"]
