"""An answer made ahead of Quart (svc.web.direct) is Quart's answer byte for byte: the same
requests, through the app's ASGI entry, on two apps alike but for that layer, with keys in the
same state, give the same status, headers (but Request-Id and Date) and body -- with the answer
cache on and off, for answers, lists and errors of every kind."""

from __future__ import annotations

import time

import pytest
import trio

from svc.access import keys as svc_keys
from svc.assembly import create_app
from svc.core.clock import Clock
from svc.core.db import connect_asyncio
from svc.web.incoming import receive_then_disconnect
from tests.support import NOON, http_scope, make_key, run, sql

PATH = "/v1/countries"
VARIABLE = {b"request-id", b"date"}


async def asgi_get(app, path: str, headers: dict[str, str]) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    """One GET through the app's ASGI entry, as Hypercorn makes it: the raw answer."""
    scope = http_scope(path, headers)
    messages: list[dict] = []
    receive = receive_then_disconnect()

    async def send(message):
        messages.append(message)

    await app(scope, receive, send)
    start = next(m for m in messages if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.response.body")
    return start["status"], [(k, v) for k, v in start["headers"] if k not in VARIABLE], body


async def listening(app) -> None:
    """Until the app's worker listens for key changes (before, nothing is served from memory)."""
    from svc.web.app import service_of

    for _ in range(500):
        if service_of(app).allowances.listening:
            return
        await trio.to_thread.run_sync(time.sleep, 0.01)  # real time: the mock clock stands still
    pytest.fail("the app never listened for key changes")


def keys_alike(db_url: str) -> dict[str, str]:
    """A Live key, a replaced key, and an Archive key with one call of its minute left."""
    live, archive = make_key(db_url, "live"), make_key(db_url, "archive")
    replaced = make_key(db_url, "live")

    async def replace():
        conn = await connect_asyncio(db_url)
        try:
            await svc_keys.replace_key(conn, replaced)
        finally:
            await conn.close()

    run(replace())
    minute = NOON.replace(second=0, microsecond=0)
    sql(
        db_url,
        "UPDATE key_usage SET minute_start = $2, minute_calls = 59, day = $3, day_calls = 59, month = $4, "
        "month_calls = 59 FROM api_keys k WHERE k.id = key_usage.key_id AND k.key_hash = $1",
        svc_keys.key_hash(archive),
        minute,
        minute.date(),
        minute.date().replace(day=1),
    )
    return {"live": live, "replaced": replaced, "archive": archive}


async def answers(db_url: str, *, ahead: bool, cache: bool) -> tuple[list, int]:
    """The answers to the same requests, and how many were answered ahead of Quart."""
    keys = keys_alike(db_url)
    app = create_app(db_url, clock=Clock(start=NOON), pool_size=4, cache=cache)
    served_ahead = 0
    layer = app.answered_ahead
    assert layer is not None

    async def counted(scope, receive, send):
        nonlocal served_ahead
        answered = await layer(scope, receive, send)
        served_ahead += answered
        return answered

    app.answered_ahead = counted if ahead else None
    out = []
    async with app.test_app():
        await listening(app)
        bearer = {"Authorization": f"Bearer {keys['live']}"}
        first = await asgi_get(app, PATH, bearer)  # the block claimed (and the answer cached)
        etag = dict(first[1])[b"etag"].decode()
        out.append(first)
        out.append(await asgi_get(app, PATH, bearer))  # again (cached)
        out.append(await asgi_get(app, PATH, {"X-API-Key": keys["live"], "Request-Id": "mine-1"}))
        out.append(await asgi_get(app, PATH, {**bearer, "If-None-Match": etag}))  # 304
        out.append(await asgi_get(app, PATH, {**bearer, "Accept-Encoding": "gzip, br"}))  # gzip form
        gzip_etag = dict(out[-1][1])[b"etag"].decode()
        out.append(await asgi_get(app, PATH, {**bearer, "Accept-Encoding": "gzip", "If-None-Match": gzip_etag}))
        out.append(await asgi_get(app, "/v1/players?per_page=3&page=2", bearer))  # a page of a list
        out.append(await asgi_get(app, "/v1/players/pl_nobody", bearer))  # 404, counted
        out.append(await asgi_get(app, "/v1/calendar?year=abc", bearer))  # 400: not a year, with the key's headers
        out.append(await asgi_get(app, "/v1/players?per_page=500", bearer))  # 422: past the maximum
        out.append(await asgi_get(app, "/v1/calendar?year=%FF%FE", bearer))  # 400: not UTF-8 once decoded
        out.append(await asgi_get(app, f"{PATH}?api_key={keys['live']}", bearer))  # 400: a key in the query
        out.append(await asgi_get(app, PATH, {}))  # 401: no key
        out.append(await asgi_get(app, PATH, {"Authorization": f"Bearer {keys['replaced']}"}))  # 401
        archive = {"Authorization": f"Bearer {keys['archive']}"}
        out.append(await asgi_get(app, PATH, archive))  # the minute's last call
        out.append(await asgi_get(app, PATH, archive))  # 429
        out.append(await asgi_get(app, "/v1/countries/", bearer))  # 404 from the refusals: Quart's
        out.append(await asgi_get(app, "/v1/live", bearer))  # not a stream: answered ahead
    return out, served_ahead


STATUSES = [200, 200, 200, 304, 200, 304, 200, 404, 400, 422, 400, 400, 401, 401, 200, 429, 404, 200]


@pytest.mark.parametrize("cache", [True, False], ids=["cached", "uncached"])
async def test_an_answer_ahead_of_quart_is_quarts_answer(db_url, mock_clock, cache):
    ahead, served = await answers(db_url, ahead=True, cache=cache)
    full, none = await answers(db_url, ahead=False, cache=cache)
    assert served == len(STATUSES) - 1 and none == 0  # all but the path with an empty segment
    assert [status for status, _, _ in ahead] == STATUSES
    assert dict(ahead[4][1])[b"content-encoding"] == b"gzip"
    for mine, theirs in zip(ahead, full, strict=True):
        assert mine == theirs
