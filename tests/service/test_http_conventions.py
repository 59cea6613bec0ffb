"""The habits clients bring from other APIs (Stripe, GitHub, the IETF drafts): `error.param`
naming the parameter at fault, the IETF RateLimit fields beside X-RateLimit-*, gzip with an
ETag of its own, Cache-Control and Vary, a Request-Id on every answer, and /livez beside /readyz."""

from __future__ import annotations

import pytest

from tests.support import make_key


@pytest.fixture(scope="module")
def keys(db_url):
    return {plan: make_key(db_url, plan) for plan in ("archive", "odds")}


PARAM_CASES = [
    # path, params, plan, status, the parameter at fault -- each judged by a handler, not the declarations
    ("/v1/h2h", {"player1": "pl_a1", "player2": "pl_a1"}, "archive", 422, "player2"),
    ("/v1/ratings", {}, "archive", 400, "discipline"),
    ("/v1/ratings", {"discipline": "MS", "date": "2999-01-01"}, "archive", 422, "date"),
    ("/v1/analysis/seeds", {"from": "2020", "to": "2010"}, "archive", 422, "from"),
    ("/v1/predict", {"player1": "pl_a1", "player2": "pl_b2", "partner1": "pl_c3"}, "odds", 422, "partner2"),
    ("/v1/predict", {"player1": "pl_a1", "player2": "pl_b2", "games": "21-0"}, "odds", 400, "games"),
]


@pytest.mark.parametrize("path,params,plan,status,param", PARAM_CASES)
async def test_an_error_about_one_parameter_names_it_in_error_param(client, keys, path, params, plan, status, param):
    r = await client.get(path, keys[plan], **params)
    error = r.json_body["error"]
    assert (r.status_code, error["param"]) == (status, param), error
    assert f"`{param}`" in error["message"]


async def test_an_error_about_no_parameter_has_no_param(client, keys):
    for r in (
        await client.get("/v1/series"),  # no key
        await client.get("/v1/players/pl_nosuchplayer1", keys["archive"]),  # no such item
        await client.get("/v1/backtest", keys["archive"]),  # above the plan
    ):
        assert r.status_code in (401, 403, 404) and "param" not in r.json_body["error"], r.json_body
