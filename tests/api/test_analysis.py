"""Analyses on the tiny world: /v1/analysis/seeds, /deciders, /records (Archive plan), /market and /upsets (Odds
plan). Expectations are recounted from the match and odds rows, not read from the derived tables."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from tests.support import make_key, sql

ROUND_ORDER = ["R128", "R64", "R32", "R16", "QF", "SF", "3P", "F"]


@pytest.fixture(scope="module")
def key(db_url):
    return make_key(db_url, "live")


# -- seeds -----------------------------------------------------------------------------------
async def test_seeds_counts_and_rates(client, key, db_url):
    r = await client.get("/v1/analysis/seeds", key)
    assert r.status_code == 200
    seeds, rounds = r.json_body["data"]["seeds"], r.json_body["data"]["rounds"]
    for s in seeds:
        assert s["entries"] >= s["reached_semi_final"] >= s["reached_final"] >= s["won"] >= 0
        assert s["win_rate"] == round(s["won"] / s["entries"], 4)
    # top seeds: one entry per individual draw that seeded someone first, and the draws they won
    top = sql(
        db_url,
        """
        SELECT count(DISTINCT (m.tournament_id, m.discipline, m.sport_class)) AS entries,
               count(DISTINCT (m.tournament_id, m.discipline, m.sport_class)) FILTER (
                   WHERE m.round_code = 'F'
                     AND ((m.seed1 = 1 AND m.winner = 1) OR (m.seed2 = 1 AND m.winner = 2))) AS won
        FROM matches m JOIN tournaments t ON t.id = m.tournament_id
        WHERE NOT t.team AND 1 IN (m.seed1, m.seed2)""",
    )[0]
    assert (seeds[0]["seed"], seeds[0]["entries"], seeds[0]["won"]) == (1, top["entries"], top["won"])
    assert [x["round_code"] for x in rounds] == sorted((x["round_code"] for x in rounds), key=ROUND_ORDER.index)
    final = sql(
        db_url,
        """
        SELECT count(*) AS n FROM matches m JOIN tournaments t ON t.id = m.tournament_id
        WHERE NOT t.team AND m.round_code = 'F' AND m.status = 'finished' AND m.outcome <> 'walkover'
          AND (m.seed1 IS NULL) <> (m.seed2 IS NULL)""",
    )[0]["n"]
    assert next((x["matches"] for x in rounds if x["round_code"] == "F"), 0) == final


async def test_seeds_filters_partition_the_whole(client, key):
    whole = (await client.get("/v1/analysis/seeds", key)).json_body["data"]
    total = {s["seed"]: 0 for s in whole["seeds"]}
    for d in ("MS", "WS", "MD", "WD", "XD"):
        for s in (await client.get("/v1/analysis/seeds", key, discipline=d)).json_body["data"]["seeds"]:
            total[s["seed"]] += s["entries"]
    assert total == {s["seed"]: s["entries"] for s in whole["seeds"]}
    early = (await client.get("/v1/analysis/seeds", key, to=2015)).json_body["data"]["seeds"]
    late = (await client.get("/v1/analysis/seeds", key, from_=2016)).json_body["data"]["seeds"]
    split = {}
    for s in early + late:
        split[s["seed"]] = split.get(s["seed"], 0) + s["entries"]
    assert split == {s["seed"]: s["entries"] for s in whole["seeds"]}


@pytest.mark.parametrize("path", ["/v1/analysis/seeds", "/v1/analysis/deciders"])
@pytest.mark.parametrize(
    "params, status, name",
    [
        ({"from_": 2020, "to": 2010}, 422, "from"),
        ({"from_": 1800}, 422, "from"),
        ({"to": "soon"}, 400, "to"),
        ({"discipline": "XX"}, 422, "discipline"),
    ],
)
async def test_range_parameters(client, key, path, params, status, name):
    r = await client.get(path, key, **params)
    assert r.status_code == status and name in r.json_body["error"]["message"], r.json_body


# -- deciders --------------------------------------------------------------------------------
async def test_deciders_years_add_up_to_decades_and_to_the_match_rows(client, key, db_url):
    decades = (await client.get("/v1/analysis/deciders", key)).json_body["data"]
    years = (await client.get("/v1/analysis/deciders", key, by="year")).json_body["data"]
    for field in ("matches", "three_game_matches", "first_game_loser_wins", "games", "extended_games"):
        assert sum(d[field] for d in decades) == sum(y[field] for y in years), field
    assert all(d["period"].endswith("0s") for d in decades)
    expected = sql(
        db_url,
        """
        SELECT count(*) AS n, count(*) FILTER (WHERE cardinality(g1) = 3) AS three,
               count(*) FILTER (WHERE (g1[1] > g2[1]) <> (winner = 1)) AS comeback
        FROM matches WHERE status = 'finished' AND outcome = 'played'""",
    )[0]
    assert sum(d["matches"] for d in decades) == expected["n"]
    assert sum(d["three_game_matches"] for d in decades) == expected["three"]
    assert sum(d["first_game_loser_wins"] for d in decades) == expected["comeback"]
    # extended games exist only under rally scoring (from August 2006)
    for y in years:
        if y["last_year"] < 2006:
            assert y["rally_games"] == 0 and y["extended_games"] == 0 and y["extended_rate"] is None
        assert 0 <= y["three_game_rate"] <= 1
    recent = [y for y in years if y["first_year"] >= 2007]
    assert recent and all(y["rally_games"] == y["games"] for y in recent)
    r = await client.get("/v1/analysis/deciders", key, by="month")
    assert r.status_code == 422 and "by" in r.json_body["error"]["message"]


async def test_deciders_extended_games_from_the_scores(client, key, db_url):
    year = sql(
        db_url,
        "SELECT max(t.year) AS y FROM matches m JOIN tournaments t ON t.id = m.tournament_id "
        "WHERE m.status = 'finished'",
    )[0]["y"]
    row = (await client.get("/v1/analysis/deciders", key, by="year", from_=year, to=year)).json_body["data"][0]
    ext = sql(
        db_url,
        """
        SELECT count(*) FILTER (WHERE least(a, b) >= 20) AS ext, count(*) AS games, sum(a + b) AS points
        FROM matches m JOIN tournaments t ON t.id = m.tournament_id, unnest(m.g1, m.g2) AS g(a, b)
        WHERE m.status = 'finished' AND m.outcome = 'played' AND t.year = $1""",
        year,
    )[0]
    assert (row["extended_games"], row["games"]) == (ext["ext"], ext["games"])
    assert row["points_per_game"] == round(ext["points"] / ext["games"], 2)


# -- records ---------------------------------------------------------------------------------
def check_places(rows, limit):
    values = [r["value"] for r in rows]
    assert values == sorted(values, reverse=True)
    for r in rows:
        assert r["place"] == 1 + sum(v > r["value"] for v in values) <= limit


async def test_most_titles_and_finals_from_the_finals(client, key, db_url):
    counts = sql(
        db_url,
        """
        SELECT p, count(*) AS finals, count(*) FILTER (WHERE won) AS titles FROM (
            SELECT unnest(side1) AS p, winner = 1 AS won, m.discipline FROM matches m
              JOIN tournaments t ON t.id = m.tournament_id
            WHERE m.round_code = 'F' AND m.status = 'finished' AND NOT t.team
            UNION ALL
            SELECT unnest(side2), winner = 2, m.discipline FROM matches m JOIN tournaments t ON t.id = m.tournament_id
            WHERE m.round_code = 'F' AND m.status = 'finished' AND NOT t.team) f GROUP BY p""",
    )
    for kind, field in (("most_titles", "titles"), ("most_finals", "finals")):
        r = await client.get("/v1/analysis/records", key, type=kind, limit=5)
        rows = r.json_body["data"]
        check_places(rows, 5)
        by_player = {c["p"]: c[field] for c in counts}
        assert all(x["value"] == by_player[x["player"]["id"]] for x in rows)
        assert rows[0]["value"] == max(by_player.values())
        assert all(x["match"] is None and x["first_year"] <= x["last_year"] for x in rows)
        # the same finals each player's titles list shows
        for x in rows[:3]:
            titles = (await client.get(f"/v1/players/{x['player']['id']}/titles", key)).json_body
            assert titles["meta"][field] == x["value"], (kind, x)


async def test_widest_margin_and_most_points_from_the_scores(client, key, db_url):
    for kind in ("widest_margin", "most_points"):
        rows = (await client.get("/v1/analysis/records", key, type=kind, limit=3, discipline="MS")).json_body["data"]
        check_places(rows, 3)
        for x in rows:
            games = x["match"]["games"]
            a, b = sum(g[0] for g in games), sum(g[1] for g in games)
            assert x["value"] == (abs(a - b) if kind == "widest_margin" else a + b)
            assert x["match"]["discipline"] == "MS" and x["match"]["outcome"] == "played" and x["player"] is None
    best = sql(
        db_url,
        "SELECT max((SELECT sum(a + b) FROM unnest(g1, g2) g(a, b))) AS m FROM matches "
        "WHERE status = 'finished' AND outcome = 'played'",
    )[0]["m"]
    rows = (await client.get("/v1/analysis/records", key, type="most_points", limit=1)).json_body["data"]
    assert rows[0]["value"] == best


async def test_longest_win_streak_is_unbroken(client, key, db_url):
    for params in ({}, {"discipline": "WS"}, {"from_": 2025}):
        rows = (await client.get("/v1/analysis/records", key, type="longest_win_streak", limit=3, **params)).json_body[
            "data"
        ]
        check_places(rows, 3)
        for x in rows:
            pid, first, last = x["player"]["id"], x["first_day"], x["last_day"]
            span = sql(
                db_url,
                """
                SELECT count(*) FILTER (WHERE won) AS wins,
                       count(*) FILTER (WHERE NOT won AND d > $2 AND d < $3) AS losses
                FROM (SELECT coalesce(m.day, t.start_date) AS d,
                             (m.winner = 1 AND $1 = ANY(m.side1)) OR (m.winner = 2 AND $1 = ANY(m.side2)) AS won
                      FROM matches m JOIN tournaments t ON t.id = m.tournament_id
                      WHERE m.status = 'finished' AND m.outcome <> 'walkover'
                        AND ($1 = ANY(m.side1) OR $1 = ANY(m.side2))
                        AND ($4::text IS NULL OR m.discipline = $4)) s
                WHERE d BETWEEN $2 AND $3""",
                pid,
                dt.date.fromisoformat(first),
                dt.date.fromisoformat(last),
                params.get("discipline"),
            )[0]
            assert span["losses"] == 0 and span["wins"] >= x["value"], (params, x, span)
            if "from_" in params:
                assert first >= "2025-01-01"


@pytest.mark.parametrize(
    "params, status, name",
    [
        ({}, 400, "type"),
        ({"type": "fastest"}, 422, "type"),
        ({"type": "most_titles", "limit": 0}, 422, "limit"),
        ({"type": "most_titles", "limit": 101}, 422, "limit"),
        ({"type": "most_titles", "from_": 2020, "to": 2019}, 422, "from"),
        ({"type": "most_titles", "limit": "ten"}, 400, "limit"),
    ],
)
async def test_records_parameters(client, key, params, status, name):
    r = await client.get("/v1/analysis/records", key, **params)
    assert r.status_code == status and name in r.json_body["error"]["message"], r.json_body


async def test_records_are_documented_and_archive_only(client, db_url):
    free, archive = make_key(db_url, "free"), make_key(db_url, "archive")
    spec = (await client.get("/v1/openapi.json", archive)).json_body
    op = spec["paths"]["/v1/analysis/records"]["get"]
    text = op.get("description", "")
    for kind in ("most_titles", "most_finals", "longest_win_streak", "widest_margin", "most_points"):
        assert kind in text
    assert "whole match" in text
    for path, params in (
        ("/v1/analysis/seeds", {}),
        ("/v1/analysis/deciders", {}),
        ("/v1/analysis/records", {"type": "most_points"}),
    ):
        r = await client.get(path, free, **params)
        assert r.status_code == 403 and r.json_body["error"]["plan"] == "archive"
        assert (await client.get(path, archive, **params)).status_code == 200


# -- the closing market --------------------------------------------------------------------
def market_by_hand(db_url, discipline=None):
    """The favourites of every settled priced match, recomputed from the odds rows in Python: the
    shorter average closing price to the cent, as the results feed shows it and /v1/backtest backs it."""
    rows = sql(
        db_url,
        """
        SELECT m.discipline, m.round_code, m.seed1, m.seed2, m.winner,
               round(avg(o.close1), 2)::float8 AS c1, round(avg(o.close2), 2)::float8 AS c2,
               avg(o.close1)::float8 AS u1, avg(o.close2)::float8 AS u2
        FROM matches m JOIN odds o ON o.match_id = m.id AND o.market = 'winner'
        WHERE m.status = 'finished' AND m.outcome <> 'walkover' AND m.winner IS NOT NULL
        GROUP BY m.id""",
    )
    out = []
    for r in rows:
        if r["c1"] == r["c2"] or (discipline and r["discipline"] != discipline):
            continue
        side = 1 if r["c1"] < r["c2"] else 2
        price = min(r["c1"], r["c2"])
        # the favourite at its average price to the cent (as the feed shows it), its chance from the exact averages
        exact = r["u1"] if side == 1 else r["u2"]
        out.append(
            {
                "price": price,
                "chance": (1 / exact) / (1 / r["u1"] + 1 / r["u2"]),
                "won": r["winner"] == side,
                "round": r["round_code"] or "group",
            }
        )
    return out


async def test_market_needs_the_odds_plan(client, plan_keys):
    refused = await client.get("/v1/analysis/market", plan_keys["archive"])
    assert refused.status_code == 403 and refused.json_body["error"]["plan"] == "odds"


@pytest.mark.parametrize("discipline", [None, "MS"])
async def test_market_agrees_with_the_prices_recomputed(client, plan_keys, db_url, discipline):
    params = {"discipline": discipline} if discipline else {}
    data = (await client.get("/v1/analysis/market", plan_keys["odds"], **params)).json_body["data"]
    favs = market_by_hand(db_url, discipline)
    assert favs, "the tiny world holds priced matches"
    overall = data["overall"]
    assert overall["matches"] == len(favs)
    assert overall["expected_rate"] == pytest.approx(sum(f["chance"] for f in favs) / len(favs), abs=1e-4)
    assert overall["actual_rate"] == pytest.approx(sum(f["won"] for f in favs) / len(favs), abs=1e-4)
    assert overall["return_per_unit"] == pytest.approx(
        sum(f["price"] for f in favs if f["won"]) / len(favs) - 1, abs=1e-4
    )
    assert sum(b["matches"] for b in data["by_price"]) == len(favs)
    assert sum(b["matches"] for b in data["by_seeding"]) == len(favs)
    by_round = {b["bucket"]: b["matches"] for b in data["by_round"]}
    assert by_round == dict(Counter(f["round"] for f in favs))
    assert all(0.03 <= b["average_margin"] <= 0.08 for b in data["bookmakers"])


async def test_the_market_and_the_favourite_backtest_count_the_same_favourites(client, plan_keys):
    market = (await client.get("/v1/analysis/market", plan_keys["odds"])).json_body["data"]["overall"]
    backed = (await client.get("/v1/backtest", plan_keys["odds"], strategy="favourite")).json_body["data"]
    assert (backed["bets"], backed["strike_rate"], backed["expected_strike_rate"]) == (
        market["matches"],
        market["actual_rate"],
        market["expected_rate"],
    )


# -- upsets ------------------------------------------------------------------------------------
async def test_upsets_by_price_are_the_longest_winning_prices_of_the_odds(client, key, db_url):
    r = await client.get("/v1/analysis/upsets", key, by="price", limit=5)
    assert r.status_code == 200
    rows = r.json_body["data"]
    assert len(rows) >= 5 and [x["winner_price"] for x in rows] == sorted(
        (x["winner_price"] for x in rows), reverse=True
    )
    for x in rows:
        m = x["match"]
        assert m["winner"] == x["winner"] and m["outcome"] == "played"
        odds = (await client.get(f"/v1/odds/{m['id']}", key)).json_body["data"]["markets"][0]
        assert odds["market"] == "winner" and odds["closing"][x["winner"] - 1] == x["winner_price"]
        assert x["market_chance"] == pytest.approx(odds["market_chance"][x["winner"] - 1], abs=1e-3)
    # no completed priced match outside the list was won at a longer price
    longest = sql(
        db_url,
        """
        SELECT max(CASE m.winner WHEN 1 THEN round(a.c1, 2) ELSE round(a.c2, 2) END)::float8 AS p
        FROM matches m JOIN (SELECT match_id, avg(close1) c1, avg(close2) c2 FROM odds WHERE market = 'winner'
                             GROUP BY match_id) a ON a.match_id = m.id
        WHERE m.status = 'finished' AND m.outcome = 'played'""",
    )[0]["p"]
    assert rows[0]["winner_price"] == longest


async def test_upsets_by_rating_are_the_predictions_of_their_day(client, key):
    r = await client.get("/v1/analysis/upsets", key, by="rating", discipline="WS", limit=10, to=2025)
    rows = r.json_body["data"]
    compared_newcomers: list[str] = []
    assert rows and [x["rating_chance"] for x in rows] == sorted(x["rating_chance"] for x in rows)
    for x in rows:
        m = x["match"]
        assert m["outcome"] == "played" and m["tournament"]["year"] <= 2025 and m["discipline"] == "WS"
        winner, loser = (m["side1"], m["side2"]) if x["winner"] == 1 else (m["side2"], m["side1"])
        said = (
            await client.get(
                "/v1/predict",
                key,
                player1=winner["players"][0]["id"],
                player2=loser["players"][0]["id"],
                date=m["date"],
            )
        ).json_body
        if said["data"]["side1"]["rated"] and said["data"]["side2"]["rated"]:
            assert (
                said["data"]["side1"]["chance"] == pytest.approx(x["rating_chance"], abs=1e-4)
                or said["meta"]["model"]["home_edge"] is not None
            )  # predict adds no edge without `host`
        else:  # a newcomer's first rating came from the draw they entered, which /v1/predict cannot know
            compared_newcomers.append(m["id"])
        assert x["rating_chance"] < 0.5
    assert len(compared_newcomers) < len(rows)  # most were between rated players, and agreed


async def test_upsets_need_the_odds_plan_and_valid_parameters(client, db_url):
    archive = make_key(db_url, "archive")
    refused = await client.get("/v1/analysis/upsets", archive)
    assert refused.status_code == 403 and refused.json_body["error"]["plan"] == "odds"
    odds = make_key(db_url, "odds")
    for params, status in (
        ({"by": "luck"}, 422),
        ({"limit": 0}, 422),
        ({"limit": 101}, 422),
        ({"from": 2020, "to": 2010}, 422),
        ({"discipline": "XX"}, 422),
    ):
        assert (await client.get("/v1/analysis/upsets", odds, **params)).status_code == status, params
