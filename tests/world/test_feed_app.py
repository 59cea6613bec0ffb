"""The feed as an app component: one feed per deployment (advisory lock, taken over when
its worker stops), catch-up after a late start, and its changes flowing to a stream."""

from __future__ import annotations

import datetime as dt

import trio

from svc.assembly import feed_component, hub_component
from svc.core.clock import Clock
from svc.testing.live import Reader, running_app
from svc.web.supervisor import supervisor_of
from svc.world.feed import feed as feed_mod
from tests.support import NOON, make_key, sql


async def host(db_url, clock, mock_clock, stop: trio.Event, *, task_status=trio.TASK_STATUS_IGNORED):
    """One "server" with the feed component, until `stop` is set."""
    async with running_app(db_url, clock, [feed_component], mock_clock=mock_clock) as (app, _):
        task_status.started(supervisor_of(app).handle("feed"))
        await stop.wait()


async def test_one_feed_per_deployment_and_a_standby_takes_over(db_url, mock_clock, monkeypatch):
    monkeypatch.setenv("SVC_LIVE_SPEED", "1")
    clock = Clock(start=NOON)
    stop_a, stop_b = trio.Event(), trio.Event()
    async with trio.open_nursery() as n:
        feed_a = await n.start(host, db_url, clock, mock_clock, stop_a)
        await trio.sleep(2)
        feed_b = await n.start(host, db_url, clock, mock_clock, stop_b)
        await trio.sleep(feed_mod.LOCK_RETRY_S * 2)
        assert (feed_a.playing, feed_b.playing) == (True, False)  # the first holds the lock; the other waits
        stop_a.set()  # the leading worker stops: the standby takes over within its retry interval
        with trio.fail_after(feed_mod.LOCK_RETRY_S + 5):
            while not feed_b.playing:
                await trio.sleep(1)
        stop_b.set()


async def test_late_start_catches_up_then_streams_changes(db_url, mock_clock, monkeypatch):
    monkeypatch.setenv("SVC_LIVE_SPEED", "20")  # twenty seconds of play per second
    late = NOON + dt.timedelta(hours=2)
    ended_by_then = sql(db_url, "SELECT id FROM matches WHERE status = 'live'")
    key = make_key(db_url, "live")
    async with running_app(db_url, Clock(start=late), [hub_component, feed_component], mock_clock=mock_clock) as (
        app,
        client,
    ):
        feed = supervisor_of(app).handle("feed")
        with trio.fail_after(120):
            while feed.position is None or feed.position < late:
                await trio.sleep(1)
        # what was in play at noon finished during the catch-up
        rows = sql(db_url, "SELECT status FROM matches WHERE id = ANY($1::text[])", [r["id"] for r in ended_by_then])
        assert {r["status"] for r in rows} == {"finished"}
        live_now = sql(db_url, "SELECT id FROM matches WHERE status = 'live'")
        reader = Reader()
        async with trio.open_nursery() as n:
            n.start_soon(reader.run, client, key)
            await trio.sleep(60)  # twenty minutes of play
            reader.kill.cancel()
        events = [e for _, e in reader.named("match")]
        if live_now:
            assert len(events) > len(live_now)  # the snapshot, then changes as they happen
        ids = [int(e.id) for e in events]
        assert ids == sorted(ids)
        # the stream and /v1/live agree on what is in play at the end
        last = {}
        for e in events:
            last[e.json()["match"]] = e.json()["status"]
        r = await client.get("/v1/live", headers={"Authorization": f"Bearer {key}"})
        in_play = {m["match"] for m in r.json()["data"]}
        streamed_live = {m for m, s in last.items() if s == "live"}
        # what both know of is live in both (a match the stream never named went live after it was read)
        assert in_play & last.keys() <= streamed_live
        assert not in_play or in_play & streamed_live
        assert not any(last.get(m) == "finished" for m in in_play)
