"""The world's "now" is the moment it was generated, and the live feed starts from it: a world
generated at 08:00 shows 08:00 (not noon), and a feed whose clock is behind the world's now
waits for the clock instead of playing ahead of it."""

from __future__ import annotations

import datetime as dt

import trio

from svc.__main__ import _moment
from svc.assembly import feed_component
from svc.core.clock import Clock
from svc.testing.live import running_app
from svc.web.supervisor import supervisor_of
from svc.world.bundle import read_manifest
from svc.world.feed.feed import world_now
from svc.world.generate import generate_bundle
from tests.support import NOON, TODAY, sql


def test_a_world_generated_at_a_moment_is_as_of_that_moment(tmp_path):
    at = dt.datetime.combine(TODAY, dt.time(8, 0), dt.UTC)
    generate_bundle(tmp_path, scale="tiny", seed=3, as_of=at)
    assert read_manifest(tmp_path)["now"] == at.isoformat()
    import csv

    with open(tmp_path / "world_meta.csv", encoding="utf-8") as f:
        meta = {r["key"]: r["value"] for r in csv.DictReader(f)}
    assert meta["as_of"] == TODAY.isoformat() and world_now(meta, TODAY) == at
    with open(tmp_path / "matches.csv", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["status"] != "finished" or (r["end_at"] and r["end_at"] > "2026")]
    when = dt.datetime.fromisoformat
    live = [r for r in rows if r["status"] == "live"]
    scheduled = [r for r in rows if r["status"] == "scheduled"]
    assert scheduled and all(when(r["start_at"]) > at for r in scheduled)
    assert all(when(r["start_at"]) <= at for r in live)
    assert all(when(r["end_at"]) <= at for r in rows if r["status"] == "finished" and r["end_at"])


def test_as_of_on_the_command_line_is_a_day_or_a_moment():
    assert _moment("2026-10-10") == dt.date(2026, 10, 10)
    assert _moment("2026-10-10T08:05") == dt.datetime(2026, 10, 10, 8, 5, tzinfo=dt.UTC)
    assert _moment("2026-10-10T10:05+02:00") == dt.datetime(2026, 10, 10, 8, 5, tzinfo=dt.UTC)
    # an older world without `now`: noon of its as-of day
    assert world_now({"as_of": "2026-10-10"}, TODAY) == dt.datetime(2026, 10, 10, 12, tzinfo=dt.UTC)


async def test_a_feed_started_before_the_worlds_now_waits_for_the_clock(db_url, mock_clock, monkeypatch):
    monkeypatch.setenv("SVC_LIVE_SPEED", "1")
    # the world (now = noon) is ten minutes ahead: each virtual second the app waits costs real
    # milliseconds (the mock clock jumps after 20 ms idle), so a longer lead only costs time
    clock = Clock(start=NOON - dt.timedelta(minutes=10))
    clock.now()  # anchored now: the feed's start-up (threads let the mock clock jump) counts from here
    changes_before = sql(db_url, "SELECT count(*) AS n FROM live_changes")[0]["n"]
    async with running_app(db_url, clock, [feed_component], mock_clock=mock_clock) as (app, _):
        feed = supervisor_of(app).handle("feed")
        while clock.now() < NOON - dt.timedelta(minutes=1):  # until just before the world's now
            await trio.sleep(60)
            assert feed.position is None or feed.position <= clock.now()
        assert feed.playing
        assert sql(db_url, "SELECT count(*) AS n FROM live_changes")[0]["n"] == changes_before
        with trio.fail_after(30 * 60):  # past the world's now, the feed plays, never ahead of the clock
            while feed.position is None or feed.position <= NOON:
                await trio.sleep(1)
                assert feed.position is None or feed.position <= clock.now()
        assert sql(db_url, "SELECT count(*) AS n FROM live_changes")[0]["n"] > changes_before


async def test_a_fast_feed_resumed_ahead_of_the_clock_goes_on_at_once(db_url, mock_clock):
    """At --live-speed 10 the world runs ahead of the clock; a restart (or another worker taking the
    lead) must go on from where the feed was, not wait hours for the clock to catch up."""
    from svc.core.db import Database
    from svc.world.feed.feed import Feed

    clock = Clock(start=NOON)
    clock.now()

    async def play_until(check, limit_s: float) -> Feed:
        db = Database(db_url, pool_size=2)
        mock_clock.autojump_threshold = float("inf")  # virtual time stands still while the pool opens
        await db.open()
        mock_clock.autojump_threshold = 0.02
        try:
            feed = Feed(db, clock, speed=10)
            async with trio.open_nursery() as n:
                await n.start(feed.run)
                with trio.fail_after(limit_s):
                    while not check(feed):
                        await trio.sleep(5)
                n.cancel_scope.cancel()
            return feed
        finally:
            mock_clock.autojump_threshold = float("inf")
            await db.close()

    first = await play_until(lambda f: f.position is not None and f.position >= NOON + dt.timedelta(hours=1), 10 * 60)
    reached = first.position
    assert reached > clock.now()  # ahead of the clock, as asked
    # a restart: not the hour or so it would take the clock to catch up
    await play_until(lambda f: f.position is not None and f.position > reached, 5 * 60)
