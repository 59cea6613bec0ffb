"""/v1/ratings on the tiny world: the table as on a day counts only earlier results (a world whose
later results are unplayed gives the same table), the rank order, the active filter, one player's
history, the plan and the parameters."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys

import pytest

from svc.core.clock import Clock
from svc.core.db import connect_asyncio
from svc.rating import history
from tests.support import BASE_DB, NOON, Client, drop_database, make_key, new_database, run, sql


@pytest.fixture(scope="module")
def cut_day(db_url):
    """A day in the middle of the last decade's rated matches."""
    return sql(
        db_url,
        """SELECT day FROM rated_results WHERE outcome <> 'walkover' AND day >= '2016-01-01'
                          ORDER BY day OFFSET (SELECT count(*) / 2 FROM rated_results WHERE day >= '2016-01-01')
                          LIMIT 1""",
    )[0]["day"]


@pytest.fixture(scope="module")
def cut_url(pg_server_url, template_url, cut_day):
    """The same world with every result from `cut_day` on unplayed, its ratings rebuilt."""
    name = f"svc_test_ratings_cut_{os.getpid()}"
    url = new_database(pg_server_url, name, template=BASE_DB)

    async def cut():
        conn = await connect_asyncio(url)
        try:
            async with conn.transaction():
                await conn.execute(
                    """UPDATE matches m SET status = 'scheduled', winner = NULL, outcome = NULL,
                                      g1 = '{}', g2 = '{}' FROM rated_results r WHERE r.id = m.id AND r.day >= $1""",
                    cut_day,
                )
                await history.rebuild(conn)
        finally:
            await conn.close()

    run(cut())
    yield url
    drop_database(pg_server_url, name)


async def _get(url: str, path: str, **params):
    from svc.assembly import create_app

    key = make_key(url, "odds")
    app = create_app(url, clock=Clock(start=NOON), pool_size=2)
    async with app.test_app() as test_app:
        return await Client(test_app.test_client()).get(path, key, **params)


async def test_ratings_as_on_a_day_use_only_earlier_results(db_url, cut_url, cut_day):
    """Unplaying every result from the day on changes nothing before it: the stored days, the
    table as on the day and a prediction as on it are the same."""
    days = (
        "SELECT discipline, player_id, day, rating, variance, matches FROM rating_days WHERE day < $1 ORDER BY 1, 2, 3"
    )
    whole, cut = sql(db_url, days, cut_day), sql(cut_url, days, cut_day)
    assert len(whole) > 100 and [tuple(r) for r in whole] == [tuple(r) for r in cut]
    assert sql(db_url, "SELECT count(*) FROM rating_days WHERE day >= $1", cut_day)[0][0] > 0  # later days exist
    for discipline in ("MS", "XD"):
        a = await _get(db_url, "/v1/ratings", discipline=discipline, date=cut_day.isoformat(), per_page=200)
        b = await _get(cut_url, "/v1/ratings", discipline=discipline, date=cut_day.isoformat(), per_page=200)
        assert (
            a.status_code == b.status_code == 200 and a.json_body["data"] and a.json_body["data"] == b.json_body["data"]
        )
    top = a.json_body["data"]
    later = await _get(db_url, "/v1/ratings", discipline="XD", date=NOON.date().isoformat(), per_page=200)
    assert later.json_body["data"] != top  # the later results do move the table


async def test_the_table_is_ranked_by_rating(client, plan_keys):
    r = await client.get("/v1/ratings", plan_keys["archive"], discipline="WS", per_page=50)
    assert r.status_code == 200
    rows = r.json_body["data"]
    assert rows and [x["rating"] for x in rows] == sorted((x["rating"] for x in rows), reverse=True)
    assert rows[0]["rank"] == 1 and all(a["rank"] <= b["rank"] for a, b in zip(rows, rows[1:]))
    today = dt.date.fromisoformat(r.json_body["meta"]["date"])
    assert all(today - dt.timedelta(days=365) <= dt.date.fromisoformat(x["last_played"]) < today for x in rows)
    assert r.json_body["meta"]["model"]["version"].startswith("elo-glicko")
    everyone = await client.get("/v1/ratings", plan_keys["archive"], discipline="WS", active="false", per_page=1)
    assert everyone.json_body["meta"]["total"] > r.json_body["meta"]["total"]


async def test_a_players_history_ends_at_the_table(client, plan_keys):
    top = (await client.get("/v1/ratings", plan_keys["archive"], discipline="MD", per_page=1)).json_body["data"][0]
    r = await client.get("/v1/ratings", plan_keys["archive"], player=top["player"]["id"], discipline="MD", per_page=200)
    history_rows = r.json_body["data"]
    assert history_rows[0]["day"] == top["last_played"] and history_rows[0]["rating"] == top["rating"]
    assert history_rows[0]["matches"] == top["matches"]
    assert [x["day"] for x in history_rows] == sorted((x["day"] for x in history_rows), reverse=True)
    for newer, older in zip(history_rows, history_rows[1:]):
        assert newer["change"] == pytest.approx(newer["rating"] - older["rating"], abs=0.11)
    assert history_rows[-1]["change"] is None or r.json_body["meta"]["next_cursor"]


async def test_the_plan_and_the_parameters(client, plan_keys):
    refused = await client.get("/v1/ratings", plan_keys["free"], discipline="MS")
    assert refused.status_code == 403 and refused.json_body["error"]["plan"] == "archive"
    missing = await client.get("/v1/ratings", plan_keys["archive"])
    assert missing.status_code == 400 and "discipline" in missing.json_body["error"]["message"]
    future = await client.get("/v1/ratings", plan_keys["archive"], discipline="MS", date="2999-01-01")
    assert future.status_code == 422 and "date" in future.json_body["error"]["message"]
    unknown = await client.get("/v1/ratings", plan_keys["archive"], player="pl_nosuchplayer1")
    assert unknown.status_code == 404
    early = await client.get("/v1/ratings", plan_keys["archive"], discipline="MS", date="1890-01-01")
    assert early.status_code == 200 and early.json_body["data"] == [] and early.json_body["meta"]["note"]


@pytest.mark.parametrize("best_first", [True, False])
async def test_the_table_is_the_standings_in_force_read_either_way(
    client, plan_keys, db_url, cut_day, monkeypatch, best_first
):
    """Every page of the table, active or all-time, as on any day, is the standings in force that
    day ranked by rating, with the table's size: whether the page is read best first or by day."""
    from svc.api import ratings

    monkeypatch.setattr(ratings, "reads_best_first", lambda total, field, upto: best_first and total > 0)
    reference = """SELECT player_id, rank() OVER (ORDER BY rating DESC) AS rank, count(*) OVER () AS total
                   FROM rating_days
                   WHERE discipline = $1 AND day < $2 AND (until IS NULL OR until >= $2) AND ($3 OR day >= $2 - 365)
                   ORDER BY rating DESC, player_id"""
    today = NOON.date()
    checked = 0
    for discipline, day in (("MS", today), ("XD", cut_day), ("WD", dt.date(1990, 6, 1)), ("MS", dt.date(1950, 1, 1))):
        for active in (True, False):
            want = sql(db_url, reference, discipline, day, not active)
            for page in (1, 3):
                r = await client.get(
                    "/v1/ratings",
                    plan_keys["archive"],
                    discipline=discipline,
                    date=day.isoformat(),
                    active=str(active).lower(),
                    per_page=20,
                    page=page,
                )
                rows = want[(page - 1) * 20 : page * 20]
                if not rows:
                    assert r.status_code == (200 if page == 1 else 422)
                    continue
                assert r.status_code == 200, r.json_body
                got = [(x["player"]["id"], x["rank"]) for x in r.json_body["data"]]
                assert got == [(w["player_id"], w["rank"]) for w in rows], (discipline, day, active, page)
                assert r.json_body["meta"]["total"] == want[0]["total"]
                checked += 1
    assert checked >= 10


def test_a_player_first_rated_by_the_live_feed_joins_the_all_time_table(db_url):
    """A newcomer's first rated match, settled by the live feed, makes its day the player's first
    (rating_firsts counts the all-time table's size): here a player made new by forgetting them."""

    async def settle_as_new():
        conn = await connect_asyncio(db_url)
        try:
            tx = conn.transaction()
            await tx.start()
            m = await conn.fetchrow("""SELECT id, discipline, day, side1[1] AS player FROM rated_results
                                       WHERE outcome = 'played' ORDER BY day DESC, id LIMIT 1""")
            for table in ("rating_days", "rating_firsts"):
                await conn.execute(
                    f"DELETE FROM {table} WHERE player_id = $1 AND discipline = $2", m["player"], m["discipline"]
                )
            await history.advance(conn, m["id"])
            first = await conn.fetchval(
                "SELECT day FROM rating_firsts WHERE player_id = $1 AND discipline = $2", m["player"], m["discipline"]
            )
            await tx.rollback()
            return m["day"], first
        finally:
            await conn.close()

    played_on, first = run(settle_as_new())
    assert first == played_on


async def test_para_players_are_rated_within_their_classes_never_in_the_able_bodied_table(client, plan_keys, db_url):
    """A para player meets only their own class: rated as "MS WH1", listed with `sport_class`, and
    never in the MS table of able-bodied play, however few matches they have."""
    key = plan_keys["archive"]
    para = {r["id"] for r in sql(db_url, "SELECT id FROM players WHERE sport_class IS NOT NULL")}
    assert para, "the tiny world holds para events"
    day = NOON.date().isoformat()
    for disc in ("MS", "WS", "MD", "WD", "XD"):
        table = await client.get("/v1/ratings", key, discipline=disc, date=day, active="false", per_page=200)
        assert table.status_code == 200
        assert not {r["player"]["id"] for r in table.json_body["data"]} & para, disc
    one = sql(
        db_url,
        """SELECT m.side1[1] AS player, m.sport_class FROM matches m
                         WHERE m.discipline = 'MS' AND m.sport_class IS NOT NULL AND m.status = 'finished'
                           AND m.outcome = 'played' LIMIT 1""",
    )[0]
    table = await client.get(
        "/v1/ratings",
        key,
        discipline="MS",
        sport_class=one["sport_class"].lower(),
        date=day,
        active="false",
        per_page=200,
    )
    assert table.status_code == 200 and table.json_body["meta"]["sport_class"] == one["sport_class"]
    listed = {r["player"]["id"] for r in table.json_body["data"]}
    assert one["player"] in listed and listed <= para
    classes = {
        r["sport_class"] for r in sql(db_url, "SELECT sport_class FROM players WHERE id = ANY($1)", list(listed))
    }
    assert classes == {one["sport_class"]}
    history = await client.get("/v1/ratings", key, player=one["player"], date=day)
    assert {(r["discipline"], r["sport_class"]) for r in history.json_body["data"]} >= {("MS", one["sport_class"])}
    alone = await client.get("/v1/ratings", key, sport_class="WH1")
    assert alone.status_code == 400 and "discipline" in alone.json_body["error"]["message"]


_RATE_IN_A_PROCESS = """
import asyncio, hashlib, sys
from svc.core.db import connect_asyncio
from svc.rating import history

async def main():
    conn = await connect_asyncio(sys.argv[1])
    try:
        model, days, matches, draws = await (await history.begin_rebuild(conn))
    finally:
        await conn.close()
    print(hashlib.sha256(repr((model.to_json(), days, matches, draws)).encode()).hexdigest())

asyncio.run(main())
"""


def test_a_rebuild_rates_the_same_in_every_process(db_url):
    """Two processes with different string hashing (as any two runs of the service have) rate the
    archive to the same last bit: the model, every day, every match's chance, every entry level."""
    digests = set()
    for seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", _RATE_IN_A_PROCESS, db_url],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        digests.add(done.stdout.strip())
    assert len(digests) == 1


def _at_home(players: list[str | None], host: str | None, country: dict[str, str | None]) -> bool:
    """A side is at home when the host country is known, none of its players with a known country
    comes from elsewhere, and at least one comes from the host country."""
    known = [country[p] for p in players if p in country and country[p] is not None]
    return host is not None and bool(known) and all(c == host for c in known)


def test_a_side_is_at_home_when_its_players_come_from_the_host_country(db_url):
    """rated_results' home flags, recounted in Python for every result of the tiny world, and for a
    doubles pair made half, then wholly, of players without a country, and then one of elsewhere."""

    async def check():
        conn = await connect_asyncio(db_url)
        try:
            tx = conn.transaction()
            await tx.start()
            host_of = """SELECT m.id, ci.country AS host FROM matches m JOIN tournaments t ON t.id = m.tournament_id
                         LEFT JOIN cities ci ON ci.id = t.city_id"""

            async def recount() -> tuple[int, int]:
                country = {r["id"]: r["country"] for r in await conn.fetch("SELECT id, country FROM players")}
                host = {r["id"]: r["host"] for r in await conn.fetch(host_of)}
                rows = await conn.fetch("SELECT id, side1, side2, home1, home2 FROM rated_results")
                for r in rows:
                    got = (r["home1"], r["home2"])
                    want = (_at_home(r["side1"], host[r["id"]], country), _at_home(r["side2"], host[r["id"]], country))
                    assert got == want, (r["id"], got, want)
                return len(rows), sum(r["home1"] + r["home2"] for r in rows)

            rows, homes = await recount()
            assert rows > 1000 and homes > 10
            pair = await conn.fetchrow(
                """SELECT r.id, r.side1 FROM rated_results r WHERE r.home1 AND cardinality(r.side1) = 2
                   ORDER BY r.id LIMIT 1"""
            )
            first, second = pair["side1"]
            home = lambda: conn.fetchval("SELECT home1 FROM rated_results WHERE id = $1", pair["id"])  # noqa: E731
            await conn.execute("UPDATE players SET country = NULL WHERE id = $1", second)
            assert await home() is True  # the one whose country is known is from the host country
            elsewhere = await conn.fetchval(
                "SELECT country FROM players WHERE country <> (SELECT country FROM players WHERE id = $1) LIMIT 1",
                first,
            )
            await conn.execute("UPDATE players SET country = $2 WHERE id = $1", second, elsewhere)
            assert await home() is False
            await conn.execute("UPDATE players SET country = NULL WHERE id = ANY($1::text[])", [first, second])
            assert await home() is False  # nobody's country known
            await recount()
            await tx.rollback()
        finally:
            await conn.close()

    run(check())
