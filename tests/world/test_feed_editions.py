"""Editions start and finish by the calendar: played forward past the current week, the feed
draws the next future edition on its first day (the generator's draw code, the same draw
every time), its matches go scheduled -> live -> finished round by round on their days, and
its finals make champions."""

from __future__ import annotations

import datetime as dt

import pytest
import trio

from svc.core.clock import Clock
from svc.core.db import Database
from svc.world.feed.editions import Calendar
from svc.world.feed.feed import Feed
from tests.support import make_key, sql

STEP = dt.timedelta(minutes=20)


def world_calendar(db_url) -> Calendar:
    meta = {r["key"]: r["value"] for r in sql(db_url, "SELECT key, value FROM world_meta")}
    cal = Calendar.of_world(meta)
    assert cal is not None
    return cal


def first_future(cal: Calendar):
    """The first future edition the feed draws with matches (a knockout edition)."""
    eds = sorted(
        (e for e in cal.editions.values() if cal.to_draw(e.id) and not e.series.team and e.series.kind != "finals"),
        key=lambda e: e.start,
    )
    assert eds, "the tiny world has future knockout editions"
    return eds[0]


@pytest.fixture(scope="module")
def edition(db_url):
    """Plays the world from just before the first future edition's draw to the day after its
    end (20-minute steps), noting what the world looked like on the way."""
    cal = world_calendar(db_url)
    ed = first_future(cal)
    draw_at = cal.draw_at(ed)
    seen: dict = {"id": ed.id, "name": ed.name, "start": ed.start, "end": ed.end, "draw_at": draw_at}

    def statuses():
        return {
            r["id"]: r["status"] for r in sql(db_url, "SELECT id, status FROM matches WHERE tournament_id = $1", ed.id)
        }

    async def go():
        db = Database(db_url, pool_size=2)
        await db.open()
        try:
            feed = Feed(db, Clock(start=draw_at))
            await feed.step(draw_at - dt.timedelta(minutes=1))
            seen["before"] = statuses()
            await feed.step(draw_at)
            seen["drawn"] = sql(db_url, "SELECT * FROM matches WHERE tournament_id = $1 ORDER BY id", ed.id)
            t = draw_at
            history: dict[str, set] = {}
            end = dt.datetime.combine(ed.end + dt.timedelta(days=2), dt.time(), dt.UTC)
            while t < end:
                t += STEP
                await feed.step(t)
                for mid, st in statuses().items():
                    history.setdefault(mid, set()).add(st)
            seen["history"] = history
        finally:
            await db.close()

    trio.run(go)
    return seen


def test_nothing_of_a_future_edition_before_its_draw(edition):
    assert edition["before"] == {}


def test_the_draw_appears_on_its_first_day_as_the_generator_draws_it(edition, db_url):
    drawn = edition["drawn"]
    assert drawn and all(r["status"] == "scheduled" for r in drawn)
    assert {r["round_code"] for r in drawn} == {drawn[0]["round_code"]}  # the first round only
    # local first day (the draw is at local midnight): every match on or after it, within the edition
    assert all(edition["start"] <= r["day"] <= edition["end"] for r in drawn)
    assert all(r["start_at"] >= edition["draw_at"] for r in drawn)
    # a fresh calendar (a restarted feed) draws the same, whatever it drew before
    again = world_calendar(db_url)
    other = sorted(
        (
            e
            for e in again.editions.values()
            if again.to_draw(e.id) and e.id != edition["id"] and not e.series.team and e.series.kind != "finals"
        ),
        key=lambda e: e.start,
    )
    if other:
        again.draw(other[-1])
    redraw = again.draw(again.editions[edition["id"]])
    assert sorted(
        (m.id, [p.id for p in m.side1], [p.id for p in m.side2], m.seed1, m.seed2, m.start_at) for m in redraw.matches
    ) == [(r["id"], list(r["side1"]), list(r["side2"]), r["seed1"], r["seed2"], r["start_at"]) for r in drawn]
    # every player of the draw is a player of the world (new ones were added)
    ids = {p for r in drawn for p in list(r["side1"]) + list(r["side2"])}
    known = {r["id"] for r in sql(db_url, "SELECT id FROM players WHERE id = ANY($1::text[])", list(ids))}
    assert known == ids


def test_matches_go_scheduled_live_finished_and_rounds_keep_to_their_days(edition, db_url):
    rows = sql(
        db_url,
        "SELECT id, status, round_code, day, start_at, end_at, discipline, winner FROM matches "
        "WHERE tournament_id = $1",
        edition["id"],
    )
    assert rows and all(r["status"] == "finished" and r["winner"] in (1, 2) for r in rows)
    for r in rows:
        assert "live" in edition["history"][r["id"]], r["id"]  # each was seen in play
    order = ["R128", "R64", "R32", "R16", "QF", "SF", "F"]
    by_round: dict[str, list] = {}
    for r in rows:
        by_round.setdefault(r["round_code"], []).append(r)
    assert "F" in by_round and len(by_round["F"]) == len({r["discipline"] for r in rows})
    finals_day = {r["day"] for r in by_round["F"]}
    assert finals_day == {edition["end"]}, "the finals are played on the edition's last day"
    codes = sorted(by_round, key=order.index)
    for a, b in zip(codes, codes[1:]):
        assert max(r["day"] for r in by_round[a]) <= min(r["day"] for r in by_round[b])


async def test_the_finished_edition_has_champions(edition, db_url, client):
    key = make_key(db_url, "archive")
    r = await client.get(f"/v1/tournaments/{edition['id']}", key)
    assert r.status_code == 200, r.json_body
    data = r.json_body["data"]
    finished = sql(db_url, "SELECT finished_at FROM live_feed_editions WHERE tournament_id = $1", edition["id"])
    assert finished and finished[0]["finished_at"] is not None
    if data["medals"]:
        assert data["podium"] and all(p["gold"] for p in data["podium"])
    finals = sql(
        db_url,
        "SELECT discipline, winner, side1, side2 FROM matches WHERE tournament_id = $1 AND round_code = 'F'",
        edition["id"],
    )
    assert len(finals) == len(data["disciplines"])
