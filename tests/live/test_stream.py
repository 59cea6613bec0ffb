"""/v1/live and /v1/live/stream on the tiny world, with the hub running and Trio's mock clock.

The stream is read with httpx-sse through an in-process streaming transport
(svc.testing.live), so virtual time drives heartbeats, the ~5-minute end and leases.
Changes are written the way the feed writes them (svc.world.feed.publish)."""

from __future__ import annotations

import datetime as dt

import pytest
import trio

from svc.assembly import hub_component
from svc.core.clock import Clock
from svc.testing.live import LIVE_SQL, Reader, publish_changes, running_app
from svc_live import stream as stream_mod
from svc_live.components import hub_of
from tests.support import NOON, make_key, sql


@pytest.fixture
async def live_app(db_url, mock_clock):
    async with running_app(db_url, Clock(start=NOON), [hub_component], mock_clock=mock_clock) as (app, client):
        yield app, client


async def test_other_plans_get_403_naming_live(client, plan_keys):
    for plan in ("free", "archive", "odds"):
        for path in ("/v1/live", "/v1/live/stream"):
            r = await client.get(path, plan_keys[plan])
            assert r.status_code == 403, (plan, path)
            assert r.json_body["error"]["code"] == "upgrade_required"
            assert r.json_body["error"]["plan"] == "live"


async def test_live_lists_every_match_in_play_with_the_score_so_far(client, db_url, plan_keys):
    expected = sql(db_url, LIVE_SQL)
    assert expected, "the tiny world has matches in play at noon"
    r = await client.get("/v1/live", plan_keys["live"])
    assert r.status_code == 200
    got = r.json_body["data"]
    assert sorted(m["match"] for m in got) == [row["id"] for row in expected]
    for m in got:
        assert m["status"] == "live" and m["winner"] is None
        assert m["game_in_play"] == len(m["games"]) and m["point"] == m["games"][-1]
        assert m["serving"] in (1, 2, None)
    one = expected[0]["discipline"]
    r = await client.get("/v1/live", plan_keys["live"], discipline=one.lower())
    assert {m["discipline"] for m in r.json_body["data"]} == {one}
    assert len(r.json_body["data"]) == sum(1 for row in expected if row["discipline"] == one)
    r = await client.get("/v1/live", plan_keys["live"], discipline="XX")
    assert r.status_code == 422 and "discipline" in r.json_body["error"]["message"]


async def test_stream_sends_matches_in_play_heartbeats_then_ends_after_five_minutes(live_app, db_url, mock_clock):
    app, client = live_app
    key = make_key(db_url, "live")
    in_play = sql(db_url, LIVE_SQL)
    reader = Reader()
    async with trio.open_nursery() as n:
        n.start_soon(reader.run, client, key)
    assert reader.status == 200
    h = reader.headers
    assert h["content-type"].startswith("text/event-stream")
    assert h["cache-control"] == "no-cache" and h["x-accel-buffering"] == "no"
    assert "content-encoding" not in h and "x-ratelimit-remaining" in h
    matches = reader.named("match")
    assert sorted(e.json()["match"] for _, e in matches) == [r["id"] for r in in_play]
    assert all(e.retry is None or e.retry > 0 for _, e in reader.events)
    opened = reader.events[0][0]
    beats = [t for t, _ in reader.named("heartbeat")]
    gaps = [b - a for a, b in zip(beats, beats[1:])]
    assert 0 < beats[0] - opened <= stream_mod.HEARTBEAT_S
    assert len(beats) >= 19 and all(abs(g - stream_mod.HEARTBEAT_S) < 0.5 for g in gaps), gaps
    end_t, end = reader.events[-1]
    assert end.event == "end" and end.json()["reason"] == "time"
    assert abs((end_t - opened) - stream_mod.STREAM_S) <= 1
    # the stream was one call; its slot is free again
    assert sql(db_url, "SELECT count(*) FROM live_stream_slots")[0][0] == 0


async def test_stream_discipline_filter_and_a_change_arrives(live_app, db_url, mock_clock):
    app, client = live_app
    key = make_key(db_url, "live")
    in_play = sql(db_url, LIVE_SQL)
    disc = in_play[0]["discipline"]
    other = [r["id"] for r in in_play if r["discipline"] != disc]
    mine = [r["id"] for r in in_play if r["discipline"] == disc]
    reader = Reader()
    async with trio.open_nursery() as n:
        n.start_soon(reader.run, client, key, f"/v1/live/stream?discipline={disc}")
        await reader.opened.wait()
        await trio.sleep(1)
        seqs = await publish_changes(app, other + mine)
        await trio.sleep(1)
        reader.kill.cancel()
    got = [e for _, e in reader.named("match")]
    assert {e.json()["discipline"] for e in got} == {disc}
    snapshot, live = got[: len(mine)], got[len(mine) :]
    assert sorted(e.json()["match"] for e in snapshot) == sorted(mine)
    assert [int(e.id) for e in live] == seqs[len(other) :]


async def test_a_stream_opened_just_after_a_change_starts_from_the_new_score(live_app, db_url, mock_clock):
    """New streams share one snapshot of the matches in play (one query for a crowd of
    clients); one opened after a change must still start from the score as it is now."""
    app, client = live_app
    in_play = sql(db_url, LIVE_SQL)
    first, later = Reader(), Reader()
    async with trio.open_nursery() as n:
        n.start_soon(first.run, client, make_key(db_url, "live"))
        await first.opened.wait()
        await trio.sleep(1)
        changed = in_play[0]["id"]
        sql(
            db_url,
            "UPDATE matches SET g1 = g1[:cardinality(g1) - 1] || (g1[cardinality(g1)] + 1) WHERE id = $1",
            changed,
        )
        await publish_changes(app, [changed])
        await trio.sleep(1)
        n.start_soon(later.run, client, make_key(db_url, "live"))
        await later.opened.wait()
        await trio.sleep(1)
        first.kill.cancel()
        later.kill.cancel()
    now = {
        r["id"]: [r["g1"][-1], r["g2"][-1]] for r in sql(db_url, "SELECT id, g1, g2 FROM matches WHERE status = 'live'")
    }
    last_seen = {e.json()["match"]: e.json()["point"] for _, e in later.named("match")}
    assert last_seen == now
    assert [e.json()["point"] for _, e in first.named("match") if e.json()["match"] == changed][0] != now[changed]


async def test_a_stopping_hub_ends_its_streams_and_refuses_new_ones_uncounted(live_app, db_url):
    app, client = live_app
    key = make_key(db_url, "live")
    reader = Reader()
    async with trio.open_nursery() as n:
        n.start_soon(reader.run, client, key)
        await reader.opened.wait()
        await hub_of(app).end_streams(within_s=5)
        with trio.fail_after(1):  # end_streams returned once the goodbye was sent
            await reader.closed.wait()
    assert reader.events[-1][1].event == "end" and reader.events[-1][1].json()["reason"] == "shutdown"
    before = (await client.get("/v1/usage", headers={"X-API-Key": key})).json()["data"]
    refused = Reader()
    await refused.run(client, key)
    assert refused.status == 503 and refused.body["error"]["code"] == "unavailable"
    after = (await client.get("/v1/usage", headers={"X-API-Key": key})).json()["data"]
    assert after["calls_today"] == before["calls_today"]


async def test_live_meta_says_the_world_time_and_when_play_resumes(client, plan_keys, db_url):
    key = plan_keys["live"]
    nxt = sql(db_url, "SELECT min(start_at) AS at FROM matches WHERE status = 'scheduled' AND start_at > $1", NOON)[0][
        "at"
    ]
    meta = (await client.get("/v1/live", key)).json_body["meta"]
    as_of = dt.datetime.fromisoformat(meta["as_of"].replace("Z", "+00:00"))
    assert dt.timedelta(0) <= as_of - NOON < dt.timedelta(minutes=5)  # the feed never ran: the clock's time
    assert meta["next_start_at"] == nxt.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")
    assert meta["next_edition"]["start_date"] > NOON.date().isoformat() and meta["next_edition"]["id"].startswith("tr_")
    # the demo world played faster than the clock: its time is the feed's, hours ahead
    ahead = NOON + dt.timedelta(hours=5)
    sql(
        db_url,
        "INSERT INTO live_feed_state (world, played_to) VALUES ('test', $1) "
        "ON CONFLICT (id) DO UPDATE SET played_to = excluded.played_to",
        ahead,
    )
    try:
        meta = (await client.get("/v1/live", key)).json_body["meta"]
    finally:
        sql(db_url, "DELETE FROM live_feed_state")
    assert meta["as_of"] == ahead.isoformat().replace("+00:00", "Z")
    later = sql(db_url, "SELECT min(start_at) AS at FROM matches WHERE status = 'scheduled' AND start_at > $1", ahead)[
        0
    ]["at"]
    assert meta["next_start_at"] == (later.astimezone(dt.UTC).isoformat().replace("+00:00", "Z") if later else None)
