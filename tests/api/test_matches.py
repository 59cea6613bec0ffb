"""Archive matches on the tiny world: /v1/matches, /v1/matches/{id}."""

from __future__ import annotations

import pytest

from tests.support import make_key, sql, walk


@pytest.fixture
def key(db_url):
    return make_key(db_url, "archive")  # its own per-minute allowance for each test


def newest_first(items):
    keys = [(m["date"] or "", m["id"]) for m in items]
    return keys == sorted(keys, reverse=True)


# -- plans and bad input ----------------------------------------------------------------
@pytest.mark.parametrize("path", ["/v1/matches", "/v1/matches/mt_x", "/v1/events/ev_x/points"])
async def test_a_free_key_is_asked_to_upgrade_to_archive(client, plan_keys, path):
    r = await client.get(path, plan_keys["free"])
    assert r.status_code == 403 and r.json_body["error"]["plan"] == "archive"


async def test_bad_parameters_name_the_parameter(client, key):
    cases = [
        (dict(player="tr_abc"), 400, "player"),
        (dict(tournament="pl_abc"), 400, "tournament"),
        (dict(round="R256"), 422, "round"),
        (dict(year=1898), 422, "year"),
        (dict(discipline="MX"), 422, "discipline"),
        (dict(with_odds="yes"), 400, "with_odds"),
        (dict(series="no-such-series"), 422, "series"),
        (dict(player="pl_nosuchplayer"), 422, "player"),
        (dict(tournament="tr_nosuchedition"), 422, "tournament"),
        (dict(per_page=0), 422, "per_page"),
        (dict(cursor="garbage"), 400, "cursor"),
    ]
    for params, status, name in cases:
        r = await client.get("/v1/matches", key, **params)
        assert r.status_code == status, (params, r.json_body)
        assert name in r.json_body["error"]["message"], params
    assert (await client.get("/v1/matches/mt_nosuchmatch", key)).status_code == 404
    assert (await client.get("/v1/matches/ev_wrongkind", key)).status_code == 400
    assert (await client.get("/v1/events/ev_nosuchevent/points", key)).status_code == 404
    assert (await client.get("/v1/events/pl_wrongkind/points", key)).status_code == 400


# -- /v1/matches ----------------------------------------------------------------------------
async def test_matches_of_an_edition_walk_every_match_once_newest_first(client, key, db_url):
    tid = sql(db_url, "SELECT tournament_id FROM matches GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")[0]["tournament_id"]
    items, meta = await walk(client, key, "/v1/matches", 9, tournament=tid)
    ids = [m["id"] for m in items]
    expected = sql(db_url, "SELECT id FROM matches WHERE tournament_id = $1", tid)
    assert len(ids) == len(set(ids)) == meta["total"] and set(ids) == {r["id"] for r in expected}
    assert newest_first(items)
    listed = (await client.get(f"/v1/tournaments/{tid}", key)).json_body["data"]["matches"]
    assert listed == meta["total"]


async def test_matches_of_a_player_include_both_sides_singles_and_doubles(client, key, db_url):
    pid = sql(db_url, "SELECT player_id FROM player_totals ORDER BY matches DESC, player_id LIMIT 1")[0]["player_id"]
    items, meta = await walk(client, key, "/v1/matches", 100, player=pid)
    expected = sql(db_url, "SELECT count(*) AS n FROM matches WHERE $1 = ANY (side1) OR $1 = ANY (side2)", pid)[0]["n"]
    assert meta["total"] == len(items) == expected
    for m in items:
        assert pid in [p["id"] for p in m["side1"]["players"] + m["side2"]["players"]]
    assert newest_first(items)


async def test_the_whole_list_and_its_fast_counts_agree_with_the_table(client, key, db_url):
    first = await client.get("/v1/matches", key, per_page=5)
    assert first.json_body["meta"]["total"] == sql(db_url, "SELECT count(*) AS n FROM matches")[0]["n"]
    assert newest_first(first.json_body["data"])
    for params, where in [
        (dict(discipline="WD"), "discipline = 'WD'"),
        (dict(round="F"), "round_code = 'F'"),
        (dict(discipline="MS", round="QF"), "discipline = 'MS' AND round_code = 'QF'"),
    ]:
        r = await client.get("/v1/matches", key, per_page=3, **params)
        assert r.json_body["meta"]["total"] == sql(db_url, f"SELECT count(*) AS n FROM matches WHERE {where}")[0]["n"]
        for m in r.json_body["data"]:
            assert all(m[k if k != "round" else "round_code"] == v for k, v in params.items())


async def test_with_odds_keeps_only_finished_matches_with_prices(client, key, plan_keys, db_url):
    priced = sql(
        db_url,
        "SELECT count(*) AS n FROM matches m WHERE m.status = 'finished' AND EXISTS "
        "(SELECT 1 FROM odds o WHERE o.match_id = m.id AND o.market = 'winner')",
    )[0]["n"]
    assert priced > 0
    r = await client.get("/v1/matches", plan_keys["odds"], with_odds="true", per_page=50)
    assert r.json_body["meta"]["total"] == priced
    assert all(m["odds"] and m["status"] == "finished" for m in r.json_body["data"])
    archive = await client.get("/v1/matches", key, with_odds="true", discipline="MS", per_page=50)
    assert archive.json_body["data"] and all(m["odds"] is None for m in archive.json_body["data"])  # prices: Odds plan
    ms = sql(
        db_url,
        "SELECT count(*) AS n FROM matches m WHERE m.status = 'finished' AND m.discipline = 'MS' AND "
        "EXISTS (SELECT 1 FROM odds o WHERE o.match_id = m.id AND o.market = 'winner')",
    )[0]["n"]
    assert archive.json_body["meta"]["total"] == ms


async def test_series_and_year_filters(client, key, db_url):
    t = sql(
        db_url,
        "SELECT series, year FROM tournaments t WHERE EXISTS (SELECT 1 FROM matches m "
        "WHERE m.tournament_id = t.id) AND series = 'all-england' ORDER BY year DESC LIMIT 1",
    )[0]
    items, meta = await walk(client, key, "/v1/matches", 200, series=t["series"], year=t["year"], round="SF")
    expected = sql(
        db_url,
        "SELECT count(*) AS n FROM matches m JOIN tournaments t ON t.id = m.tournament_id "
        "WHERE t.series = $1 AND t.year = $2 AND m.round_code = 'SF'",
        t["series"],
        t["year"],
    )[0]["n"]
    assert meta["total"] == len(items) == expected > 0
    assert {m["tournament"]["year"] for m in items} == {t["year"]}
    series_only = await client.get("/v1/matches", key, series=t["series"], per_page=1)
    assert series_only.json_body["meta"]["total"] >= meta["total"]


async def test_one_match_is_the_list_item(client, key):
    item = (await client.get("/v1/matches", key, per_page=1, round="F")).json_body["data"][0]
    one = await client.get(f"/v1/matches/{item['id']}", key)
    assert one.status_code == 200 and one.json_body["data"] == item
    event = await client.get(f"/v1/events/{item['event']}", key)
    assert event.json_body["data"]["match"] == item["id"]
