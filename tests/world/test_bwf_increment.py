"""Increments of real results (svc import --increment): a later tournament and a corrected
score go into the world a database holds, in one transaction while the app serves; the
correction fires result.corrected like the live feed's; players keep their ids; the same
increment twice changes nothing."""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import os
from pathlib import Path

import pytest
import trio

from svc.access.plans import prepare_database
from svc.core.clock import Clock
from svc.core.db import connect_asyncio
from svc.world.replace import load_bwf_world
from svc.world.sources.increment import apply_increment
from tests.support import NOON, Client, drop_database, make_key, new_database, run, sql

SLICE = Path(__file__).with_name("data") / "bwf-slice"
SHIPPED = Path(__file__).resolve().parents[2] / "svc" / "world" / "sources" / "data" / "bwf-world-tour"
LATER = "Macau Open 2019"  # not in the slice: a later tournament arriving as an increment


def shipped_rows(discipline: str) -> list[dict[str, str]]:
    with gzip.open(SHIPPED / f"{discipline}.csv.gz") as raw:
        return list(csv.DictReader(io.TextIOWrapper(raw, encoding="utf-8", newline="")))


@pytest.fixture(scope="module")
def increment(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """ms.csv with the Macau Open 2019 and the All England 2020 final, its second game now 16-21;
    md.csv with the All England 2020 men's doubles final as held."""
    folder = tmp_path_factory.mktemp("increment")
    rows = shipped_rows("ms")
    final = dict(next(r for r in rows if r["tournament"] == "YONEX All England Open 2020" and r["round"] == "Final"))
    assert final["game_2_score"] == "14-21"  # as published
    final["game_2_score"], final["game_2_scores"] = "16-21", ""  # corrected; the rally list no longer applies
    later = [r for r in rows if r["tournament"] == LATER]
    with open(folder / "ms.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, list(rows[0].keys()))
        w.writeheader()
        w.writerows([final, *later])
    # a doubles match held already, sent again as the file has it (side two's second player lost):
    # its partner comes from what the database holds, so it is the same match, not a new one
    doubles = shipped_rows("md")
    again = next(r for r in doubles if r["tournament"] == "YONEX All England Open 2020" and r["round"] == "Final")
    assert again["team_two_player_one"] == again["team_two_player_two"]
    with open(folder / "md.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, list(doubles[0].keys()))
        w.writeheader()
        w.writerow(again)
    return folder, final


@pytest.fixture(scope="module")
def slice_url(pg_server_url):
    """A database holding the world built from the test slice."""
    name = f"svc_test_increment_{os.getpid()}"
    url = new_database(pg_server_url, name)

    async def build():
        conn = await connect_asyncio(url)
        try:
            await prepare_database(conn)
            await load_bwf_world(conn, source=SLICE)
        finally:
            await conn.close()

    run(build())
    yield url
    drop_database(pg_server_url, name)


def applied(url: str, folder: Path):
    """The increment as `svc import --increment` applies it: on its own asyncio connection."""

    async def go():
        conn = await connect_asyncio(url)
        try:
            return await apply_increment(conn, folder, dt.datetime(2026, 11, 23, 9, tzinfo=dt.UTC))
        finally:
            await conn.close()

    return run(go())


async def apply(url: str, folder: Path):
    """The increment applied in a thread of its own while the app under test goes on serving on Trio."""
    return await trio.to_thread.run_sync(lambda: applied(url, folder))


def counts(url: str) -> dict[str, int]:
    return {
        t: sql(url, f"SELECT count(*) AS n FROM {t}")[0]["n"]
        for t in ("matches", "players", "tournaments", "corrections", "match_events", "rallies")
    }


async def test_an_increment_loads_while_serving_corrects_and_is_applied_once(slice_url, increment):
    folder, final = increment
    from svc.assembly import create_app

    app = create_app(slice_url, clock=Clock(start=NOON), pool_size=2, cache=True)
    async with app.test_app() as test_app:
        client = Client(test_app.test_client())
        key = make_key(slice_url, "live")
        axelsen = (await client.get("/v1/search", key, q="axelsen", kind="player")).json_body["data"][0]["id"]
        ae = (await client.get("/v1/tournaments", key, series="all-england")).json_body["data"][0]["id"]
        held_final = (await client.get("/v1/matches", key, tournament=ae, round="F", discipline="MS")).json_body[
            "data"
        ][0]
        assert held_final["games"][1] in ([21, 14], [14, 21])
        assert not (await client.get("/v1/search", key, q="macau", kind="tournament")).json_body["data"]
        before = counts(slice_url)

        report = await apply(slice_url, folder)  # the app keeps serving meanwhile (its cache included)

        later_rows = sum(1 for r in shipped_rows("ms") if r["tournament"] == LATER)
        assert (report.matches_added, report.matches_corrected, report.editions_added) == (later_rows, 1, 1)
        assert report.matches_unchanged == 1  # the doubles final, its pair rebuilt from what is held
        # the new edition and its matches show in the endpoints that hold them
        macau = (await client.get("/v1/tournaments", key, series="macau-open")).json_body["data"]
        assert [t["name"] for t in macau] == [LATER]
        listed = await client.get("/v1/matches", key, tournament=macau[0]["id"], per_page=1)
        assert listed.json_body["meta"]["total"] == later_rows
        # the correction: the new score served, the old one kept, result.corrected written for webhooks
        fixed = (await client.get(f"/v1/matches/{held_final['id']}", key)).json_body["data"]
        assert fixed["games"][1] in ([21, 16], [16, 21])
        old = sql(slice_url, "SELECT old_g1, old_g2 FROM corrections WHERE match_id = $1", held_final["id"])
        assert len(old) == 1 and sorted([old[0]["old_g1"][1], old[0]["old_g2"][1]]) == [14, 21]
        events = sql(slice_url, "SELECT type FROM match_events WHERE match_id = $1", held_final["id"])
        assert [e["type"] for e in events] == ["result.corrected"]
        # players already held keep their ids
        again = (await client.get("/v1/search", key, q="axelsen", kind="player")).json_body["data"][0]["id"]
        assert again == axelsen
        assert (await client.get(f"/v1/players/{axelsen}/titles", key)).json_body["meta"]["titles"] >= 1

    after = counts(slice_url)
    assert after["matches"] == before["matches"] + later_rows and after["tournaments"] == before["tournaments"] + 1
    twice = await apply(slice_url, folder)
    assert (twice.matches_added, twice.matches_corrected, twice.editions_added, twice.players_added) == (0, 0, 0, 0)
    assert twice.matches_unchanged == later_rows + 2 and twice.derived_rebuilt == []
    assert counts(slice_url) == after


async def test_a_week_of_rankings_is_added_once(slice_url, tmp_path):
    week = tmp_path / "2025-02-03"
    week.mkdir()
    with gzip.open(SHIPPED.parent / "bwf-world-ranking" / "2025-01-06" / "MS.csv.gz") as raw:
        lines = io.TextIOWrapper(raw, encoding="utf-8").read().splitlines()[:21]  # the header and the top 20
    (week / "MS.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    first = await apply(slice_url, tmp_path)
    assert first.ranking_rows_added == 20 and "61_player_rankings" in first.derived_rebuilt
    held = sql(slice_url, "SELECT count(*) AS n, count(player1) AS ids FROM rankings WHERE week = '2025-02-03'")[0]
    assert held["n"] == held["ids"] == 20
    again = await apply(slice_url, tmp_path)
    assert again.ranking_rows_added == 0 and again.derived_rebuilt == []
