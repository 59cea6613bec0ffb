"""Slot claims made at once share one statement (svc_live.slots: a batch per round trip) and each
still gets exactly its own answer: of many streams of one key opened at once on two workers, exactly
MAX_STREAMS get a slot, whatever batch each claim went in. Mock clock for the apps."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import threading

import pytest
import trio
import trio.testing

from svc.assembly import hub_component
from svc.core.clock import Clock
from svc.core.db import Database, DatabaseUnavailable
from svc.testing.live import Reader, running_app
from svc_live import slots as slots_mod
from svc_live.slots import MAX_STREAMS, Slots, new_holder
from tests.support import NOON, make_key, sql


@pytest.fixture
def batch_sizes(monkeypatch) -> list[int]:
    """The number of claims in each statement run (so a test sees that claims did share one)."""
    sizes: list[int] = []
    take = slots_mod._take_many

    async def counted(claims, handed, conn):
        sizes.append(len(claims))
        return await take(claims, handed, conn)

    monkeypatch.setattr(slots_mod, "_take_many", counted)
    return sizes


def key_ids(db_url: str, n: int) -> list[tuple[str, int]]:
    keys = [make_key(db_url, "live") for _ in range(n)]
    ids = [r["id"] for r in sql(db_url, "SELECT id FROM api_keys ORDER BY id DESC LIMIT $1", n)]
    return list(zip(keys, reversed(ids)))


async def test_streams_of_a_key_opened_at_once_on_two_workers_get_exactly_its_slots(db_url, mock_clock, batch_sizes):
    keys = [key for key, _ in key_ids(db_url, 3)]
    clock = Clock(start=NOON)
    async with (
        running_app(db_url, clock, [hub_component], mock_clock=mock_clock) as (_, client_a),
        running_app(db_url, clock, [hub_component], mock_clock=mock_clock) as (_, client_b),
    ):
        readers = {key: [Reader() for _ in range(2 * (MAX_STREAMS + 2))] for key in keys}
        async with trio.open_nursery() as n:
            for key, rs in readers.items():  # every stream asked for at once, half of each key's on each app
                for i, r in enumerate(rs):
                    n.start_soon(r.run, client_a if i % 2 else client_b, key)
            with trio.fail_after(60):
                for rs in readers.values():
                    for r in rs:
                        await r.opened.wait()
            statuses = {key: collections.Counter(r.status for r in rs) for key, rs in readers.items()}
            held = sql(db_url, "SELECT count(*) FROM live_stream_slots WHERE expires_at > $1", clock.now())[0][0]
            for rs in readers.values():
                for r in rs:
                    r.kill.cancel()
    for key in keys:
        assert statuses[key] == {200: MAX_STREAMS, 429: len(readers[key]) - MAX_STREAMS}, statuses
    assert held == MAX_STREAMS * len(keys)
    assert max(batch_sizes) > 1, f"no two claims shared a statement: {batch_sizes}"
    assert len(batch_sizes) < sum(len(rs) for rs in readers.values())


async def test_claims_racing_in_batches_of_two_workers_take_each_slot_once(db_url, batch_sizes):
    """Two workers' claim queues, each sent many claims of the same keys at once: every slot of every
    key is taken by exactly one claim, and each claim is told the slot it took."""
    ids = [key_id for _, key_id in key_ids(db_url, 4)]
    clock = Clock(start=NOON)
    async with opened(db_url) as db_a, opened(db_url) as db_b:
        workers = [Slots(db_a, clock), Slots(db_b, clock)]
        told: list[tuple[int, str, int | None]] = []

        async def claim(slots: Slots, key_id: int) -> None:
            holder = new_holder()
            told.append((key_id, holder, await slots.claim(key_id, holder)))

        async with trio.open_nursery() as n:
            for w in workers:
                n.start_soon(w.serve_claims)
            await trio.testing.wait_all_tasks_blocked()
            async with trio.open_nursery() as asking:
                for _ in range(5):
                    for key_id in ids:
                        for w in workers:
                            asking.start_soon(claim, w, key_id)
            n.cancel_scope.cancel()
    rows = sql(db_url, "SELECT key_id, slot, holder FROM live_stream_slots WHERE key_id = ANY($1)", ids)
    assert sorted((r["key_id"], r["slot"]) for r in rows) == sorted((k, s) for k in ids for s in (1, 2))
    assert sorted((r["key_id"], r["holder"], r["slot"]) for r in rows) == sorted(t for t in told if t[2] is not None)
    assert len(told) == 40 and sum(t[2] is None for t in told) == 40 - 2 * len(ids)
    assert max(batch_sizes) > 1 and len(batch_sizes) < 40, batch_sizes


@pytest.fixture
def held_in_flight(monkeypatch):
    """Each batch waits on the database side until the test lets it go: (in flight, let go)."""
    in_flight, let_go = threading.Event(), threading.Event()
    take = slots_mod._take_many

    async def held(claims, handed, conn):
        in_flight.set()
        while not let_go.is_set():
            await asyncio.sleep(0.005)
        return await take(claims, handed, conn)

    monkeypatch.setattr(slots_mod, "_take_many", held)
    return in_flight, let_go


async def test_a_claim_given_up_while_its_batch_is_in_flight_gives_its_slot_back(db_url, held_in_flight):
    in_flight, let_go = held_in_flight
    ((_, key_id),) = key_ids(db_url, 1)
    async with opened(db_url) as db:
        slots = Slots(db, Clock(start=NOON))
        async with trio.open_nursery() as n:
            n.start_soon(slots.serve_claims)
            await trio.testing.wait_all_tasks_blocked()  # the queue's task waits for claims
            with trio.CancelScope() as gave_up:
                n.start_soon(_cancel_once, in_flight, gave_up)
                await slots.claim(key_id, new_holder())
            assert gave_up.cancelled_caught
            let_go.set()
            # the next claim's batch runs after the queue's task gave the slot back: it gets slot 1
            with trio.fail_after(10):
                holder = new_holder()
                assert await slots.claim(key_id, holder) == 1
            n.cancel_scope.cancel()
    assert [tuple(r) for r in sql(db_url, "SELECT slot, holder FROM live_stream_slots WHERE key_id = $1", key_id)] == [
        (1, holder)
    ]


async def test_claims_waiting_when_the_queue_stops_fail_as_the_database_unavailable(db_url, held_in_flight):
    in_flight, let_go = held_in_flight
    ((_, key_id),) = key_ids(db_url, 1)
    async with opened(db_url) as db:
        slots = Slots(db, Clock(start=NOON))
        failed: list[BaseException] = []

        async def claim() -> None:
            try:
                await slots.claim(key_id, new_holder())
            except DatabaseUnavailable as exc:
                failed.append(exc)

        with trio.fail_after(30):  # a claim left waiting would wait for ever
            async with trio.open_nursery() as n:
                with trio.CancelScope() as queue:
                    n.start_soon(claim)  # in flight
                    n.start_soon(_cancel_once, in_flight, queue)
                    await slots.serve_claims()
                n.start_soon(claim)  # after it stopped: a statement of its own
                let_go.set()
    assert len(failed) == 1
    assert len(sql(db_url, "SELECT slot FROM live_stream_slots WHERE key_id = $1", key_id)) == 1


async def _cancel_once(event: threading.Event, scope: trio.CancelScope) -> None:
    await trio.to_thread.run_sync(event.wait)
    scope.cancel()


@contextlib.asynccontextmanager
async def opened(db_url: str):
    db = Database(db_url, pool_size=2)
    await db.open()
    try:
        yield db
    finally:
        await db.close()
