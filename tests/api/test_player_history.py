"""The player sub-resources on the tiny world: matches, partners, opponents, titles, form,
stats and schedule -- each checked against the match rows (SQL) or against another endpoint,
never against numbers copied from a generated world. The schedule: events newest first as
on a chosen day, rest between events, back-to-back runs, and meta as on that day."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from tests.support import NOON, make_key, sql, walk

UNKNOWN = "pl_zzzzzzzzzzzz"
RALLY_POINT_FROM = dt.date(2006, 4, 28)  # 21-point rally scoring (svc.world.engine); extended games count from here


@pytest.fixture
def key(db_url):
    """A fresh Live key per test (Live includes Archive): every test starts with its own minute's allowance."""
    return make_key(db_url, "live")


@pytest.fixture(scope="module")
def busiest(db_url):
    """The player with the most finished matches."""
    return sql(
        db_url,
        """
        SELECT p, count(*) AS n FROM matches m, unnest(m.side1 || m.side2) AS p
        WHERE m.status = 'finished' GROUP BY p ORDER BY count(*) DESC, p LIMIT 1""",
    )[0]["p"]


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


def side_of(match: dict, player: str) -> int:
    if player in [p["id"] for p in match["side1"]["players"]]:
        return 1
    assert player in [p["id"] for p in match["side2"]["players"]]
    return 2


def own_games(match: dict, side: int) -> list[list[int]]:
    return [g if side == 1 else [g[1], g[0]] for g in match["games"]]


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


# -- stats ------------------------------------------------------------------------------
def expected_stats(matches: list[dict], player: str) -> dict:
    """Stats recomputed from /players/{id}/matches items, the way a user would."""
    out = Counter()
    for m in matches:
        if m["status"] != "finished":
            continue
        side = side_of(m, player)
        won = m["winner"] == side
        games = own_games(m, side)
        complete = games[:-1] if m["outcome"] == "retired" else games
        out["matches"] += 1
        out["wins"] += won
        out["games_won"] += sum(a > b for a, b in complete)
        out["games"] += len(complete)
        out["points_won"] += sum(a for a, _ in games)
        out["points"] += sum(a + b for a, b in games)
        if len(complete) == 3:
            out["deciding"] += 1
            out["deciding_won"] += won
        if m["date"] and dt.date.fromisoformat(m["date"]) >= RALLY_POINT_FROM:
            ext = [(a, b) for a, b in complete if min(a, b) >= 20]
            out["ext"] += len(ext)
            out["ext_won"] += sum(a > b for a, b in ext)
        if complete:
            first_won = complete[0][0] > complete[0][1]
            key = "awf" if first_won else "alf"
            out[key] += 1
            out[key + "_won"] += won
        if m["outcome"] in ("retired", "walkover"):
            out[f"{m['outcome']}_{'won' if won else 'lost'}"] += 1
    return out


def rate(won, played):
    return round(won / played, 4) if played else None


@pytest.mark.parametrize("who", ["busiest", "walkover", "retired"])
async def test_stats_agree_with_the_players_matches(client, db_url, busiest, key, who):
    if who != "busiest":  # the busiest player among those with a walkover (or retirement) on either side
        busiest = sql(
            db_url,
            """
            SELECT p FROM matches m, unnest(m.side1 || m.side2) AS p WHERE m.status = 'finished'
            GROUP BY p HAVING bool_or(m.outcome = $1) ORDER BY count(*) DESC, p LIMIT 1""",
            who,
        )[0]["p"]
    matches = (await walk(client, key, f"/v1/players/{busiest}/matches", 200))[0]
    e = expected_stats(matches, busiest)
    r = await client.get(f"/v1/players/{busiest}/stats", key)
    assert r.status_code == 200
    [s] = r.json_body["data"]
    assert s["player"]["id"] == busiest
    assert s["filters"] == {"discipline": None, "from": None, "to": None}
    assert (s["matches"], s["wins"]) == (e["matches"], e["wins"]) and s["wins"] > 0
    assert s["win_rate"] == rate(e["wins"], e["matches"])
    assert s["game_win_rate"] == rate(e["games_won"], e["games"])
    assert s["point_share"] == rate(e["points_won"], e["points"])
    assert s["deciding_games"] == {
        "played": e["deciding"],
        "won": e["deciding_won"],
        "rate": rate(e["deciding_won"], e["deciding"]),
    }
    assert s["extended_games"] == {"played": e["ext"], "won": e["ext_won"], "rate": rate(e["ext_won"], e["ext"])}
    assert s["after_losing_first_game"] == {
        "played": e["alf"],
        "won": e["alf_won"],
        "rate": rate(e["alf_won"], e["alf"]),
    }
    assert s["after_winning_first_game"] == {
        "played": e["awf"],
        "won": e["awf_won"],
        "rate": rate(e["awf_won"], e["awf"]),
    }
    assert s["retirements"] == {"won": e["retired_won"], "lost": e["retired_lost"]}
    assert s["walkovers"] == {"won": e["walkover_won"], "lost": e["walkover_lost"]}
    if who != "busiest":
        assert sum(s["retirements" if who == "retired" else "walkovers"].values()) > 0
    assert sum(d["matches"] for d in s["by_discipline"].values()) == s["matches"]
    assert sum(d["wins"] for d in s["by_discipline"].values()) == s["wins"]


async def test_stats_wins_equal_won_matches_for_the_same_filters(client, db_url, key):
    # Every (player, year, discipline) with finished matches of three well-travelled players.
    combos = sql(
        db_url,
        """
        WITH top AS (SELECT p FROM matches m, unnest(m.side1 || m.side2) p WHERE m.status = 'finished'
                     GROUP BY p ORDER BY count(*) DESC, p LIMIT 3)
        SELECT DISTINCT top.p, t.year, m.discipline FROM top JOIN matches m ON top.p = ANY(m.side1 || m.side2)
        JOIN tournaments t ON t.id = m.tournament_id WHERE m.status = 'finished' ORDER BY 1, 2, 3 LIMIT 12""",
    )
    assert combos
    for c in combos:
        items = (
            await walk(client, key, f"/v1/players/{c['p']}/matches", 200, year=c["year"], discipline=c["discipline"])
        )[0]
        won = sum(1 for m in items if m["winner"] == side_of(m, c["p"]))
        finished = sum(1 for m in items if m["status"] == "finished")
        r = await client.get(
            f"/v1/players/{c['p']}/stats", key, discipline=c["discipline"], from_=c["year"], to=c["year"]
        )
        [s] = r.json_body["data"]
        assert (s["wins"], s["matches"]) == (won, finished), c
        assert s["filters"] == {"discipline": c["discipline"], "from": c["year"], "to": c["year"]}
        assert list(s["by_discipline"]) == [c["discipline"]]


async def test_stats_of_a_range_add_up_and_an_empty_range_has_no_rates(client, busiest, key):
    years = [m["tournament"]["year"] for m in (await walk(client, key, f"/v1/players/{busiest}/matches", 200))[0]]
    cut = sorted(set(years))[len(set(years)) // 2]
    whole = (await client.get(f"/v1/players/{busiest}/stats", key)).json_body["data"][0]
    early = (await client.get(f"/v1/players/{busiest}/stats", key, to=cut - 1)).json_body["data"][0]
    late = (await client.get(f"/v1/players/{busiest}/stats", key, from_=cut)).json_body["data"][0]
    for field in ("matches", "wins"):
        assert early[field] + late[field] == whole[field]
    empty = (await client.get(f"/v1/players/{busiest}/stats", key, from_=1899, to=1899, discipline="XD")).json_body[
        "data"
    ][0]
    assert empty["matches"] == 0 and empty["win_rate"] is None and empty["deciding_games"]["rate"] is None
    assert empty["by_discipline"] == {}


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


TODAY = NOON.date()


@pytest.fixture(scope="module")
def traveller(db_url):
    """The player who played in the most editions, up to 100 (so that `last=100` shows the
    whole career, which the agreements below compare with career totals)."""
    return sql(
        db_url,
        """
        SELECT p FROM matches m, unnest(m.side1 || m.side2) p GROUP BY p
        HAVING count(DISTINCT m.tournament_id) <= 100
        ORDER BY count(DISTINCT m.tournament_id) DESC, p LIMIT 1""",
    )[0]["p"]


def d(text: str | None) -> dt.date | None:
    return dt.date.fromisoformat(text) if text else None


async def test_schedule_rows_chain_rest_and_runs(client, traveller, key):
    r = await client.get(f"/v1/players/{traveller}/schedule", key, last=100)
    assert r.status_code == 200
    rows = r.json_body["data"][::-1]  # oldest first
    assert len(rows) > 3
    assert rows[0]["rest_days"] is None and rows[0]["back_to_back"] is False and rows[0]["week_run"] == 1
    for prev, row in zip(rows, rows[1:]):
        assert d(row["start"]) >= d(prev["start"])
        gap = (d(row["start"]) - d(prev["end"])).days
        assert row["rest_days"] == max(0, gap - 1)
        assert row["back_to_back"] == (gap <= 7)
        assert row["week_run"] == (prev["week_run"] + 1 if row["back_to_back"] else 1)
    assert all(d(x["start"]) <= TODAY for x in rows)
    newest_first = [x["start"] for x in r.json_body["data"]]
    assert newest_first == sorted(newest_first, reverse=True)
    one = (await client.get(f"/v1/players/{traveller}/schedule", key, last=1)).json_body["data"]
    assert one == [r.json_body["data"][0]]


async def test_schedule_agrees_with_stats_and_titles(client, traveller, key):
    rows = (await client.get(f"/v1/players/{traveller}/schedule", key, last=100)).json_body["data"]
    stats = (await client.get(f"/v1/players/{traveller}/stats", key)).json_body["data"][0]
    titles = (await client.get(f"/v1/players/{traveller}/titles", key)).json_body["data"]
    assert sum(x["matches"] for x in rows) == stats["matches"]
    assert sum(x["wins"] for x in rows) == stats["wins"]
    won = {t["tournament"]["id"] for t in titles if t["result"] == "W"}
    assert {x["tournament"]["id"] for x in rows if x["title"]} == won
    assert all(x["furthest"] == "F" for x in rows if x["title"])
    reached = {t["tournament"]["id"] for t in titles}
    assert all(x["furthest"] == "F" for x in rows if x["tournament"]["id"] in reached)


async def test_schedule_as_on_an_earlier_day(client, db_url, key):
    # A final won: the day before it, the event shows no title and one match fewer played by then.
    f = sql(
        db_url,
        """
        SELECT m.tournament_id, m.day, CASE m.winner WHEN 1 THEN m.side1[1] ELSE m.side2[1] END AS p
        FROM matches m JOIN tournaments t ON t.id = m.tournament_id
        WHERE m.round_code = 'F' AND NOT t.team AND m.status = 'finished' AND m.day > t.start_date
          AND NOT EXISTS (SELECT 1 FROM matches o WHERE o.tournament_id = m.tournament_id AND o.day = m.day
            AND o.id <> m.id
                          AND (CASE m.winner WHEN 1 THEN m.side1[1] ELSE m.side2[1] END) = ANY(o.side1 || o.side2))
        ORDER BY m.day DESC, m.id LIMIT 1""",
    )[0]
    on = (await client.get(f"/v1/players/{f['p']}/schedule", key, date=f["day"].isoformat(), last=100)).json_body
    before = (
        await client.get(
            f"/v1/players/{f['p']}/schedule", key, date=(f["day"] - dt.timedelta(days=1)).isoformat(), last=100
        )
    ).json_body
    row_on = next(x for x in on["data"] if x["tournament"]["id"] == f["tournament_id"])
    row_before = next(x for x in before["data"] if x["tournament"]["id"] == f["tournament_id"])
    assert row_on["title"] is True and row_before["title"] is False
    assert row_on["matches"] == row_before["matches"] + 1 and row_on["wins"] == row_before["wins"] + 1
    assert row_before["furthest"] == "F"  # the semi-final was won, so the final was reached
    assert on["meta"]["date"] == f["day"].isoformat() and on["meta"]["days_since_last_event"] == 0
    assert all(d(x["start"]) <= f["day"] for x in on["data"])
    later = sql(
        db_url,
        """SELECT count(DISTINCT m.tournament_id) AS n FROM matches m JOIN tournaments t ON t.id = m.tournament_id
                           WHERE $1 = ANY(m.side1 || m.side2) AND t.start_date > $2""",
        f["p"],
        f["day"],
    )[0]["n"]
    now = (await client.get(f"/v1/players/{f['p']}/schedule", key, last=100)).json_body
    assert len(now["data"]) >= len(on["data"]) + later


async def test_schedule_meta_windows(client, db_url, traveller, key):
    r = (await client.get(f"/v1/players/{traveller}/schedule", key, last=100)).json_body
    meta = r["meta"]
    assert meta["date"] == TODAY.isoformat()
    for n in (30, 60, 90):
        since = TODAY - dt.timedelta(days=n)
        played = sql(
            db_url,
            """SELECT count(*) AS n FROM matches WHERE $1 = ANY(side1 || side2) AND status = 'finished'
                                AND day > $2 AND day <= $3""",
            traveller,
            since,
            TODAY,
        )[0]["n"]
        events = sum(1 for x in r["data"] if d(x["end"]) > since)
        assert meta[f"last_{n}_days"] == {"events": events, "matches": played}
    newest_end = max(min(d(x["end"]), TODAY) for x in r["data"])
    assert meta["days_since_last_event"] == (TODAY - newest_end).days
    early = (await client.get(f"/v1/players/{traveller}/schedule", key, date="1800-01-01")).json_body
    assert early["data"] == [] and early["meta"]["days_since_last_event"] is None
    for edge in ("0001-01-01", "9999-12-31"):
        r = await client.get(f"/v1/players/{traveller}/schedule", key, date=edge)
        assert r.status_code == 200 and r.json_body["meta"]["date"] == edge


async def test_schedule_discipline_filter(client, traveller, key):
    rows = (await client.get(f"/v1/players/{traveller}/schedule", key, last=100)).json_body["data"]
    discipline = rows[0]["disciplines"][0]
    only = (await client.get(f"/v1/players/{traveller}/schedule", key, last=100, discipline=discipline)).json_body[
        "data"
    ]
    assert only and all(x["disciplines"] == [discipline] for x in only)
    assert {x["tournament"]["id"] for x in only} == {
        x["tournament"]["id"] for x in rows if discipline in x["disciplines"]
    }
    stats = (await client.get(f"/v1/players/{traveller}/stats", key, discipline=discipline)).json_body["data"][0]
    assert sum(x["matches"] for x in only) == stats["matches"]
