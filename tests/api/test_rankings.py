"""Archive plan, world ranking: /v1/rankings and /v1/rankings/number-ones on the tiny world.
Expectations come from the published lists (the rankings table)."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.support import NOON, make_key, sql, walk

TODAY = NOON.date()
DISCIPLINES = ("MS", "WS", "MD", "WD", "XD")
ROW_FIELDS = {"rank", "name", "players", "points"}
REIGN_FIELDS = {"discipline", "name", "players", "first", "last", "weeks", "current"}


@pytest.fixture(scope="module")
def key(db_url):
    return make_key(db_url, "live")


def list_in_force(db_url, discipline, day):
    return sql(db_url, "SELECT max(week) AS w FROM rankings WHERE discipline = $1 AND week <= $2", discipline, day)[0][
        "w"
    ]


async def test_latest_list_walks_every_row_once_with_unmatched_players(client, key, db_url):
    week = list_in_force(db_url, "MS", TODAY)
    rows, meta = await walk(client, key, "/v1/rankings", 5, discipline="MS")
    expected = sql(
        db_url, "SELECT rank, name, player1 FROM rankings WHERE discipline = 'MS' AND week = $1 ORDER BY rank", week
    )
    assert meta["date"] == week.isoformat() and meta["full"] is True
    assert meta["total"] == len(rows) == len(expected)
    assert [r["rank"] for r in rows] == [e["rank"] for e in expected]
    assert all(set(r) == ROW_FIELDS for r in rows)
    unmatched = [r for r in rows if any(p["id"] is None for p in r["players"])]
    assert len(unmatched) == sum(1 for e in expected if e["player1"] is None) > 0
    assert all(p["country"] is None and p["name"] for r in unmatched for p in r["players"] if p["id"] is None)
    doubles = (await client.get("/v1/rankings", key, discipline="XD", per_page=1)).json_body["data"][0]
    assert len(doubles["players"]) == 2 and " / ".join(p["name"] for p in doubles["players"]) == doubles["name"]


async def test_date_gives_the_top_list_in_force_that_day(client, key, db_url):
    week = sql(
        db_url,
        "SELECT week FROM rankings WHERE NOT full_list AND week >= '2013-01-01' AND discipline = 'WS' "
        "ORDER BY week DESC LIMIT 1",
    )[0]["week"]
    day = week + dt.timedelta(days=3)  # a Friday: the Tuesday's list is in force
    r = await client.get("/v1/rankings", key, discipline="ws", date=day.isoformat(), per_page=200)
    assert r.status_code == 200
    assert r.json_body["meta"]["date"] == list_in_force(db_url, "WS", day).isoformat() == week.isoformat()
    assert r.json_body["meta"]["full"] is False
    top = sql(db_url, "SELECT rank, points FROM rankings WHERE discipline = 'WS' AND week = $1 ORDER BY rank", week)
    assert [(x["rank"], x["points"]) for x in r.json_body["data"]] == [(t["rank"], t["points"]) for t in top]
    # the day before publication is still the previous list's
    before = await client.get("/v1/rankings", key, discipline="WS", date=(week - dt.timedelta(days=1)).isoformat())
    assert before.json_body["meta"]["date"] < week.isoformat()


@pytest.mark.parametrize(
    "params, status, name",
    [
        ({}, 400, "discipline"),
        ({"discipline": "XX"}, 422, "discipline"),
        ({"discipline": "MS", "date": "2012-12-31"}, 422, "date"),
        ({"discipline": "MS", "date": "2013-02-30"}, 400, "date"),
        ({"discipline": "MS", "date": "yesterday"}, 400, "date"),
        ({"discipline": "MS", "page": 500}, 422, "page"),
    ],
)
async def test_rankings_bad_parameters(client, key, params, status, name):
    r = await client.get("/v1/rankings", key, **params)
    assert r.status_code == status and name in r.json_body["error"]["message"], r.json_body


async def test_future_date_is_refused(client, key):
    r = await client.get("/v1/rankings", key, discipline="MS", date=(TODAY + dt.timedelta(days=8)).isoformat())
    assert r.status_code == 422 and "date" in r.json_body["error"]["message"]
    r = await client.get("/v1/rankings/number-ones", key, date=(TODAY + dt.timedelta(days=1)).isoformat())
    assert r.status_code == 422


async def test_reigns_tile_the_lists_one_current_per_discipline(client, key, db_url):
    r = await client.get("/v1/rankings/number-ones", key)
    assert r.status_code == 200
    reigns = r.json_body["data"]
    assert all(set(x) == REIGN_FIELDS for x in reigns)
    for d in DISCIPLINES:
        mine = [x for x in reigns if x["discipline"] == d]
        lists = sql(
            db_url, "SELECT count(DISTINCT week) FROM rankings WHERE discipline = $1 AND week > '2009-09-24'", d
        )
        assert sum(x["weeks"] for x in mine) == lists[0]["count"]
        assert [x["current"] for x in mine].count(True) == 1 and mine[-1]["current"] and mine[-1]["last"] is None
        for a, b in zip(mine, mine[1:]):
            assert dt.date.fromisoformat(a["last"]) + dt.timedelta(days=1) == dt.date.fromisoformat(b["first"])
            assert a["name"] != b["name"]  # a reign ends only when someone else is first
        assert mine[0]["first"] >= "2009-10-01"


async def test_date_keeps_the_reign_in_force_and_agrees_with_the_list(client, key, db_url):
    week = sql(
        db_url,
        "SELECT week FROM rankings WHERE week >= '2013-01-01' AND discipline = 'MD' ORDER BY week LIMIT 1 OFFSET 3",
    )[0]["week"]
    day = week + dt.timedelta(days=2)
    r = await client.get("/v1/rankings/number-ones", key, date=day.isoformat())
    reigns = r.json_body["data"]
    assert sorted(x["discipline"] for x in reigns) == sorted(DISCIPLINES)
    for x in reigns:
        assert x["first"] <= day.isoformat() and (x["last"] is None or x["last"] >= day.isoformat())
    md = next(x for x in reigns if x["discipline"] == "MD")
    first = (await client.get("/v1/rankings", key, discipline="MD", date=day.isoformat(), per_page=1)).json_body[
        "data"
    ][0]
    assert first["name"] == md["name"] and first["players"] == md["players"]
    one = await client.get("/v1/rankings/number-ones", key, date=day.isoformat(), discipline="MD")
    assert one.json_body["data"] == [md]


async def test_player_filter_and_unknown_player(client, key, db_url):
    pid = sql(db_url, "SELECT player1 FROM rankings WHERE rank = 1 GROUP BY player1 ORDER BY count(*) DESC LIMIT 1")[0][
        0
    ]
    r = await client.get("/v1/rankings/number-ones", key, player=pid)
    assert r.json_body["data"] and all(pid in [p["id"] for p in x["players"]] for x in r.json_body["data"])
    never = sql(
        db_url,
        "SELECT id FROM players p WHERE NOT EXISTS (SELECT 1 FROM rankings r WHERE r.rank = 1 "
        "AND p.id IN (r.player1, r.player2)) ORDER BY id LIMIT 1",
    )[0]["id"]
    assert (await client.get("/v1/rankings/number-ones", key, player=never)).json_body["data"] == []
    r = await client.get("/v1/rankings/number-ones", key, player="pl_doesnotexist")
    assert r.status_code == 404
    r = await client.get("/v1/rankings/number-ones", key, player="tr_x")
    assert r.status_code == 400 and "player" in r.json_body["error"]["message"]
    r = await client.get("/v1/rankings/number-ones", key, date="2009-09-30")
    assert r.status_code == 422 and "date" in r.json_body["error"]["message"]


async def test_free_key_is_refused_with_plan_archive(client, db_url):
    free = make_key(db_url, "free")
    for path, params in (("/v1/rankings", {"discipline": "MS"}), ("/v1/rankings/number-ones", {})):
        r = await client.get(path, free, **params)
        assert r.status_code == 403 and r.json_body["error"]["plan"] == "archive"
