"""/v1/predict on the tiny world: a side's rating is what /v1/ratings lists, the chance follows
from the two ratings and is symmetric, doubles and the deciding game, the head to head, the plan
and every refusal."""

from __future__ import annotations

import math

import pytest

from tests.support import sql


@pytest.fixture(scope="module")
def pairs(db_url):
    """A men's singles and a mixed doubles match of the last season, by their players."""
    out = {}
    for discipline in ("MS", "XD"):
        out[discipline] = sql(
            db_url,
            """
            SELECT side1, side2, day FROM matches WHERE discipline = $1 AND status = 'finished'
              AND outcome = 'played' AND tie_id IS NULL ORDER BY day DESC, id LIMIT 1""",
            discipline,
        )[0]
    return out


def _params(m):
    p = {"player1": m["side1"][0], "player2": m["side2"][0]}
    if len(m["side1"]) == 2:
        p.update(partner1=m["side1"][1], partner2=m["side2"][1])
    return p


async def test_the_chance_follows_from_the_ratings_listed(client, plan_keys, pairs):
    m = pairs["MS"]
    r = await client.get("/v1/predict", plan_keys["odds"], **_params(m))
    assert r.status_code == 200, r.json_body
    data = r.json_body["data"]
    assert data["discipline"] == "MS"
    for side, pid in (("side1", m["side1"][0]), ("side2", m["side2"][0])):
        listed = (
            await client.get("/v1/ratings", plan_keys["odds"], player=pid, discipline="MS", per_page=1)
        ).json_body["data"][0]
        assert data[side]["rating"] == listed["rating"] and data[side]["rated"] is True
    d = data["side1"]["rating"] - data["side2"]["rating"]
    plain = 1 / (1 + 10 ** (-d / 400))
    # the deviations pull the chance towards one half, never past it
    assert abs(data["side1"]["chance"] - 0.5) <= abs(plain - 0.5) + 1e-3
    assert (data["side1"]["chance"] - 0.5) * d >= 0
    assert data["side1"]["chance"] + data["side2"]["chance"] == pytest.approx(1, abs=1e-9)
    assert data["side1"]["fair_price"] == round(1 / data["side1"]["chance"], 2)
    meta = r.json_body["meta"]["model"]
    assert meta["version"] and meta["held_out"]["log_loss"] > 0 and "home_edge" in meta


async def test_a_pairs_chance_is_symmetric(client, plan_keys, pairs):
    for m in pairs.values():
        ab = (await client.get("/v1/predict", plan_keys["odds"], **_params(m))).json_body["data"]
        swapped = {"side1": m["side2"], "side2": m["side1"]}
        ba = (await client.get("/v1/predict", plan_keys["odds"], **_params(swapped))).json_body["data"]
        assert ab["side1"]["chance"] == pytest.approx(1 - ba["side1"]["chance"], abs=1e-9)
        assert ab["side1"]["players"] == ba["side2"]["players"]
        assert ab["head_to_head"]["meetings"] == ba["head_to_head"]["meetings"] >= 1
        assert ab["head_to_head"]["side1_wins"] == ba["head_to_head"]["side2_wins"]
    assert ab["discipline"] == "XD" and len(ab["side1"]["players"]) == 2


async def test_ratings_as_on_an_earlier_day(client, plan_keys, pairs):
    m = pairs["MS"]
    before = await client.get("/v1/predict", plan_keys["odds"], date=m["day"].isoformat(), **_params(m))
    listed = (
        await client.get(
            "/v1/ratings",
            plan_keys["odds"],
            player=m["side1"][0],
            discipline="MS",
            date=m["day"].isoformat(),
            per_page=1,
        )
    ).json_body["data"]
    side = before.json_body["data"]["side1"]
    if listed:
        assert side["rating"] == listed[0]["rating"]
    else:
        assert side["rated"] is False


async def test_the_deciding_game_reads_the_points(client, plan_keys, pairs):
    base = _params(pairs["MS"])
    match = (await client.get("/v1/predict", plan_keys["odds"], **base)).json_body["data"]["side1"]["chance"]
    ahead = (await client.get("/v1/predict", plan_keys["odds"], games="21-5,19-21", **base)).json_body["data"]
    behind = (await client.get("/v1/predict", plan_keys["odds"], games="5-21,21-19", **base)).json_body["data"]
    assert ahead["deciding_game"]["side1"] > behind["deciding_game"]["side1"]
    assert ahead["deciding_game"]["side1"] + ahead["deciding_game"]["side2"] == pytest.approx(1)
    assert ahead["side1"]["chance"] == match  # the pre-match chance is unchanged
    assert (await client.get("/v1/predict", plan_keys["odds"], **base)).json_body["data"]["deciding_game"] is None


async def test_the_host_moves_only_by_the_fitted_edge(client, plan_keys, pairs, db_url):
    m = pairs["MS"]
    country = sql(db_url, "SELECT country FROM players WHERE id = $1", m["side1"][0])[0]["country"]
    plain = (await client.get("/v1/predict", plan_keys["odds"], **_params(m))).json_body
    hosted = (await client.get("/v1/predict", plan_keys["odds"], host=country.lower(), **_params(m))).json_body
    edge = hosted["meta"]["model"]["home_edge"]
    assert hosted["data"]["side1"]["at_home"] is True
    if edge is None:
        assert hosted["data"]["side1"]["chance"] == plain["data"]["side1"]["chance"]
    else:
        assert (hosted["data"]["side1"]["chance"] > plain["data"]["side1"]["chance"]) == (edge > 0)


async def test_refusals(client, plan_keys, pairs, db_url):
    p = _params(pairs["MS"])
    refused = await client.get("/v1/predict", plan_keys["archive"], **p)
    assert refused.status_code == 403 and refused.json_body["error"]["plan"] == "odds"
    woman = sql(db_url, "SELECT id FROM players WHERE gender = 'W' ORDER BY id LIMIT 1")[0]["id"]
    cases = [
        ({"player1": p["player1"], "player2": p["player1"]}, 422, "twice"),
        ({**p, "partner1": woman}, 422, "partner2"),
        ({**p, "discipline": "MD"}, 422, "discipline"),
        ({"player1": p["player1"], "player2": woman}, 422, "genders"),
        ({**p, "discipline": "WS"}, 422, "genders"),
        ({**p, "games": "21-17"}, 400, "games"),
        ({**p, "games": "21-17,21-15"}, 422, "one game all"),
        ({**p, "games": "21-20,15-21"}, 422, "21-20"),
        ({**p, "host": "XYZ"}, 422, "host"),
        ({**p, "host": "GERMANY"}, 400, "host"),
        ({**p, "player2": "pl_nosuchplayer1"}, 404, "player2"),
        ({"player1": p["player1"]}, 400, "player2"),
    ]
    for params, status, words in cases:
        r = await client.get("/v1/predict", plan_keys["odds"], **params)
        assert r.status_code == status and words in r.json_body["error"]["message"], (params, r.json_body)


def test_the_chance_function_at_its_edges():
    from svc.rating.model import expected

    assert expected(0) == 0.5 and expected(400) == pytest.approx(10 / 11)
    assert expected(400, variance=200**2) < expected(400)
    assert math.isclose(expected(-123.4, 5000) + expected(123.4, 5000), 1)
