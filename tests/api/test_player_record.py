"""A player's record with others on the tiny world: titles, partners, opponents and form, each
checked against the match rows (SQL) or against another endpoint (stats, head-to-head, the
player's matches)."""

from __future__ import annotations

import pytest

from tests.api.player_history_support import own_games, side_of
from tests.support import sql, walk


@pytest.fixture(scope="module")
def doubles_player(db_url):
    """The player with the most distinct doubles partners."""
    return sql(
        db_url,
        """
        SELECT p, count(DISTINCT q) FROM matches m,
             LATERAL (SELECT s.side[1] AS p, s.side[2] AS q FROM (VALUES (m.side1), (m.side2)) s(side)
                      UNION ALL SELECT s.side[2], s.side[1] FROM (VALUES (m.side1), (m.side2)) s(side)) x
        WHERE m.status = 'finished' AND cardinality(m.side1) = 2
        GROUP BY p ORDER BY 2 DESC, p LIMIT 1""",
    )[0]["p"]


# -- titles -----------------------------------------------------------------------------
async def test_titles_equal_the_finals_won_in_the_draws(client, db_url, key):
    finalists = sql(
        db_url,
        """
        SELECT p, count(*) FILTER (WHERE won) AS titles FROM (
            SELECT unnest(CASE m.winner WHEN 1 THEN m.side1 ELSE m.side2 END) AS p, true AS won
            FROM matches m JOIN tournaments t ON t.id = m.tournament_id
            WHERE m.round_code = 'F' AND NOT t.team AND m.status = 'finished') x
        GROUP BY p ORDER BY 2 DESC, p LIMIT 4""",
    )
    for f in finalists:
        p = f["p"]
        finals = sql(
            db_url,
            """
            SELECT m.id, (m.winner = 1) = ($1 = ANY(m.side1)) AS won FROM matches m
              JOIN tournaments t ON t.id = m.tournament_id
            WHERE m.round_code = 'F' AND NOT t.team AND m.status = 'finished' AND $1 = ANY(m.side1 || m.side2)""",
            p,
        )
        r = await client.get(f"/v1/players/{p}/titles", key)
        rows = r.json_body["data"]
        assert {t["match"] for t in rows} == {f["id"] for f in finals}
        assert {t["match"] for t in rows if t["result"] == "W"} == {f["id"] for f in finals if f["won"]}
        meta = r.json_body["meta"]
        assert meta["titles"] == f["titles"] == sum(d["titles"] for d in meta["by_discipline"].values())
        assert meta["finals"] == len(rows) == sum(d["finals"] for d in meta["by_discipline"].values())
        years = [t["tournament"]["year"] for t in rows]
        assert years == sorted(years, reverse=True)


async def test_title_rows_are_from_the_players_side(client, db_url, key):
    p = sql(
        db_url,
        """SELECT unnest(m.side2) AS p FROM matches m JOIN tournaments t ON t.id = m.tournament_id
                       WHERE m.round_code = 'F' AND NOT t.team AND m.status = 'finished' AND cardinality(m.side2) = 2
                       ORDER BY m.id LIMIT 1""",
    )[0]["p"]
    rows = (await client.get(f"/v1/players/{p}/titles", key)).json_body["data"]
    assert rows
    by_id = {m["id"]: m for m in (await walk(client, key, f"/v1/players/{p}/matches", 200))[0]}
    for t in rows:
        m = by_id[t["match"]]
        side = side_of(m, p)
        assert t["games"] == own_games(m, side)
        assert t["result"] == ("W" if m["winner"] == side else "L")
        mates = [x["id"] for x in m[f"side{side}"]["players"] if x["id"] != p]
        assert (t["partner"]["id"] if t["partner"] else None) == (mates[0] if mates else None)
        assert [o["id"] for o in t["opponents"]] == [x["id"] for x in m[f"side{3 - side}"]["players"]]
        assert t["level"] in ("senior", "junior")
    only = (await client.get(f"/v1/players/{p}/titles", key, discipline=rows[0]["discipline"])).json_body
    assert {t["discipline"] for t in only["data"]} == {rows[0]["discipline"]}
    assert list(only["meta"]["by_discipline"]) == [rows[0]["discipline"]]


# -- partners ---------------------------------------------------------------------------
async def test_partners_agree_with_stats_and_titles(client, doubles_player, key):
    rows = (await client.get(f"/v1/players/{doubles_player}/partners", key)).json_body["data"]
    assert [r["matches"] for r in rows] == sorted((r["matches"] for r in rows), reverse=True)
    stats = (await client.get(f"/v1/players/{doubles_player}/stats", key)).json_body["data"][0]
    titles = (await client.get(f"/v1/players/{doubles_player}/titles", key)).json_body["data"]
    for d, figures in stats["by_discipline"].items():
        mine = [r for r in rows if r["discipline"] == d]
        assert sum(r["matches"] for r in mine) == figures["matches"]
        assert sum(r["wins"] for r in mine) == figures["wins"]
        assert sum(r["titles"] for r in mine) == sum(1 for t in titles if t["discipline"] == d and t["result"] == "W")
    for r in rows:
        assert (r["partner"] is None) == (r["discipline"] in ("MS", "WS"))
        assert r["first_year"] <= r["last_year"] and r["wins"] <= r["matches"]
    with_partner = [r for r in rows if r["partner"]]
    assert len({(r["partner"]["id"], r["discipline"]) for r in with_partner}) == len(with_partner)
    d = rows[0]["discipline"]
    only = (await client.get(f"/v1/players/{doubles_player}/partners", key, discipline=d)).json_body["data"]
    assert only == [r for r in rows if r["discipline"] == d]


# -- opponents and form ----------------------------------------------------------------
async def test_opponents_agree_with_head_to_head(client, busiest, key):
    rows = (await client.get(f"/v1/players/{busiest}/opponents", key, limit=100)).json_body["data"]
    assert rows and [r["meetings"] for r in rows] == sorted((r["meetings"] for r in rows), reverse=True)
    for r in rows[:5]:
        h = (await client.get("/v1/h2h", key, player1=busiest, player2=r["opponent"]["id"])).json_body["data"]
        assert (r["meetings"], r["wins"], r["losses"]) == (h["meetings"], h["player1"]["wins"], h["player2"]["wins"])
        newest = h["matches"][0]
        assert r["last"]["match"] == newest["id"]
        side = side_of(newest, busiest)
        assert r["last"]["games"] == own_games(newest, side)
        assert r["last"]["result"] == ("W" if newest["winner"] == side else "L")
    d = rows[0]["last"]["discipline"]
    per = (await client.get(f"/v1/players/{busiest}/opponents", key, discipline=d, limit=100)).json_body["data"]
    assert all(r["last"]["discipline"] == d for r in per)
    assert sum(r["meetings"] for r in per) <= sum(r["meetings"] for r in rows)


async def test_form_is_the_latest_results_from_the_players_side(client, busiest, key):
    matches = (await walk(client, key, f"/v1/players/{busiest}/matches", 200))[0]
    done = [m for m in matches if m["status"] == "finished"]
    r = await client.get(f"/v1/players/{busiest}/form", key, last=12)
    rows = r.json_body["data"]
    assert [f["match"] for f in rows] == [m["id"] for m in done[:12]]
    for f, m in zip(rows, done):
        side = side_of(m, busiest)
        assert f["games"] == own_games(m, side)
        assert f["result"] == ("W" if m["winner"] == side else "L")
        assert f["outcome"] == m["outcome"] and f["round"] == m["round"] and f["date"] == m["date"]
        assert [o["id"] for o in f["opponents"]] == [x["id"] for x in m[f"side{3 - side}"]["players"]]
    all_results = ["W" if m["winner"] == side_of(m, busiest) else "L" for m in done]
    run = next((i for i, x in enumerate(all_results) if x != all_results[0]), len(all_results))
    meta = r.json_body["meta"]
    assert meta["current_run"] == {"result": all_results[0], "length": run}
    wins = sum(f["result"] == "W" for f in rows)
    assert meta["record"] == {"wins": wins, "losses": len(rows) - wins}
