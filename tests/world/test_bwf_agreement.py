"""The real world as served agrees with the public BWF files it was built from.

Every expectation here is computed from the shipped CSV files with the csv module alone,
never through the adapters (svc.world.sources): titles of singles champions, finals, head
to head counts, the share of three-game matches, a player's list of matches. Players are
found as a fan would find them, through /v1/search."""

from __future__ import annotations

import csv
import gzip
import io
import os
import re
from collections import Counter
from pathlib import Path

import pytest
from conftest import NOON, Client, drop_database, make_key, new_database, run

from svc.access.plans import prepare_database
from svc.core.clock import Clock
from svc.core.db import connect_asyncio
from svc.world.replace import load_bwf_world

DATA = Path(__file__).resolve().parents[2] / "svc" / "world" / "sources" / "data" / "bwf-world-tour"


def rows(discipline: str) -> list[dict[str, str]]:
    with gzip.open(DATA / f"{discipline}.csv.gz") as raw:
        return list(csv.DictReader(io.TextIOWrapper(raw, encoding="utf-8", newline="")))


def person(name: str, country: str) -> tuple[str, str]:
    """A person as this test tells them apart, independently of the importer: the letters of
    their name in any order and case (so "Yu Qi Shi", "Yuqi SHI" and "SHI Yu Qi" are one), and
    their country."""
    return "".join(sorted(c for c in name.lower() if c.isalpha())), country


@pytest.fixture(scope="module")
def real_url(pg_server_url):
    """A database holding the real world built from the shipped files."""
    name = f"svc_test_bwf_{os.getpid()}"
    url = new_database(pg_server_url, name)

    async def build():
        conn = await connect_asyncio(url)
        try:
            await prepare_database(conn)
            await load_bwf_world(conn)
        finally:
            await conn.close()

    run(build())
    yield url
    drop_database(pg_server_url, name)


@pytest.fixture
async def real(real_url):
    from svc.assembly import create_app

    app = create_app(real_url, clock=Clock(start=NOON), pool_size=4)
    async with app.test_app() as test_app:
        yield Client(test_app.test_client()), make_key(real_url, "live")


async def find(client: Client, key: str, name: str, country: str) -> str:
    """The player's id through /v1/search, the hit of that country whose name has the same parts."""
    r = await client.get("/v1/search", key, q=name, kind="player")
    hits = [h for h in r.json_body["data"] if person(h["name"], h["country"]) == person(name, country)]
    assert len(hits) == 1, (name, r.json_body["data"])
    return hits[0]["id"]


def champions(discipline: str) -> Counter:
    """person -> titles, from the finals the file says were won."""
    won: Counter = Counter()
    for r in rows(discipline):
        if r["round"] == "Final" and r["winner"] in ("1", "2"):
            side = "team_one" if r["winner"] == "1" else "team_two"
            won[person(r[f"{side}_players"], r[f"{side}_nationalities"])] += 1
    return won


async def test_singles_champions_have_their_titles(real):
    client, key = real
    for discipline in ("MS", "WS"):
        names = {person(r[f"{s}_players"], r[f"{s}_nationalities"]): (r[f"{s}_players"], r[f"{s}_nationalities"])
                 for r in rows(discipline.lower()) for s in ("team_one", "team_two")}
        for who, titles in champions(discipline.lower()).most_common(6):
            name, country = names[who]
            pid = await find(client, key, name, country)
            meta = (await client.get(f"/v1/players/{pid}/titles", key)).json_body["meta"]
            assert meta["by_discipline"][discipline]["titles"] == titles, (name, meta)


async def test_every_final_of_the_files_is_a_final(real):
    client, key = real
    for discipline in ("ms", "ws", "md", "wd", "xd"):
        finals = sum(1 for r in rows(discipline) if r["round"] == "Final")
        r = await client.get("/v1/matches", key, round="F", discipline=discipline.upper(), per_page=1)
        assert r.json_body["meta"]["total"] == finals, discipline


async def test_head_to_head_counts_the_meetings_of_the_files(real):
    client, key = real
    meetings: Counter = Counter()
    wins: Counter = Counter()
    spelt: dict[tuple[str, str], tuple[str, str]] = {}
    for r in rows("ms"):
        a = person(r["team_one_players"], r["team_one_nationalities"])
        b = person(r["team_two_players"], r["team_two_nationalities"])
        spelt[a], spelt[b] = (r["team_one_players"], r["team_one_nationalities"]), (r["team_two_players"], r["team_two_nationalities"])
        pair = tuple(sorted((a, b)))
        meetings[pair] += 1
        if r["winner"] in ("1", "2"):
            wins[(pair, a if r["winner"] == "1" else b)] += 1
    for (p1, p2), n in meetings.most_common(5):
        id1, id2 = await find(client, key, *spelt[p1]), await find(client, key, *spelt[p2])
        h2h = (await client.get("/v1/h2h", key, player1=id1, player2=id2)).json_body["data"]
        assert h2h["meetings"] == n, (p1, p2)
        assert h2h["player1"]["wins"] == wins[((p1, p2), p1)] and h2h["player2"]["wins"] == wins[((p1, p2), p2)]


async def test_the_share_of_three_game_matches(real):
    client, key = real
    played = three = 0
    for discipline in ("ms", "ws", "md", "wd", "xd"):
        for r in rows(discipline):
            if r["retired"] == "False" and r["nb_sets"] in ("2", "3"):
                played += 1
                three += r["nb_sets"] == "3"
    periods = (await client.get("/v1/analysis/deciders", key)).json_body["data"]
    assert sum(p["matches"] for p in periods) == played
    assert sum(p["three_game_matches"] for p in periods) == three


async def test_a_players_matches_are_the_files_rows(real):
    client, key = real
    expected = sorted(r["date"][6:] + r["date"][3:5] + r["date"][:2] for r in rows("ms")
                      if "Viktor Axelsen" in (r["team_one_players"], r["team_two_players"]))
    pid = await find(client, key, "Viktor Axelsen", "DEN")
    got = []
    page = await client.get(f"/v1/players/{pid}/matches", key, per_page=200)
    got += [m["date"].replace("-", "") for m in page.json_body["data"]]
    assert page.json_body["meta"]["total"] == len(expected) and sorted(got) == expected


async def test_what_the_real_world_lacks_is_said_not_failed(real):
    client, key = real
    for path in ("/v1/fixtures", "/v1/live", "/v1/results/yesterday", "/v1/venues", "/v1/calendar"):
        r = await client.get(path, key)
        assert r.status_code == 200 and r.json_body["data"] == [], path
        assert "no odds, no live play" in r.json_body["meta"]["note"], path
    match = (await client.get("/v1/matches", key, per_page=1)).json_body["data"][0]["id"]
    unpriced = await client.get(f"/v1/odds/{match}", key)
    assert unpriced.status_code == 404 and "no prices" in unpriced.json_body["error"]["message"]
    bets = (await client.get("/v1/backtest", key, strategy="favourite")).json_body["data"]
    assert bets["bets"] == 0 and bets["strike_rate"] is None
    full = await client.get("/v1/series", key)
    assert full.json_body["data"] and "note" not in full.json_body["meta"]  # only empty answers carry it


async def test_the_calendar_lists_every_event_of_its_file_with_cancelled_ones_marked(real):
    client, key = real
    with gzip.open(DATA.parent / "bwf-world-ranking" / "tournaments.csv.gz") as raw:
        events = list(csv.DictReader(io.TextIOWrapper(raw, encoding="utf-8", newline="")))
    def label(e):  # the edition's year as its name gives it (docs/bundle.md), else its first day's
        years = re.findall(r"\b20\d\d\b", e["name"])
        return int(years[-1]) if years else int(e["start_date"][-4:])

    for year in (2023, 2024):
        of_year = [e for e in events if label(e) == year]
        got = (await client.get("/v1/calendar", key, year=year)).json_body["data"]
        assert len(got) == len(of_year), year
        assert sum(e["cancelled"] for e in got) == sum("cancel" in e["name"].lower() for e in of_year), year
        assert all("cancel" not in e["name"].lower() for e in got)  # the mark is a field, not part of the name
        juniors = sum(1 for e in of_year if "junior" in (e["name"] + e["type"]).lower())
        assert sum(e["level"] == "junior" for e in got) >= juniors


async def test_the_own_rating_reads_the_real_results(real):
    """The rating of the real world is the one a fan expects: Kento Momota, world number one through
    2019, heads the men's singles table at the start of 2021, and the model's held-out figures are
    those of the 2020 matches after training on 2018-2019."""
    client, key = real
    table = await client.get("/v1/ratings", key, discipline="MS", date="2021-01-01", per_page=5)
    assert table.status_code == 200
    assert table.json_body["data"][0]["player"]["name"] == "Kento MOMOTA"
    held_out = table.json_body["meta"]["model"]["held_out"]
    assert held_out["from_season"] == 2020 and held_out["matches"] > 1000 and held_out["accuracy"] > 0.7
    momota = await find(client, key, "Kento MOMOTA", "JPN")
    axelsen = await find(client, key, "Viktor AXELSEN", "DEN")
    said = await client.get("/v1/predict", key, player1=momota, player2=axelsen, date="2020-01-01")
    assert said.status_code == 200 and said.json_body["data"]["side1"]["chance"] > 0.5
    assert said.json_body["data"]["head_to_head"]["meetings"] >= 3
    upsets = await client.get("/v1/analysis/upsets", key, by="rating", limit=3)
    assert upsets.status_code == 200 and len(upsets.json_body["data"]) >= 3
    unpriced = await client.get("/v1/analysis/upsets", key, by="price")
    assert unpriced.status_code == 200 and unpriced.json_body["data"] == [] and unpriced.json_body["meta"]["note"]
