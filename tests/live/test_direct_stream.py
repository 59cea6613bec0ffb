"""/v1/live/stream answered ahead of Quart (svc.web.direct, svc.web.streaming): its head and first
events are Quart's, byte for byte, and a client that goes away gives its slot back at once (a
client reconnecting on a key whose two slots it held is not refused). Mock clock throughout."""

from __future__ import annotations

import trio

from svc.access.keys import key_hash
from svc.assembly import hub_component
from svc.core.clock import Clock
from svc.testing.live import LIVE_SQL, Reader, running_app
from svc.web.incoming import receive_then_disconnect
from svc_live.components import hub_of
from tests.support import NOON, http_scope, make_key, sql

VARIABLE = {b"request-id", b"date"}


def held(db_url: str, key: str) -> int:
    """The key's slot leases in the table (a released one is deleted; an expired one stays until taken)."""
    return sql(
        db_url,
        "SELECT count(*) FROM live_stream_slots s JOIN api_keys k ON k.id = s.key_id WHERE k.key_hash = $1",
        key_hash(key),
    )[0][0]


async def first_of_stream(app, key: str, matches: int) -> tuple[int, list, bytes]:
    """The head of a stream and its body up to its `matches`-th match event, read through the app's
    ASGI entry as Hypercorn calls it; then the client goes away."""
    scope = http_scope("/v1/live/stream", {"Authorization": f"Bearer {key}"})
    start: dict = {}
    body = bytearray()
    enough, gone = trio.Event(), trio.Event()
    receive = receive_then_disconnect(gone)

    async def send(message):
        if message["type"] == "http.response.start":
            start.update(message)
        elif message["type"] == "http.response.body" and not enough.is_set():
            body.extend(message.get("body", b""))
            if body.count(b"event: match\n") >= matches:
                enough.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(app, scope, receive, send)
        with trio.fail_after(30):
            await enough.wait()
        gone.set()
    return start["status"], [(k, v) for k, v in start["headers"] if k not in VARIABLE], bytes(body)


async def test_a_stream_answered_ahead_of_quart_starts_as_quarts(db_url, mock_clock):
    in_play = len(sql(db_url, LIVE_SQL))
    assert in_play, "the tiny world has matches in play at noon"
    streams = []
    for ahead in (True, False):
        async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, _):
            layer = app.answered_ahead
            served_ahead = 0

            async def counted(scope, receive, send, layer=layer):
                nonlocal served_ahead
                answered = await layer(scope, receive, send)
                served_ahead += answered
                return answered

            app.answered_ahead = counted if ahead else None
            streams.append(await first_of_stream(app, make_key(db_url, "live"), in_play))
            assert served_ahead == (1 if ahead else 0)
            with trio.fail_after(10):  # the client went away: the stream ended, its slot given back
                while hub_of(app).streams_open:
                    await trio.sleep(0.1)
    mine, quarts = streams
    assert mine[0] == 200 and b"text/event-stream; charset=utf-8" in dict(mine[1]).values()
    assert mine == quarts


async def test_a_client_that_goes_away_gives_its_slot_back_at_once(db_url, mock_clock):
    key = make_key(db_url, "live")
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        one, two, again = Reader(), Reader(), Reader()
        async with trio.open_nursery() as n:
            for reader in (one, two):
                n.start_soon(reader.run, client, key)
                with trio.fail_after(30):
                    await reader.opened.wait()
            assert (one.status, two.status) == (200, 200)
            assert held(db_url, key) == 2
            one.kill.cancel()  # gone without a word, as a closed tab
            await one.closed.wait()
            with trio.fail_after(5):  # released (deleted), not left to expire
                while held(db_url, key) > 1:
                    await trio.sleep(0.2)
            n.start_soon(again.run, client, key)
            with trio.fail_after(30):
                await again.opened.wait()
            assert again.status == 200, again.body  # not 429 until the gone client's lease ran out
            assert hub_of(app).streams_open == 2
            two.kill.cancel()
            again.kill.cancel()
    assert not [e for _, e in one.events if e.event == "end"]
