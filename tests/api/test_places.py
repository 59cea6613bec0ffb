"""Archive places on the tiny world: /v1/countries/{code}, /v1/venues, /v1/venues/{id}, /v1/locations."""

from __future__ import annotations

import pytest

from tests.support import NOON, sql, walk

TODAY = NOON.date()
STARTED = "(t.start_date IS NULL OR t.start_date <= $1)"  # editions staged so far


@pytest.fixture(scope="module")
def key(plan_keys):
    return plan_keys["archive"]


@pytest.fixture(scope="module")
def busiest_country(db_url):
    """The country with most titles that also staged editions."""
    return sql(
        db_url,
        f"""
        SELECT cs.code FROM country_stats cs
        WHERE EXISTS (SELECT 1 FROM tournaments t JOIN cities c ON c.id = t.city_id
                      WHERE c.country = cs.code AND {STARTED})
        ORDER BY cs.titles DESC, cs.code LIMIT 1""",
        TODAY,
    )[0]["code"]


# -- plans and bad input ----------------------------------------------------------------
@pytest.mark.parametrize("path", ["/v1/countries/ENG", "/v1/venues", "/v1/locations", "/v1/venues/vn_x"])
async def test_a_free_key_is_asked_to_upgrade_to_archive(client, plan_keys, path):
    r = await client.get(path, plan_keys["free"])
    assert r.status_code == 403
    assert r.json_body["error"]["code"] == "upgrade_required" and r.json_body["error"]["plan"] == "archive"


async def test_unknown_and_malformed_ids(client, key):
    assert (await client.get("/v1/countries/XYZ", key)).status_code == 404
    bad = await client.get("/v1/countries/EN1", key)
    assert bad.status_code == 400 and "code" in bad.json_body["error"]["message"]
    assert (await client.get("/v1/venues/vn_nosuchhall", key)).status_code == 404
    wrong = await client.get("/v1/venues/tr_abc", key)
    assert wrong.status_code == 400 and "id" in wrong.json_body["error"]["message"]
    for path in ("/v1/venues", "/v1/locations"):
        r = await client.get(path, key, country="XYZ")
        assert r.status_code == 422 and "country" in r.json_body["error"]["message"]
        r = await client.get(path, key, country="E")
        assert r.status_code == 400 and "country" in r.json_body["error"]["message"]
        r = await client.get(path, key, per_page=201)
        assert r.status_code == 422 and "per_page" in r.json_body["error"]["message"]
        r = await client.get(path, key, colour="red")
        assert r.status_code == 400 and "colour" in r.json_body["error"]["message"]


# -- /v1/countries/{code} ---------------------------------------------------------------
async def test_country_profile_agrees_with_the_country_list(client, key, busiest_country):
    listed = {c["code"]: c for c in (await client.get("/v1/countries", key)).json_body["data"]}[busiest_country]
    r = await client.get(f"/v1/countries/{busiest_country.lower()}", key)  # capitals do not matter
    assert r.status_code == 200
    c = r.json_body["data"]
    assert set(c) >= {
        "code",
        "name",
        "players",
        "active_players",
        "titles",
        "titles_by_discipline",
        "top_players",
        "recent_titles",
        "hosted",
    }
    for field in ("code", "name", "players", "active_players", "titles", "titles_by_discipline"):
        assert c[field] == listed[field], field
    assert c["titles"] > 0
    assert len(c["recent_titles"]) == min(10, c["titles"])


async def test_country_recent_titles_are_finals_won_by_its_players(client, key, busiest_country):
    c = (await client.get(f"/v1/countries/{busiest_country}", key)).json_body["data"]
    dates = [t["date"] for t in c["recent_titles"] if t["date"]]
    assert dates == sorted(dates, reverse=True)
    for t in c["recent_titles"]:
        m = (await client.get(f"/v1/matches/{t['match']}", key)).json_body["data"]
        assert m["round_code"] == "F" and m["status"] == "finished"
        won = m[f"side{m['winner']}"]["players"]
        assert won == t["players"]
        assert busiest_country in {p["country"] for p in won}
        assert m["tournament"] == t["tournament"] and m["discipline"] == t["discipline"]


async def test_country_top_players_are_its_own_best_first(client, key, db_url, busiest_country):
    top = (await client.get(f"/v1/countries/{busiest_country}", key)).json_body["data"]["top_players"]
    assert 0 < len(top) <= 10
    order = [(p["titles"], p["wins"]) for p in top]
    assert order == sorted(order, reverse=True)
    countries = sql(db_url, "SELECT DISTINCT country FROM players WHERE id = ANY($1)", [p["id"] for p in top])
    assert [r["country"] for r in countries] == [busiest_country]
    for p in top:
        assert 0 <= p["wins"] <= p["matches"] and p["first_year"] <= p["last_year"]


async def test_country_hosted_lists_every_edition_staged_there(client, key, db_url, busiest_country):
    hosted = (await client.get(f"/v1/countries/{busiest_country}", key)).json_body["data"]["hosted"]
    expected = sql(
        db_url,
        f"SELECT t.id FROM tournaments t JOIN cities c ON c.id = t.city_id WHERE c.country = $2 AND {STARTED}",
        TODAY,
        busiest_country,
    )
    assert sorted(h["id"] for h in hosted) == sorted(r["id"] for r in expected)
    years = [h["year"] for h in hosted]
    assert years == sorted(years, reverse=True)


# -- /v1/venues, /v1/venues/{id} ---------------------------------------------------------
async def test_venues_walk_every_hall_once_most_editions_first(client, key, db_url):
    items, meta = await walk(client, key, "/v1/venues", 7)
    ids = [v["id"] for v in items]
    assert len(ids) == len(set(ids)) == meta["total"] > 0
    editions = [v["editions"] for v in items]
    assert editions == sorted(editions, reverse=True) and min(editions) >= 1
    staged = sql(db_url, f"SELECT count(*) AS n FROM tournaments t WHERE t.venue_id IS NOT NULL AND {STARTED}", TODAY)
    assert sum(editions) == staged[0]["n"]
    for v in items:
        assert set(v) == {"id", "name", "city", "country", "elevation_m", "editions", "first_year", "last_year"}
        assert v["first_year"] <= v["last_year"]


async def test_venue_elevation_is_its_own_else_its_citys(client, key, db_url):
    rows = sql(
        db_url,
        "SELECT v.id, v.elevation_m AS own, c.elevation_m AS city FROM venues v "
        "JOIN cities c ON c.id = v.city_id JOIN tournaments t ON t.venue_id = v.id "
        "WHERE t.start_date <= $1",
        TODAY,
    )
    own = next(r for r in rows if r["own"] is not None)
    borrowed = next(r for r in rows if r["own"] is None and r["city"] is not None)
    assert (await client.get(f"/v1/venues/{own['id']}", key)).json_body["data"]["elevation_m"] == own["own"]
    assert (await client.get(f"/v1/venues/{borrowed['id']}", key)).json_body["data"]["elevation_m"] == borrowed["city"]


async def test_venue_filters(client, key, db_url):
    hall = sql(
        db_url,
        "SELECT v.name, c.name AS city, c.country FROM venues v JOIN cities c ON c.id = v.city_id "
        "JOIN tournaments t ON t.venue_id = v.id WHERE t.start_date <= $1 ORDER BY v.id LIMIT 1",
        TODAY,
    )[0]
    word = hall["name"].split()[0]
    found = (await client.get("/v1/venues", key, q=word.upper(), per_page=200)).json_body["data"]
    assert hall["name"] in [v["name"] for v in found]
    assert all(word.lower() in v["name"].lower() for v in found)
    in_city = (await client.get("/v1/venues", key, city=hall["city"].lower(), per_page=200)).json_body["data"]
    assert in_city and {v["city"] for v in in_city} == {hall["city"]}
    in_country = (await client.get("/v1/venues", key, country=hall["country"], per_page=200)).json_body["data"]
    assert {v["country"] for v in in_country} == {hall["country"]}
    none = await client.get("/v1/venues", key, q="zzqqxxjj")
    assert none.status_code == 200 and none.json_body["data"] == [] and none.json_body["meta"]["total"] == 0


async def test_venue_profile_agrees_with_the_list(client, key):
    first = (await client.get("/v1/venues", key, per_page=1)).json_body["data"][0]
    r = await client.get(f"/v1/venues/{first['id']}", key)
    assert r.status_code == 200
    v = r.json_body["data"]
    assert {k: v[k] for k in first} == first
    assert len(v["tournaments"]) == v["editions"]
    years = [t["year"] for t in v["tournaments"]]
    assert years == sorted(years, reverse=True) and years[0] == v["last_year"] and years[-1] == v["first_year"]


# -- /v1/locations -------------------------------------------------------------------------
async def test_locations_walk_every_city_once_with_halls_and_years(client, key, db_url):
    items, meta = await walk(client, key, "/v1/locations", 5)
    assert len({(c["city"], c["country"]) for c in items}) == len(items) == meta["total"] > 0
    editions = [c["editions"] for c in items]
    assert editions == sorted(editions, reverse=True)
    staged = sql(db_url, f"SELECT count(*) AS n FROM tournaments t WHERE t.city_id IS NOT NULL AND {STARTED}", TODAY)
    assert sum(editions) == staged[0]["n"]
    venues = {v["id"]: v for v in (await walk(client, key, "/v1/venues", 200))[0]}
    for c in items:
        assert c["years"] == sorted(set(c["years"])) and c["years"][0] == c["first_year"]
        assert len(c["years"]) <= c["editions"]
        assert sum(h["editions"] for h in c["venues"]) <= c["editions"]
        for h in c["venues"]:
            assert venues[h["id"]]["city"] == c["city"]


async def test_locations_filters(client, key):
    first = (await client.get("/v1/locations", key, per_page=1)).json_body["data"][0]
    part = first["city"][1:4]
    found = (await client.get("/v1/locations", key, q=part.upper(), per_page=200)).json_body["data"]
    assert first["city"] in [c["city"] for c in found]
    assert all(part.lower() in c["city"].lower() for c in found)
    same = (await client.get("/v1/locations", key, country=first["country"], per_page=200)).json_body["data"]
    assert first in same and {c["country"] for c in same} == {first["country"]}
