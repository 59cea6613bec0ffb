"""Resuming /v1/live/stream with Last-Event-ID: exactly the missed changes, in order, then
live; outside the replay window (or with an id that is not ours) a fresh start instead."""

from __future__ import annotations

import functools

import trio

from svc.assembly import hub_component
from svc.core.clock import Clock
from svc.testing.live import LIVE_SQL, Reader, publish_changes, running_app
from svc_live import stream as stream_mod
from tests.support import NOON, make_key, sql


async def wait_for(reader: Reader, n_matches: int) -> None:
    with trio.fail_after(60):
        while len(reader.named("match")) < n_matches:
            await trio.sleep(0.5)


async def test_resume_delivers_exactly_the_missed_changes_in_order_then_live(db_url, mock_clock):
    key = make_key(db_url, "live")
    ids = [r["id"] for r in sql(db_url, LIVE_SQL)]
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        async with trio.open_nursery() as n:
            first = Reader()
            n.start_soon(first.run, client, key)
            await wait_for(first, len(ids))
            seen = await publish_changes(app, ids[:3])
            await wait_for(first, len(ids) + 3)
            last_id = first.named("match")[-1][1].id
            assert int(last_id) == seen[-1]
            first.kill.cancel()
            await first.closed.wait()

            missed = await publish_changes(app, [ids[i % len(ids)] for i in range(7)])
            await trio.sleep(5)
            again = Reader()
            n.start_soon(functools.partial(again.run, client, key, "/v1/live/stream", **{"Last-Event-ID": last_id}))
            await wait_for(again, len(missed))
            await trio.sleep(2)
            assert [int(e.id) for _, e in again.named("match")] == missed  # no snapshot, nothing twice
            assert [e.json()["match"] for _, e in again.named("match")] == [ids[i % len(ids)] for i in range(7)]
            later = await publish_changes(app, ids[:2])
            await wait_for(again, len(missed) + 2)
            assert [int(e.id) for _, e in again.named("match")] == missed + later
            again.kill.cancel()


async def test_resume_outside_the_window_or_with_a_foreign_id_starts_afresh(db_url, mock_clock):
    key = make_key(db_url, "live")
    ids = [r["id"] for r in sql(db_url, LIVE_SQL)]
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        old = await publish_changes(app, ids[:1])
        mock_clock.jump(stream_mod.REPLAY_S + 60)
        newer = await publish_changes(app, ids[:1])
        for last in (str(old[0] - 1), "not-an-id", str(newer[0] + 1000)):
            r = Reader()
            async with trio.open_nursery() as n:
                n.start_soon(functools.partial(r.run, client, key, "/v1/live/stream", **{"Last-Event-ID": last}))
                await wait_for(r, len(ids))
                await trio.sleep(1)
                r.kill.cancel()
            got = r.named("match")
            # every match in play, once, marked with the newest change's id
            assert sorted(e.json()["match"] for _, e in got) == sorted(ids), last
            assert {int(e.id) for _, e in got} == {newer[0]}, last
        # inside the window a resume replays instead
        r = Reader()
        async with trio.open_nursery() as n:
            n.start_soon(functools.partial(r.run, client, key, "/v1/live/stream", **{"Last-Event-ID": str(old[0])}))
            await wait_for(r, 1)
            await trio.sleep(1)
            r.kill.cancel()
        assert [int(e.id) for _, e in r.named("match")] == newer
