"""/v1/search on the tiny world: accents and capitals, pairs, years, scores."""

from __future__ import annotations

from tests.support import NOON, sql

TODAY = NOON.date()


async def test_search_ignores_accents_and_capitals(client, free, db_url):
    row = sql(db_url, "SELECT id, name FROM players WHERE name <> unaccent(name) ORDER BY id LIMIT 1")[0]
    plain = sql(db_url, "SELECT unaccent($1) AS n", row["name"])[0]["n"]
    for q in (plain.lower(), plain.upper(), row["name"]):
        r = await client.get("/v1/search", free, q=q, kind="player")
        assert r.status_code == 200
        assert row["id"] in [h["id"] for h in r.json_body["data"]], q


async def test_search_pair_finds_both_players_with_limit_per_player(client, free, db_url):
    pair = sql(
        db_url,
        "SELECT p1.id AS a, p1.name AS an, p2.id AS b, p2.name AS bn FROM matches m "
        "JOIN players p1 ON p1.id = m.side1[1] JOIN players p2 ON p2.id = m.side1[2] "
        "WHERE m.discipline = 'MD' ORDER BY m.id LIMIT 1",
    )[0]
    r = await client.get("/v1/search", free, q=f"{pair['an']}/{pair['bn']}", limit=1)
    hits = r.json_body["data"]
    assert [h["id"] for h in hits] == [pair["a"], pair["b"]]
    assert all(h["kind"] == "player" for h in hits)
    more = await client.get("/v1/search", free, q=f"{pair['an']}/{pair['bn']}", limit=3)
    assert len(more.json_body["data"]) <= 6


async def test_search_year_selects_that_edition(client, free, db_url):
    t = sql(
        db_url,
        "SELECT t.id, s.name, t.year FROM tournaments t JOIN series s ON s.slug = t.series "
        "WHERE t.series = 'all-england' ORDER BY t.year LIMIT 1 OFFSET 1",
    )[0]
    r = await client.get("/v1/search", free, q=f"{t['name']} {t['year']}")
    hits = r.json_body["data"]
    assert hits[0]["id"] == t["id"] and hits[0]["kind"] == "tournament"
    others = [h for h in hits if h["kind"] == "tournament"]
    years = {
        y for (y,) in (sql(db_url, "SELECT year FROM tournaments WHERE id = $1", h["id"])[0].values() for h in others)
    }
    assert years == {t["year"]}


async def test_search_hits_are_scored_30_to_100_best_first(client, free):
    r = await client.get("/v1/search", free, q="open", limit=50)
    scores = [h["score"] for h in r.json_body["data"]]
    assert scores and all(30 <= s <= 100 for s in scores)
    assert scores == sorted(scores, reverse=True)
    assert all(set(h) == {"kind", "id", "name", "country", "score"} for h in r.json_body["data"])
    venues = await client.get("/v1/search", free, q="arena", kind="venue")
    assert venues.json_body["data"] and all(
        h["kind"] == "venue" and h["id"].startswith("vn_") for h in venues.json_body["data"]
    )
    year_only = (await client.get("/v1/search", free, q=str(TODAY.year))).json_body["data"]
    assert year_only and all(h["kind"] == "tournament" and str(TODAY.year) in h["name"] for h in year_only)
    nothing = await client.get("/v1/search", free, q="zzqqxxjj")
    assert nothing.status_code == 200 and nothing.json_body["data"] == []
