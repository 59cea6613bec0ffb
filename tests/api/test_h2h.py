"""/v1/h2h on the tiny world: every match on opposite sides, singles and doubles, mirrored."""

from __future__ import annotations

import pytest

from tests.support import make_key, sql

UNKNOWN = "pl_zzzzzzzzzzzz"


@pytest.fixture
def key(db_url):
    return make_key(db_url, "live")


def rivals(db_url, doubles: bool):
    """The two players who met most often on opposite sides (in doubles, or in singles)."""
    return sql(
        db_url,
        """
        SELECT a, b, count(*) AS n FROM matches m, unnest(m.side1) a, unnest(m.side2) b
        WHERE m.status = 'finished' AND (cardinality(m.side1) = 2) = $1
        GROUP BY a, b ORDER BY count(*) DESC, a, b LIMIT 1""",
        doubles,
    )[0]


def sides(match: dict) -> tuple[set[str], set[str]]:
    return ({p["id"] for p in match["side1"]["players"]}, {p["id"] for p in match["side2"]["players"]})


@pytest.mark.parametrize("doubles", [False, True])
async def test_h2h_lists_every_meeting_and_mirrors(client, db_url, key, doubles):
    pair = rivals(db_url, doubles)
    a, b = pair["a"], pair["b"]
    ab = await client.get("/v1/h2h", key, player1=a, player2=b)
    ba = await client.get("/v1/h2h", key, player1=b, player2=a)
    assert ab.status_code == ba.status_code == 200
    x, y = ab.json_body["data"], ba.json_body["data"]
    assert x["player1"]["id"] == a and x["player2"]["id"] == b
    assert (x["player1"]["wins"], x["player2"]["wins"]) == (y["player2"]["wins"], y["player1"]["wins"])
    assert x["meetings"] == y["meetings"] == len(x["matches"]) == len(y["matches"])
    for m_ab, m_ba in zip(x["matches"], y["matches"]):  # the same meetings, each told from the other side
        assert m_ab["id"] == m_ba["id"]
        assert (m_ab["side1"], m_ab["side2"]) == (m_ba["side2"], m_ba["side1"])
        assert m_ab["games"] == [[b2, a2] for a2, b2 in m_ba["games"]]
        assert m_ab["winner"] == 3 - m_ba["winner"]
    assert x["player1"]["wins"] + x["player2"]["wins"] == x["meetings"]
    expected = sql(
        db_url,
        """SELECT id FROM matches WHERE status = 'finished'
                              AND (($1 = ANY(side1) AND $2 = ANY(side2)) OR ($2 = ANY(side1) AND $1 = ANY(side2)))""",
        a,
        b,
    )
    assert {m["id"] for m in x["matches"]} == {r["id"] for r in expected} and len(expected) >= pair["n"]
    wins_a = 0
    for m in x["matches"]:
        s1, s2 = sides(m)
        assert a in s1 and b in s2  # told from player1's side
        wins_a += m["winner"] == 1
    assert wins_a == x["player1"]["wins"]
    days = [m["date"] for m in x["matches"] if m["date"]]
    assert days == sorted(days, reverse=True)


async def test_h2h_across_disciplines(client, db_url, key):
    # Two players who met both in singles and in doubles, if the world has such a pair: both are listed.
    rows = sql(
        db_url,
        """
        SELECT a, b FROM matches m, unnest(m.side1) a, unnest(m.side2) b WHERE m.status = 'finished'
        GROUP BY a, b HAVING count(DISTINCT cardinality(m.side1)) = 2 ORDER BY a, b LIMIT 1""",
    )
    if not rows:
        pytest.skip("no pair met in both singles and doubles in this world")
    h = (await client.get("/v1/h2h", key, player1=rows[0]["a"], player2=rows[0]["b"])).json_body["data"]
    assert {len(m["side1"]["players"]) for m in h["matches"]} == {1, 2}


async def test_h2h_of_players_who_never_met(client, db_url, key):
    pair = sql(
        db_url,
        """
        SELECT a.id AS a, b.id AS b FROM players a, players b WHERE a.id < b.id AND NOT EXISTS (
            SELECT 1 FROM matches m
            WHERE (a.id = ANY(m.side1) AND b.id = ANY(m.side2)) OR (b.id = ANY(m.side1) AND a.id = ANY(m.side2)))
        ORDER BY a.id, b.id LIMIT 1""",
    )[0]
    r = await client.get("/v1/h2h", key, player1=pair["a"], player2=pair["b"])
    assert r.status_code == 200
    d = r.json_body["data"]
    assert (d["meetings"], d["matches"], d["player1"]["wins"], d["player2"]["wins"]) == (0, [], 0, 0)


async def test_h2h_needs_two_known_different_players_and_the_archive_plan(client, db_url, key):
    pair = rivals(db_url, False)
    a, b = pair["a"], pair["b"]
    free = await client.get("/v1/h2h", make_key(db_url, "free"), player1=a, player2=b)
    assert free.status_code == 403 and free.json_body["error"]["plan"] == "archive"
    missing = await client.get("/v1/h2h", key, player1=a)
    assert missing.status_code == 400 and "`player2`" in missing.json_body["error"]["message"]
    wrong = await client.get("/v1/h2h", key, player1=a, player2="tr_abcdef")
    assert wrong.status_code == 400 and "`player2`" in wrong.json_body["error"]["message"]
    same = await client.get("/v1/h2h", key, player1=a, player2=a)
    assert same.status_code == 422 and "`player2`" in same.json_body["error"]["message"]
    for p1, p2, name in ((UNKNOWN, b, "player1"), (a, UNKNOWN, "player2")):
        r = await client.get("/v1/h2h", key, player1=p1, player2=p2)
        assert r.status_code == 404 and name in r.json_body["error"]["message"]
    extra = await client.get("/v1/h2h", key, player1=a, player2=b, discipline="MS")
    assert extra.status_code == 400 and "`discipline`" in extra.json_body["error"]["message"]


async def test_h2h_prices_follow_the_plan(client, db_url):
    pair = sql(
        db_url,
        """
        SELECT m.side1[1] AS a, m.side2[1] AS b FROM matches m
        WHERE m.status = 'finished' AND EXISTS (SELECT 1 FROM odds o WHERE o.match_id = m.id AND o.market = 'winner')
        ORDER BY m.id LIMIT 1""",
    )[0]
    archive = await client.get("/v1/h2h", make_key(db_url, "archive"), player1=pair["a"], player2=pair["b"])
    odds = await client.get("/v1/h2h", make_key(db_url, "odds"), player1=pair["a"], player2=pair["b"])
    assert all(m["odds"] is None for m in archive.json_body["data"]["matches"])
    assert any(m["odds"] for m in odds.json_body["data"]["matches"])
