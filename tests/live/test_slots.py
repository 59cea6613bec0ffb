"""Stream slots: two per key across processes, a third refused while the two keep flowing,
a vanished client or a dead worker frees its slot within seconds; a slow reader is dropped
while a fast one keeps receiving. Mock clock throughout."""

from __future__ import annotations

import asyncio
import datetime as dt
import gc
import threading
import weakref

import trio

from svc.access import allowances
from svc.access.keys import key_hash
from svc.assembly import hub_component
from svc.core.clock import Clock
from svc.testing.live import LIVE_SQL, Reader, publish_changes, running_app
from svc_live import hub as hub_mod
from svc_live import slots as slots_mod
from svc_live.components import hub_of
from tests.support import NOON, make_key, sql


def held(db_url: str, key: str | None = None) -> int:
    return sql(db_url, "SELECT count(*) FROM live_stream_slots")[0][0]


async def settle(reader: Reader) -> None:
    with trio.fail_after(30):
        await reader.opened.wait()


async def test_third_stream_refused_across_two_apps_while_two_keep_flowing(db_url, mock_clock, monkeypatch):
    # Each app keeps its block of calls for the whole test: virtual time jumps whenever a database
    # wait outlasts the clock's step, so on a slow machine app a's block went idle (IDLE_S) before the
    # third stream, was given back, and the third's headers counted app b's unused block as used
    # (267 against 299), as the README says they may.
    for name in ("IDLE_S", "BLOCK_AGE_S", "LEASE_S"):
        monkeypatch.setattr(allowances, name, 3600.0)
    key = make_key(db_url, "live")
    ids = [r["id"] for r in sql(db_url, LIVE_SQL)]
    clock = Clock(start=NOON)  # one wall clock for both "servers"
    async with (
        running_app(db_url, clock, [hub_component], mock_clock=mock_clock) as (app_a, client_a),
        running_app(db_url, clock, [hub_component], mock_clock=mock_clock) as (app_b, client_b),
    ):
        one, two, three = Reader(), Reader(), Reader()
        async with trio.open_nursery() as n:
            n.start_soon(one.run, client_a, key)
            await settle(one)
            n.start_soon(two.run, client_b, key)
            await settle(two)
            assert (one.status, two.status) == (200, 200) and held(db_url) == 2
            await three.run(client_a, key)
            assert three.status == 429
            assert three.headers["content-type"].startswith("application/json")
            assert three.body["error"]["code"] == "too_many_streams"
            assert 1 <= int(three.headers["retry-after"]) <= slots_mod.LEASE_S
            # a refused stream is not counted: its refusal's headers say so (app a's view, as after
            # the first stream's call: a call served from a block is taken back into it) ...
            assert int(three.headers["x-ratelimit-remaining"]) == int(one.headers["x-ratelimit-remaining"])
            # the first two keep flowing: a change reaches both, through both hubs
            before = (len(one.named("match")), len(two.named("match")))
            seqs = await publish_changes(app_a, ids[:1])
            await trio.sleep(hub_mod.POLL_S + 1)
            assert [int(e.id) for _, e in one.named("match")[before[0] :]] == seqs
            assert [int(e.id) for _, e in two.named("match")[before[1] :]] == seqs
            # another key is not affected
            other = Reader()
            n.start_soon(other.run, client_b, make_key(db_url, "live"))
            await settle(other)
            assert other.status == 200
            for r in (one, two, other):
                r.kill.cancel()
    assert held(db_url) == 0
    # ... and two calls today once both apps gave back the calls of their blocks (svc.access.allowances)
    day_calls = "SELECT day_calls FROM key_usage u JOIN api_keys k ON k.id = u.key_id WHERE k.key_hash = $1"
    assert sql(db_url, day_calls, key_hash(key))[0][0] == 2


async def test_client_gone_without_closing_frees_its_slot_at_once(db_url, mock_clock):
    key = make_key(db_url, "live")
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        one, two = Reader(), Reader()
        async with trio.open_nursery() as n:
            n.start_soon(one.run, client, key)
            n.start_soon(two.run, client, key)
            await settle(one)
            await settle(two)
            one.kill.cancel()  # the connection drops: no `end`, no goodbye
            await one.closed.wait()
            t = trio.current_time()
            with trio.fail_after(5):
                while held(db_url) != 1:
                    await trio.sleep(0.5)
            assert trio.current_time() - t <= 3
            again = Reader()
            n.start_soon(again.run, client, key)
            await settle(again)
            assert again.status == 200
            two.kill.cancel()
            again.kill.cancel()


async def test_slot_of_a_dead_worker_is_taken_over_when_its_lease_expires(db_url, mock_clock):
    key = make_key(db_url, "live")
    key_id = sql(db_url, "SELECT id FROM api_keys ORDER BY id DESC LIMIT 1")[0]["id"]
    # two leases held by a worker that died a moment ago (never renewed again)
    expires = NOON + dt.timedelta(seconds=slots_mod.LEASE_S - 2)
    for slot in (1, 2):
        sql(db_url, "INSERT INTO live_stream_slots VALUES ($1, $2, 'dead-host:1:x', $3)", key_id, slot, expires)
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        first = Reader()
        await first.run(client, key)
        assert first.status == 429
        await trio.sleep(int(first.headers["retry-after"]))
        second = Reader()
        async with trio.open_nursery() as n:
            n.start_soon(second.run, client, key)
            await settle(second)
            assert second.status == 200
            second.kill.cancel()


async def test_slow_reader_is_dropped_and_the_fast_one_gets_everything(db_url, mock_clock):
    key = make_key(db_url, "live")
    ids = [r["id"] for r in sql(db_url, LIVE_SQL)]
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        hub = hub_of(app)
        fast = Reader()
        async with trio.open_nursery() as n:
            n.start_soon(fast.run, client, key)
            await settle(fast)
            # the slow one opens the stream and then stops reading
            async with client.stream("GET", "/v1/live/stream", headers={"Authorization": f"Bearer {key}"}) as slow:
                assert slow.status_code == 200
                chunks = slow.aiter_raw()
                assert (await chunks.__anext__()).startswith(b"retry:")  # then it stops reading
                before = len(fast.named("match"))
                n_changes = hub_mod.SUBSCRIBER_BUFFER + 40
                seqs = await publish_changes(app, [ids[i % len(ids)] for i in range(n_changes)])
                rest = b""
                with trio.fail_after(30):
                    async for chunk in chunks:  # it reads again: what was in flight, then the end
                        rest += chunk
                assert rest.endswith(b'event: end\ndata: {"reason":"behind","reconnect_after_ms":1000}\n\n')
                assert rest.count(b"event: match") < n_changes  # it was cut off, not served in full
                with trio.fail_after(60):
                    while len(fast.named("match")) < before + n_changes:
                        await trio.sleep(0.5)
                assert [int(e.id) for _, e in fast.named("match")[before:]] == seqs
                assert hub.dropped == 1 and len(hub.subscribers) == 1
            fast.kill.cancel()


async def test_a_stream_whose_lease_was_taken_over_ends(db_url, mock_clock):
    key = make_key(db_url, "live")
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        reader = Reader()
        async with trio.open_nursery() as n:
            n.start_soon(reader.run, client, key)
            await settle(reader)
            # as if this worker had stalled past its lease and another stream took the slot
            sql(db_url, "UPDATE live_stream_slots SET holder = 'elsewhere:1:x'")
            t = trio.current_time()
            with trio.fail_after(60):
                await reader.closed.wait()
        assert trio.current_time() - t <= slots_mod.RENEW_S + 1
        assert reader.events[-1][1].event == "end" and reader.events[-1][1].json()["reason"] == "slot_lost"
        assert sql(db_url, "SELECT holder FROM live_stream_slots")[0]["holder"] == "elsewhere:1:x"  # not released by us


async def test_leases_stay_renewed_while_every_pooled_connection_is_busy(db_url, mock_clock):
    """A crowd of clients connecting at once queues for pooled connections; the hub renews
    its streams' leases on its own connection, so none lapses (and no stream ends) meanwhile."""
    key = make_key(db_url, "live")
    key_id = sql(db_url, "SELECT id FROM api_keys ORDER BY id DESC LIMIT 1")[0]["id"]
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        service = app.extensions["svc"]
        reader = Reader()
        release = threading.Event()

        async def occupy(conn) -> None:  # asyncio side: holds a pooled connection until released
            while not release.is_set():
                await asyncio.sleep(0.005)

        async with trio.open_nursery() as n:
            n.start_soon(reader.run, client, key)
            await settle(reader)
            for _ in range(service.db._pool.get_max_size()):
                n.start_soon(service.db.run, occupy)
            await trio.sleep(3 * slots_mod.LEASE_S)
            expires = sql(db_url, "SELECT expires_at FROM live_stream_slots WHERE key_id = $1", key_id)[0]["expires_at"]
            assert not reader.closed.is_set()
            assert expires > service.clock.now()
            release.set()
            reader.kill.cancel()


async def test_a_stream_that_ended_is_freed_without_the_garbage_collector(db_url, mock_clock):
    """A serving worker freezes its streams (svc/core/heap.py): what a stream leaves in a reference
    cycle when it ends is never freed. So its session goes by reference counting alone."""
    key = make_key(db_url, "live")
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        reader = Reader()
        before = held(db_url)  # earlier tests of the module may leave leases of their own
        gc.disable()
        try:
            async with trio.open_nursery() as n:
                n.start_soon(reader.run, client, key)
                await settle(reader)
                (sub,) = hub_of(app).subscribers
                session = weakref.ref(sub.on_end.__self__)
                del sub
                reader.kill.cancel()
                await reader.closed.wait()
                with trio.fail_after(5):
                    while held(db_url) > before:
                        await trio.sleep(0.5)
                # the slot is released by a task of the hub's, which holds the session until it ends
                with trio.move_on_after(5):
                    while session() is not None:
                        await trio.sleep(0.1)
            assert session() is None, "the ended stream's session waits for a full collection"
        finally:
            gc.enable()
