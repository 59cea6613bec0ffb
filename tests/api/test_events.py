"""The results feed on the tiny world: /v1/results/yesterday, /v1/results, /v1/fixtures,
/v1/events/{id}: fields, order, filters, cursors, prices by plan; and point by point,
/v1/events/{id}/points."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.support import NOON, make_key, sql, walk

TODAY = NOON.date()
YESTERDAY = TODAY - dt.timedelta(days=1)
EVENT_FIELDS = {
    "id",
    "tournament",
    "discipline",
    "sport_class",
    "team_event",
    "round_code",
    "start",
    "status",
    "side1",
    "side2",
    "sets",
    "games",
    "winner",
    "outcome",
    "match",
    "odds",
    "duration_min",
}


async def test_results_yesterday_carry_closing_prices_on_a_free_key(client, free_only, db_url):
    r = await client.get("/v1/results/yesterday", free_only)
    events = r.json_body["data"]
    assert r.json_body["meta"]["date"] == YESTERDAY.isoformat()
    assert events, "the tiny world has matches finished yesterday"
    priced = sql(
        db_url,
        "SELECT DISTINCT m.event_id FROM matches m JOIN odds o ON o.match_id = m.id "
        "WHERE m.day = $1 AND m.status = 'finished'",
        YESTERDAY,
    )
    assert {e["id"] for e in events if e["odds"]} == {row["event_id"] for row in priced}
    for e in events:
        assert set(e) == EVENT_FIELDS
        assert e["status"] == "finished" and e["winner"] in (1, 2)
        if e["odds"]:
            assert len(e["odds"]["closing"]) == 2 and e["odds"]["bookmakers"] >= 1


async def test_results_free_key_covers_yesterday_and_today_only(client, free_only):
    for day in (TODAY, YESTERDAY):
        r = await client.get("/v1/results", free_only, date=day.isoformat())
        assert r.status_code == 200
        assert all(e["status"] == "finished" for e in r.json_body["data"])
        assert all(e["odds"] is None for e in r.json_body["data"])  # prices need the Odds plan
    older = await client.get("/v1/results", free_only, date=(TODAY - dt.timedelta(days=2)).isoformat())
    assert older.status_code == 403 and older.json_body["error"]["plan"] == "archive"
    # the refusal names the days the Free key covers, in words and as error.covers
    error = older.json_body["error"]
    assert error["covers"] == {"from": YESTERDAY.isoformat(), "to": TODAY.isoformat()}
    assert f"{YESTERDAY} to {TODAY}" in error["message"] and "Archive" in error["message"]
    assert older.headers["X-RateLimit-Limit"]  # still answered with the key's rate-limit headers
    # a Free key asking for an Archive endpoint is refused as before, with no covers
    other = (await client.get("/v1/players", free_only)).json_body["error"]
    assert other["code"] == "upgrade_required" and "covers" not in other


async def test_results_cursor_walk_returns_every_item_once(client, free, db_url):
    items, meta = await walk(client, free, "/v1/results", 3, date=YESTERDAY.isoformat())
    ids = [e["id"] for e in items]
    assert len(ids) == len(set(ids)) == meta["total"]
    last = await client.get(
        "/v1/results", free, date=YESTERDAY.isoformat(), per_page=meta["per_page"], page=meta["pages"]
    )
    assert last.json_body["meta"]["next_cursor"] == ""
    expected = sql(db_url, "SELECT count(*) AS n FROM matches WHERE status = 'finished' AND day = $1", YESTERDAY)
    assert meta["total"] == expected[0]["n"]
    by_page = []
    for page in range(1, meta["pages"] + 1):
        by_page += [
            e["id"]
            for e in (
                await client.get("/v1/results", free, date=YESTERDAY.isoformat(), per_page=meta["per_page"], page=page)
            ).json_body["data"]
        ]
    assert by_page == ids
    past = await client.get(
        "/v1/results", free, date=YESTERDAY.isoformat(), per_page=meta["per_page"], page=meta["pages"] + 1
    )
    assert past.status_code == 422


async def test_results_discipline_filter(client, free):
    r = await client.get("/v1/results", free, date=YESTERDAY.isoformat(), discipline="ws", per_page=200)
    assert r.status_code == 200
    assert all(e["discipline"] == "WS" for e in r.json_body["data"])


async def test_fixtures_soonest_first_including_matches_under_way(client, free):
    items, meta = await walk(client, free, "/v1/fixtures", 7)
    assert len({e["id"] for e in items}) == len(items) == meta["total"]
    starts = [e["start"] for e in items]
    assert starts == sorted(starts)
    assert {e["status"] for e in items} == {"live", "scheduled"}
    live = [e for e in items if e["status"] == "live"]
    assert all(e["games"] and e["winner"] is None for e in live)


async def test_cursor_is_tied_to_its_filters(client, free):
    r = await client.get("/v1/fixtures", free, per_page=1)
    cursor = r.json_body["meta"]["next_cursor"]
    other = await client.get("/v1/fixtures", free, per_page=1, cursor=cursor, discipline="MS")
    assert other.status_code == 400 and "cursor" in other.json_body["error"]["message"]


async def test_event_by_id_matches_the_feed_and_prices_follow_the_plan(client, free_only, db_url):
    fixture = (await client.get("/v1/fixtures", free_only, per_page=1)).json_body["data"][0]
    one = await client.get(f"/v1/events/{fixture['id']}", free_only)
    assert one.status_code == 200 and one.json_body["data"] == fixture
    odds_key = make_key(db_url, "odds")
    with_odds = (await client.get(f"/v1/events/{fixture['id']}", odds_key)).json_body["data"]
    priced = sql(
        db_url,
        "SELECT count(*) AS n FROM odds o JOIN matches m ON m.id = o.match_id "
        "WHERE m.event_id = $1 AND o.market = 'winner'",
        fixture["id"],
    )[0]["n"]
    assert (with_odds["odds"] is not None) == (priced > 0)
    if priced:
        assert with_odds["odds"]["bookmakers"] == priced
        assert abs(sum(with_odds["odds"]["market_chance"]) - 1) < 0.001


@pytest.fixture
def key(db_url):
    return make_key(db_url, "archive")  # its own per-minute allowance for each test


# -- /v1/events/{id}/points --------------------------------------------------------------
async def test_points_add_up_to_the_score(client, key, db_url):
    m = sql(
        db_url,
        "SELECT m.id, m.event_id, m.g1, m.g2 FROM matches m WHERE m.status = 'finished' "
        "AND m.outcome = 'played' AND EXISTS (SELECT 1 FROM rallies r WHERE r.match_id = m.id) "
        "ORDER BY m.id LIMIT 1",
    )[0]
    r = await client.get(f"/v1/events/{m['event_id']}/points", key)
    assert r.status_code == 200
    games, meta = r.json_body["data"], r.json_body["meta"]
    assert [g["score"] for g in games] == [[a, b] for a, b in zip(m["g1"], m["g2"])]
    for g in games:
        assert [x["rally"] for x in g["rallies"]] == list(range(1, len(g["rallies"]) + 1))
        assert g["rallies"][-1]["score"] == g["score"]
        assert all(x["winner"] in (1, 2) and x["server"] in (1, 2) for x in g["rallies"])
    s1, s2 = meta["sides"]
    assert s1["points"] == sum(m["g1"]) and s2["points"] == sum(m["g2"])
    for s in (s1, s2):
        assert s["won_on_serve"] + s["won_against_serve"] == s["points"]
        assert 1 <= s["longest_run"] <= max(g["score"][s["side"] - 1] for g in games)
    won_serving = sum(1 for g in games for x in g["rallies"] if x["winner"] == x["server"] == 1)
    assert s1["won_on_serve"] == won_serving  # rally point: every rally won is a point
    by_match = await client.get(f"/v1/events/{m['id']}/points", key)
    assert by_match.json_body == r.json_body


async def test_points_of_a_match_in_play_need_the_live_plan(client, key, db_url):
    live = sql(db_url, "SELECT event_id FROM matches WHERE status = 'live' ORDER BY id LIMIT 1")[0]["event_id"]
    refused = await client.get(f"/v1/events/{live}/points", key)
    assert refused.status_code == 403 and refused.json_body["error"]["plan"] == "live"
    assert (await client.get("/v1/usage", key)).json_body["data"]["calls_today"] == 0  # a refusal is not counted
    live_key = make_key(db_url, "live")
    r = await client.get(f"/v1/events/{live}/points", live_key)
    assert r.status_code == 200 and r.json_body["meta"]["status"] == "live" and r.json_body["data"]
    finished = sql(db_url, "SELECT event_id FROM matches WHERE status = 'finished' ORDER BY id LIMIT 1")[0]["event_id"]
    assert (await client.get(f"/v1/events/{finished}/points", key)).status_code == 200


async def test_points_of_a_match_without_rallies_is_an_empty_list_with_a_note(client, key, db_url):
    old = sql(
        db_url,
        "SELECT m.event_id FROM matches m WHERE m.status = 'finished' AND NOT EXISTS "
        "(SELECT 1 FROM rallies r WHERE r.match_id = m.id) ORDER BY m.day DESC NULLS LAST LIMIT 1",
    )
    r = await client.get(f"/v1/events/{old[0]['event_id']}/points", key)
    assert r.status_code == 200
    assert r.json_body["data"] == [] and r.json_body["meta"]["note"] and r.json_body["meta"]["sides"] is None


# -- time: answers about a match in play are not kept long -----------------------------
async def test_points_of_a_match_in_play_show_a_new_rally_within_seconds(cached_client, db_url, mock_clock):
    live_key = make_key(db_url, "live")
    m = sql(
        db_url,
        "SELECT m.id, m.event_id FROM matches m WHERE m.status = 'live' AND EXISTS "
        "(SELECT 1 FROM rallies r WHERE r.match_id = m.id) ORDER BY m.id LIMIT 1",
    )[0]
    first = (await cached_client.get(f"/v1/events/{m['event_id']}/points", live_key)).json_body
    last = sql(
        db_url,
        "SELECT game, rally, score1, score2 FROM rallies WHERE match_id = $1 ORDER BY game DESC, rally DESC LIMIT 1",
        m["id"],
    )[0]
    sql(
        db_url,
        "INSERT INTO rallies VALUES ($1, $2, $3, 1, 1, $4, $5)",
        m["id"],
        last["game"],
        last["rally"] + 1,
        last["score1"] + 1,
        last["score2"],
    )
    again = (await cached_client.get(f"/v1/events/{m['event_id']}/points", live_key)).json_body
    assert again == first  # within the answer's short lifetime
    mock_clock.jump(3)
    fresh = (await cached_client.get(f"/v1/events/{m['event_id']}/points", live_key)).json_body
    assert fresh["data"][-1]["rallies"][-1]["score"] == [last["score1"] + 1, last["score2"]]
    assert fresh["meta"]["sides"][0]["points"] == first["meta"]["sides"][0]["points"] + 1
