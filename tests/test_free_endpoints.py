"""The nine Free-plan endpoints on the tiny world: fields, order, filters, cursors."""

from __future__ import annotations

import datetime as dt

import pytest

from conftest import NOON, make_key, sql, walk

TODAY = NOON.date()
YESTERDAY = TODAY - dt.timedelta(days=1)
EVENT_FIELDS = {"id", "tournament", "discipline", "sport_class", "team_event", "round_code", "start", "status",
                "side1", "side2", "sets", "games", "winner", "outcome", "match", "odds", "duration_min"}


@pytest.fixture(scope="module")
def free(db_url):
    return make_key(db_url, "live")  # a Live key: every Free endpoint, and room for many calls


@pytest.fixture(scope="module")
def free_only(db_url):
    return make_key(db_url, "free")




# -- search -------------------------------------------------------------------------
async def test_search_ignores_accents_and_capitals(client, free, db_url):
    row = sql(db_url, "SELECT id, name FROM players WHERE name <> unaccent(name) ORDER BY id LIMIT 1")[0]
    plain = sql(db_url, "SELECT unaccent($1) AS n", row["name"])[0]["n"]
    for q in (plain.lower(), plain.upper(), row["name"]):
        r = await client.get("/v1/search", free, q=q, kind="player")
        assert r.status_code == 200
        assert row["id"] in [h["id"] for h in r.json_body["data"]], q


async def test_search_pair_finds_both_players_with_limit_per_player(client, free, db_url):
    pair = sql(db_url, "SELECT p1.id AS a, p1.name AS an, p2.id AS b, p2.name AS bn FROM matches m "
                       "JOIN players p1 ON p1.id = m.side1[1] JOIN players p2 ON p2.id = m.side1[2] "
                       "WHERE m.discipline = 'MD' ORDER BY m.id LIMIT 1")[0]
    r = await client.get("/v1/search", free, q=f"{pair['an']}/{pair['bn']}", limit=1)
    hits = r.json_body["data"]
    assert [h["id"] for h in hits] == [pair["a"], pair["b"]]
    assert all(h["kind"] == "player" for h in hits)
    more = await client.get("/v1/search", free, q=f"{pair['an']}/{pair['bn']}", limit=3)
    assert len(more.json_body["data"]) <= 6


async def test_search_year_selects_that_edition(client, free, db_url):
    t = sql(db_url, "SELECT t.id, s.name, t.year FROM tournaments t JOIN series s ON s.slug = t.series "
                    "WHERE t.series = 'all-england' ORDER BY t.year LIMIT 1 OFFSET 1")[0]
    r = await client.get("/v1/search", free, q=f"{t['name']} {t['year']}")
    hits = r.json_body["data"]
    assert hits[0]["id"] == t["id"] and hits[0]["kind"] == "tournament"
    others = [h for h in hits if h["kind"] == "tournament"]
    years = {y for (y,) in (sql(db_url, "SELECT year FROM tournaments WHERE id = $1", h["id"])[0].values() for h in others)}
    assert years == {t["year"]}


async def test_search_hits_are_scored_30_to_100_best_first(client, free):
    r = await client.get("/v1/search", free, q="open", limit=50)
    scores = [h["score"] for h in r.json_body["data"]]
    assert scores and all(30 <= s <= 100 for s in scores)
    assert scores == sorted(scores, reverse=True)
    assert all(set(h) == {"kind", "id", "name", "country", "score"} for h in r.json_body["data"])
    venues = await client.get("/v1/search", free, q="arena", kind="venue")
    assert venues.json_body["data"] and all(h["kind"] == "venue" and h["id"].startswith("vn_")
                                            for h in venues.json_body["data"])
    year_only = (await client.get("/v1/search", free, q=str(TODAY.year))).json_body["data"]
    assert year_only and all(h["kind"] == "tournament" and str(TODAY.year) in h["name"] for h in year_only)
    nothing = await client.get("/v1/search", free, q="zzqqxxjj")
    assert nothing.status_code == 200 and nothing.json_body["data"] == []


# -- countries, series, calendar ------------------------------------------------------
async def test_countries_list_titles_agree_with_finals(client, free, db_url):
    r = await client.get("/v1/countries", free)
    rows = r.json_body["data"]
    assert rows and all(len(c["code"]) == 3 for c in rows)
    for c in rows:
        assert c["titles"] == sum(c["titles_by_discipline"].values())
        assert set(c["titles_by_discipline"]) == {"MS", "WS", "MD", "WD", "XD"}
        assert 0 <= c["active_players"] <= c["players"]
    finals = sql(db_url, "SELECT count(*) AS n FROM matches m JOIN tournaments t ON t.id = m.tournament_id "
                         "WHERE m.round_code = 'F' AND NOT t.team AND m.winner IS NOT NULL")[0]["n"]
    assert finals > 0
    assert sum(c["titles"] for c in rows) >= finals  # every final won counts for at least one nation


async def test_series_list(client, free):
    rows = (await client.get("/v1/series", free)).json_body["data"]
    by_slug = {s["series"]: s for s in rows}
    assert by_slug["all-england"]["first_year"] == 1899
    for s in rows:
        assert set(s) >= {"series", "name", "level", "first_year", "last_year", "editions"}
        assert s["level"] in ("senior", "junior")
        assert s["last_year"] is None or s["first_year"] <= s["last_year"]


async def test_calendar_in_date_order_with_status(client, free):
    r = await client.get("/v1/calendar", free)
    assert r.json_body["meta"]["year"] == TODAY.year
    rows = r.json_body["data"]
    starts = [e["start"] for e in rows if e["start"]]
    assert starts == sorted(starts)
    for e in rows:
        start = e["start"] and dt.date.fromisoformat(e["start"])
        end = e["end"] and dt.date.fromisoformat(e["end"])
        expected = ("unknown" if not start else "upcoming" if start > TODAY
                    else "finished" if (end or start) < TODAY else "in_progress")
        assert e["status"] == expected
    assert "in_progress" in {e["status"] for e in rows}
    assert "upcoming" in {e["status"] for e in (await client.get("/v1/calendar", free, year=TODAY.year + 1)).json_body["data"]}
    para = (await client.get("/v1/calendar", free, level="para", year=2024)).json_body["data"]
    assert para and all(e["series"].startswith("para") or e["series"] == "paralympic-games" for e in para)
    one = (await client.get("/v1/calendar", free, series="all-england", year=TODAY.year)).json_body["data"]
    assert all(e["series"] == "all-england" for e in one)


# -- the results feed -----------------------------------------------------------------
async def test_results_yesterday_carry_closing_prices_on_a_free_key(client, free_only, db_url):
    r = await client.get("/v1/results/yesterday", free_only)
    events = r.json_body["data"]
    assert r.json_body["meta"]["date"] == YESTERDAY.isoformat()
    assert events, "the tiny world has matches finished yesterday"
    priced = sql(db_url, "SELECT DISTINCT m.event_id FROM matches m JOIN odds o ON o.match_id = m.id "
                         "WHERE m.day = $1 AND m.status = 'finished'", YESTERDAY)
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


async def test_results_cursor_walk_returns_every_item_once(client, free, db_url):
    items, meta = await walk(client, free, "/v1/results", 3, date=YESTERDAY.isoformat())
    ids = [e["id"] for e in items]
    assert len(ids) == len(set(ids)) == meta["total"]
    last = await client.get("/v1/results", free, date=YESTERDAY.isoformat(), per_page=meta["per_page"], page=meta["pages"])
    assert last.json_body["meta"]["next_cursor"] == ""
    expected = sql(db_url, "SELECT count(*) AS n FROM matches WHERE status = 'finished' AND day = $1", YESTERDAY)
    assert meta["total"] == expected[0]["n"]
    by_page = []
    for page in range(1, meta["pages"] + 1):
        by_page += [e["id"] for e in (await client.get("/v1/results", free, date=YESTERDAY.isoformat(), per_page=meta["per_page"],
                                                       page=page)).json_body["data"]]
    assert by_page == ids
    past = await client.get("/v1/results", free, date=YESTERDAY.isoformat(), per_page=meta["per_page"], page=meta["pages"] + 1)
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
    priced = sql(db_url, "SELECT count(*) AS n FROM odds o JOIN matches m ON m.id = o.match_id "
                         "WHERE m.event_id = $1 AND o.market = 'winner'", fixture["id"])[0]["n"]
    assert (with_odds["odds"] is not None) == (priced > 0)
    if priced:
        assert with_odds["odds"]["bookmakers"] == priced
        assert abs(sum(with_odds["odds"]["market_chance"]) - 1) < 0.001
