"""The player sub-resources on the tiny world (matches, partners, opponents, titles, form, stats
and schedule), what they share: the Archive plan, ids, parameters and bounds; and the player's
matches, walked, filtered and told from the player's side. Each checked against the match rows
(SQL) or against another endpoint, never against numbers copied from a generated world. Stats:
test_player_stats; titles, partners, opponents and form: test_player_record; the schedule:
test_player_schedule."""

from __future__ import annotations

import pytest

from tests.api.player_history_support import side_of
from tests.support import make_key, sql, walk

UNKNOWN = "pl_zzzzzzzzzzzz"


SUB = ("matches", "partners", "opponents", "titles", "form", "stats", "schedule")


# -- access, ids and bounds -----------------------------------------------------------------
async def test_archive_plan_needed_and_unknown_player_is_404(client, db_url, busiest, key):
    free = make_key(db_url, "free")
    for sub in SUB:
        path = f"/v1/players/{busiest}/{sub}"
        refused = await client.get(path, free)
        assert refused.status_code == 403 and refused.json_body["error"]["plan"] == "archive", sub
        assert (await client.get(path, key)).status_code == 200, sub
        missing = await client.get(f"/v1/players/{UNKNOWN}/{sub}", key)
        assert missing.status_code == 404 and missing.json_body["error"]["code"] == "not_found", sub
        wrong = await client.get(f"/v1/players/tr_abc/{sub}", key)
        assert wrong.status_code == 400 and "`id`" in wrong.json_body["error"]["message"], sub


async def test_a_player_without_matches_has_empty_answers(client, db_url, key):
    # A player held (as from a ranking list) who has not played a draw match: added to this
    # module's own copy of the world, since the tiny world may have none.
    pid = "pl_c3idle2player"
    sql(
        db_url,
        """INSERT INTO players (id, name, slug, country, gender, strength)
                   VALUES ($1, 'Idle PLAYER', 'idle-player', NULL, 'W', 0) ON CONFLICT DO NOTHING""",
        pid,
    )
    for sub in SUB:
        r = await client.get(f"/v1/players/{pid}/{sub}", key)
        assert r.status_code == 200, sub
        if sub == "stats":
            [s] = r.json_body["data"]
            assert s["matches"] == 0 and s["win_rate"] is None and s["by_discipline"] == {}
        else:
            assert r.json_body["data"] == [], sub
    assert (await client.get(f"/v1/players/{pid}/matches", key)).json_body["meta"]["total"] == 0
    assert (await client.get(f"/v1/players/{pid}/form", key)).json_body["meta"]["current_run"] is None


@pytest.mark.parametrize(
    "sub,params,name,status",
    [
        ("opponents", {"limit": 0}, "limit", 422),
        ("opponents", {"limit": 101}, "limit", 422),
        ("opponents", {"limit": "x"}, "limit", 400),
        ("form", {"last": 0}, "last", 422),
        ("form", {"last": 51}, "last", 422),
        ("schedule", {"last": 0}, "last", 422),
        ("schedule", {"last": 101}, "last", 422),
        ("schedule", {"date": "2026-02-30"}, "date", 400),
        ("schedule", {"date": "yesterday"}, "date", 400),
        ("matches", {"year": 1898}, "year", 422),
        ("matches", {"per_page": 201}, "per_page", 422),
        ("matches", {"discipline": "XX"}, "discipline", 422),
        ("partners", {"discipline": "MX"}, "discipline", 422),
        ("titles", {"discipline": "singles"}, "discipline", 422),
        ("stats", {"from_": 1800}, "from", 422),
        ("stats", {"from_": 2020, "to": 2010}, "from", 422),
        ("stats", {"to": "2020.5"}, "to", 400),
        ("titles", {"year": 2020}, "year", 400),
    ],
)
async def test_bad_parameters_name_the_parameter(client, busiest, key, sub, params, name, status):
    r = await client.get(f"/v1/players/{busiest}/{sub}", key, **params)
    assert r.status_code == status, r.json_body
    assert f"`{name}`" in r.json_body["error"]["message"]


async def test_refused_parameters_are_not_counted(client, busiest, key):
    first = await client.get(f"/v1/players/{busiest}/stats", key)
    before = int(first.headers["X-Quota-Remaining"])
    r = await client.get(f"/v1/players/{busiest}/stats", key, from_=2020, to=2010)
    assert r.status_code == 422
    assert int(r.headers["X-Quota-Remaining"]) == before


async def test_limits_are_applied(client, busiest, key):
    assert len((await client.get(f"/v1/players/{busiest}/opponents", key, limit=1)).json_body["data"]) == 1
    assert len((await client.get(f"/v1/players/{busiest}/form", key, last=2)).json_body["data"]) == 2
    assert len((await client.get(f"/v1/players/{busiest}/opponents", key)).json_body["data"]) <= 20
    assert len((await client.get(f"/v1/players/{busiest}/form", key)).json_body["data"]) == 10


# -- matches -----------------------------------------------------------------------------
async def test_matches_walk_returns_every_match_once_newest_first(client, db_url, busiest, key):
    items = (await walk(client, key, f"/v1/players/{busiest}/matches", 7))[0]
    ids = [m["id"] for m in items]
    expected = {r["id"] for r in sql(db_url, "SELECT id FROM matches WHERE $1 = ANY(side1 || side2)", busiest)}
    assert len(ids) == len(set(ids)) and set(ids) == expected
    dates = [m["date"] for m in items if m["date"]]
    assert dates == sorted(dates, reverse=True)
    for m in items:
        side_of(m, busiest)  # the player is on one side of every match


async def test_matches_filters(client, db_url, busiest, key):
    row = sql(
        db_url,
        """SELECT t.year, m.discipline, count(*) AS n FROM matches m JOIN tournaments t ON t.id = m.tournament_id
                         WHERE $1 = ANY(m.side1 || m.side2) GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1""",
        busiest,
    )[0]
    items = (
        await walk(client, key, f"/v1/players/{busiest}/matches", 50, year=row["year"], discipline=row["discipline"])
    )[0]
    assert len(items) == row["n"]
    assert {m["tournament"]["year"] for m in items} == {row["year"]}
    assert {m["discipline"] for m in items} == {row["discipline"]}
    past = await client.get(f"/v1/players/{busiest}/matches", key, page=99)
    assert past.status_code == 422 and "`page`" in past.json_body["error"]["message"]
    none = await client.get(f"/v1/players/{busiest}/matches", key, year=1899, discipline="XD")
    assert none.status_code == 200 and none.json_body["data"] == [] and none.json_body["meta"]["total"] == 0


async def test_cursor_is_tied_to_the_player_and_filters(client, db_url, busiest, key):
    r = await client.get(f"/v1/players/{busiest}/matches", key, per_page=2)
    cursor = r.json_body["meta"]["next_cursor"]
    someone_else = sql(
        db_url,
        "SELECT p FROM matches m, unnest(m.side1 || m.side2) AS p WHERE p <> $1 "
        "GROUP BY p ORDER BY count(*) DESC, p LIMIT 1",
        busiest,
    )[0]["p"]
    other = await client.get(f"/v1/players/{someone_else}/matches", key, per_page=2, cursor=cursor)
    assert other.status_code == 400 and "`cursor`" in other.json_body["error"]["message"]


async def test_player_matches_are_told_from_the_players_side(client, db_url, busiest, key):
    items = (await client.get(f"/v1/players/{busiest}/matches", key, per_page=200)).json_body["data"]
    assert all(busiest in [p["id"] for p in m["side1"]["players"]] for m in items)
    swapped = 0
    for m in items[:40]:  # each compared with /v1/matches/{id}, within the key's calls a minute
        draw = (await client.get(f"/v1/matches/{m['id']}", key)).json_body["data"]
        if busiest in [p["id"] for p in draw["side1"]["players"]]:
            assert m == draw
        else:  # the draw has the player on side 2: the same match, sides swapped
            swapped += 1
            assert (m["side1"], m["side2"]) == (draw["side2"], draw["side1"])
            assert m["winner"] == (3 - draw["winner"] if draw["winner"] else None)
            assert m["games"] == [[b, a] for a, b in draw["games"]]
    assert swapped, "the busiest player stood on side 2 of some draw match"
