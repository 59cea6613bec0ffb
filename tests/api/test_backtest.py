"""/v1/backtest on the tiny world: each strategy's figures agree with a straight recomputation
from /v1/matches?with_odds=true (the average prices as the results feed shows them); filters,
the plan, and bad parameters."""

from __future__ import annotations

import pytest

from tests.support import make_key, walk


@pytest.fixture(scope="module")
def odds_key(db_url):
    return make_key(db_url, "live")  # Live includes Odds, and has room for the walk


@pytest.fixture
async def settled(client, odds_key):
    """Every settled match with closing prices, oldest first, as /v1/matches shows it."""
    items, _ = await walk(client, odds_key, "/v1/matches", 200, with_odds="true")
    out = [m for m in items if m["odds"] and m["outcome"] != "walkover" and m["winner"]]
    out.sort(key=lambda m: (m["date"] or "", m["id"]))
    return out


def by_hand(strategy: str, matches: list[dict], lo: float | None = None, hi: float | None = None) -> dict:
    bets = wins = run = worst = 0
    profit = chance = 0.0
    for m in matches:
        o = m["odds"]
        c1, c2 = o["closing"]
        side = None
        if strategy in ("favourite", "outsider") and c1 != c2:
            fav = 1 if c1 < c2 else 2
            side = fav if strategy == "favourite" else 3 - fav
        if strategy in ("seeded", "unseeded"):
            s1, s2 = m["side1"]["seed"] is not None, m["side2"]["seed"] is not None
            if s1 != s2:
                seeded = 1 if s1 else 2
                side = seeded if strategy == "seeded" else 3 - seeded
        if strategy in ("steam", "drift"):
            r1, r2 = c1 / o["opening"][0], c2 / o["opening"][1]
            if r1 != r2:
                steam = 1 if r1 < r2 else 2
                side = steam if strategy == "steam" else 3 - steam
        if side is None:
            continue
        price = o["closing"][side - 1]
        if (lo is not None and price < lo) or (hi is not None and price > hi):
            continue
        bets += 1
        chance += o["market_chance"][side - 1]
        if m["winner"] == side:
            wins, profit, run = wins + 1, profit + price - 1, 0
        else:
            profit, run = profit - 1, run + 1
            worst = max(worst, run)
    return {
        "bets": bets,
        "wins": wins,
        "profit": round(profit, 2),
        "worst_run": worst,
        "expected": chance / bets if bets else None,
    }


@pytest.mark.parametrize("strategy", ["favourite", "outsider", "seeded", "unseeded", "steam", "drift"])
async def test_each_strategy_agrees_with_the_matches_list(client, odds_key, settled, strategy):
    assert settled, "the tiny world holds settled priced matches"
    got = (await client.get("/v1/backtest", odds_key, strategy=strategy)).json_body["data"]
    want = by_hand(strategy, settled)
    assert (got["bets"], got["wins"], got["worst_run"]) == (want["bets"], want["wins"], want["worst_run"])
    assert got["profit"] == pytest.approx(want["profit"], abs=0.011)
    if want["bets"]:
        assert got["expected_strike_rate"] == pytest.approx(want["expected"], abs=1e-3)
        lo, hi = got["expected_interval"]
        assert lo <= got["expected_strike_rate"] <= hi
        assert got["distance_from_chance"] == pytest.approx(got["strike_rate"] - got["expected_strike_rate"], abs=1e-4)


async def test_price_and_match_filters(client, odds_key, settled):
    got = (await client.get("/v1/backtest", odds_key, strategy="outsider", min_price="2.5", max_price="6")).json_body
    want = by_hand("outsider", settled, 2.5, 6.0)
    assert got["data"]["bets"] == want["bets"] and got["data"]["wins"] == want["wins"]
    assert got["meta"]["filters"]["min_price"] == 2.5
    ms = (await client.get("/v1/backtest", odds_key, strategy="favourite", discipline="MS")).json_body["data"]
    assert ms["bets"] == by_hand("favourite", [m for m in settled if m["discipline"] == "MS"])["bets"]
    future = (await client.get("/v1/backtest", odds_key, strategy="favourite", **{"from": "2100"})).json_body["data"]
    assert future["bets"] == 0 and future["strike_rate"] is None


async def test_plan_and_bad_parameters(client, plan_keys, odds_key):
    refused = await client.get("/v1/backtest", plan_keys["archive"], strategy="favourite")
    assert refused.status_code == 403 and refused.json_body["error"]["plan"] == "odds"
    for params, status, name in (
        ({}, 400, "strategy"),
        ({"strategy": "martingale"}, 422, "strategy"),
        ({"strategy": "favourite", "min_price": "cheap"}, 400, "min_price"),
        ({"strategy": "favourite", "min_price": "0.5"}, 422, "min_price"),
        ({"strategy": "favourite", "min_price": "3", "max_price": "2"}, 422, "min_price"),
    ):
        r = await client.get("/v1/backtest", odds_key, **params)
        assert r.status_code == status and f"`{name}`" in r.json_body["error"]["message"], (params, r.json_body)


async def test_every_backtest_is_planned_for_its_own_filters(db_url):
    """The backtest statement is marked `plan: per call`: however often it runs on one connection,
    PostgreSQL never settles on one generic plan for all filters (forced, one took 133-150 ms
    against 57 on the full world)."""
    from svc.core.db import Database
    from svc.core.sqlfiles import Q

    db = Database(db_url, pool_size=1)
    await db.open()
    try:
        for i in range(12):  # a cached statement is planned for its values five times, then may turn generic
            await db.fetchrow(
                Q.backtest.run,
                strategy="steam",
                min_price=None,
                max_price=None,
                discipline=None if i % 2 else "MS",
                round=None,
                from_year=None,
                to_year=None,
            )
        generic = await db.run(
            lambda conn: conn.fetchval(
                "SELECT coalesce(sum(generic_plans), 0) FROM pg_prepared_statements WHERE statement = $1",
                Q.backtest.run.sql,
            )
        )
    finally:
        await db.close()
    assert Q.backtest.run.fresh_plan and generic == 0


async def test_a_date_for_a_year_is_told_a_year_is_wanted(client, odds_key, plan_keys):
    """from and to take years (interface.md: year parameters are integers); a date is refused with a
    message that says so, on backtest as on every year parameter (player stats, analysis)."""
    for path, key, params in (
        ("/v1/backtest", odds_key, {"strategy": "favourite", "from": "2019-05-01"}),
        ("/v1/backtest", odds_key, {"strategy": "favourite", "to": "2019-05"}),
        ("/v1/analysis/deciders", plan_keys["archive"], {"from": "2019/05/01"}),
    ):
        r = await client.get(path, key, **params)
        name = "from" if "from" in params else "to"
        error = r.json_body["error"]
        assert (r.status_code, error["code"], error["param"]) == (400, "bad_request", name)
        assert error["message"].startswith(f"parameter `{name}` must be a year such as 2019, not a date"), error
    other = (await client.get("/v1/backtest", odds_key, strategy="favourite", **{"from": "last"})).json_body["error"]
    assert other["message"] == "parameter `from` must be a year such as 2019, not 'last'"
    served = await client.get("/v1/backtest", odds_key, strategy="favourite", **{"from": "2019", "to": "2020"})
    assert served.status_code == 200
