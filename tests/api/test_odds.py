"""/v1/odds/{id} on the tiny world: every bookmaker's prices as held, the averages agreeing with
the results feed's odds summary, the plan, and in-play prices for Live keys only."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.support import NOON, make_key, sql


@pytest.fixture(scope="module")
def odds_key(db_url):
    return make_key(db_url, "odds")


@pytest.fixture(scope="module")
def priced(db_url):
    """A finished match with prices in every market (two bookmakers price the line markets)."""
    return sql(
        db_url,
        """
        SELECT m.id, m.event_id FROM matches m
        WHERE m.status = 'finished' AND (SELECT count(DISTINCT market) FROM odds o WHERE o.match_id = m.id) = 5
        ORDER BY m.id LIMIT 1""",
    )[0]


async def test_the_odds_plan_is_needed(client, plan_keys, priced):
    refused = await client.get(f"/v1/odds/{priced['id']}", plan_keys["archive"])
    assert refused.status_code == 403 and refused.json_body["error"]["plan"] == "odds"
    assert (await client.get(f"/v1/odds/{priced['id']}", plan_keys["odds"])).status_code == 200


async def test_every_bookmakers_prices_as_held(client, odds_key, db_url, priced):
    r = await client.get(f"/v1/odds/{priced['id']}", odds_key)
    data = r.json_body["data"]
    assert data["match"] == priced["id"] and data["event"] == priced["event_id"] and data["status"] == "finished"
    held = sql(
        db_url,
        "SELECT market, line::float8 AS line, bookmaker, open1::float8, open2::float8, close1::float8,"
        " close2::float8 FROM odds WHERE match_id = $1",
        priced["id"],
    )
    served = {(m["market"], m["line"], b["bookmaker"]): b for m in data["markets"] for b in m["bookmakers"]}
    assert len(served) == len(held)
    for h in held:
        b = served[(h["market"], h["line"], h["bookmaker"])]
        assert b["opening"] == [h["open1"], h["open2"]] and b["closing"] == [h["close1"], h["close2"]]
        assert 0.03 <= b["margin_closing"] <= 0.085  # the world's bookmakers take 3 to 8 %
    assert [m["market"] for m in data["markets"]][0] == "winner" and data["markets"][0]["line"] is None
    for m in data["markets"]:
        assert sum(m["market_chance"]) == pytest.approx(1, abs=1e-3)
        assert all(m["best"][i] == max(b["closing"][i] for b in m["bookmakers"]) for i in (0, 1))
    assert r.json_body["meta"]["bookmakers"] == len({h["bookmaker"] for h in held})


async def test_the_winner_market_agrees_with_the_results_feed(client, odds_key, priced):
    """opening and closing mean the same in both answers: the event's odds summary and the winner
    market of /v1/odds give one match's prices under the same names, with the same numbers."""
    winner = (await client.get(f"/v1/odds/{priced['event_id']}", odds_key)).json_body["data"]["markets"][0]
    summary = (await client.get(f"/v1/events/{priced['event_id']}", odds_key)).json_body["data"]["odds"]
    assert winner["market"] == "winner" and summary["bookmakers"] == len(winner["bookmakers"])
    for name in ("opening", "closing", "best"):
        assert summary[name] == winner[name], name
    assert summary["market_chance"] == pytest.approx(winner["market_chance"], abs=1e-3)
    # the averages are the bookmakers' own opening and closing prices averaged
    for name in ("opening", "closing"):
        averaged = [sum(b[name][i] for b in winner["bookmakers"]) / len(winner["bookmakers"]) for i in (0, 1)]
        assert summary[name] == [round(x, 2) for x in averaged], name
    assert summary["opening"] != summary["closing"]  # a priced match whose market moved: the names are not swapped


async def test_unknown_unpriced_and_malformed_ids(client, odds_key, db_url):
    missing = await client.get("/v1/odds/mt_zzzzzzzzzzzz", odds_key)
    assert missing.status_code == 404 and missing.json_body["error"]["code"] == "not_found"
    unpriced = sql(
        db_url,
        "SELECT m.id FROM matches m WHERE NOT EXISTS (SELECT 1 FROM odds o WHERE o.match_id = m.id)"
        " ORDER BY m.id LIMIT 1",
    )[0]["id"]
    none = await client.get(f"/v1/odds/{unpriced}", odds_key)
    assert none.status_code == 404 and "no prices" in none.json_body["error"]["message"]
    wrong = await client.get("/v1/odds/pl_abc", odds_key)
    assert wrong.status_code == 400 and "`id`" in wrong.json_body["error"]["message"]


async def test_in_play_prices_are_for_live_keys(client, odds_key, db_url):
    live = sql(
        db_url,
        "SELECT m.id FROM matches m WHERE m.status = 'live' AND EXISTS "
        "(SELECT 1 FROM odds o WHERE o.match_id = m.id) ORDER BY m.id LIMIT 1",
    )[0]["id"]
    at = NOON - dt.timedelta(minutes=3)
    sql(db_url, "INSERT INTO live_prices VALUES ($1, 'Northbet', 1.55, 2.40, $2) ON CONFLICT DO NOTHING", live, at)
    as_odds = (await client.get(f"/v1/odds/{live}", odds_key)).json_body["data"]
    assert as_odds["status"] == "live" and as_odds["in_play"] is None
    as_live = (await client.get(f"/v1/odds/{live}", make_key(db_url, "live"))).json_body["data"]
    quote = next(q for q in as_live["in_play"] if q["bookmaker"] == "Northbet")
    assert quote["prices"] == [1.55, 2.4] and dt.datetime.fromisoformat(quote["updated_at"]) == at
