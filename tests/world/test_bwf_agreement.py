"""The real world as served agrees with the public BWF files and the public record it was built from.

Every expectation here is computed from the shipped CSV files with the csv module alone,
never through the adapters (svc.world.sources): titles of singles champions, finals, head
to head counts, the share of three-game matches, a player's list of matches; the World
Championships' roll of honour, the Thomas and Uber Cups' winners and the countries' titles
from the record. Players are found as a fan would find them, through /v1/search."""

from __future__ import annotations

import csv
import gzip
import io
import os
import re
import unicodedata
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from svc.access.plans import prepare_database
from svc.core.clock import Clock
from svc.core.db import connect_asyncio
from svc.world.replace import import_bundle
from tests.support import NOON, Client, drop_database, make_key, new_database, run

DATA = Path(__file__).resolve().parents[2] / "svc" / "world" / "sources" / "data" / "bwf-world-tour"
RECORD = DATA.parent / "record"
# The record's country names (of the time) as IOC codes, written out here rather than taken from
# the importer's mapping (svc.world.sources.countries), which this test checks.
NATIONS = {
    "Canada": "CAN",
    "China": "CHN",
    "Chinese Taipei": "TPE",
    "Denmark": "DEN",
    "England": "ENG",
    "France": "FRA",
    "Germany": "GER",
    "Hong Kong": "HKG",
    "India": "IND",
    "Indonesia": "INA",
    "Japan": "JPN",
    "Malaysia": "MAS",
    "Netherlands": "NED",
    "New Zealand": "NZL",
    "Scotland": "SCO",
    "Singapore": "SGP",
    "South Korea": "KOR",
    "Spain": "ESP",
    "Sweden": "SWE",
    "Thailand": "THA",
    "United States": "USA",
    "Vietnam": "VIE",
}
# The record's README: the 1983 mixed doubles champions were a pair of two nations, Thomas Kihlström
# of Sweden with Nora Perry of England; the file gives the pair one country.
OWN_NATION = {(1983, "mixed_doubles", "Nora Perry"): "ENG"}
DISCIPLINE = {
    "mens_singles": "MS",
    "womens_singles": "WS",
    "mens_doubles": "MD",
    "womens_doubles": "WD",
    "mixed_doubles": "XD",
}


def rows(discipline: str) -> list[dict[str, str]]:
    with gzip.open(DATA / f"{discipline}.csv.gz") as raw:
        return list(csv.DictReader(io.TextIOWrapper(raw, encoding="utf-8", newline="")))


def words(name: str) -> list[str]:
    plain = unicodedata.normalize("NFKD", name.lower().replace("ø", "o").replace("æ", "ae"))
    return re.findall(r"[a-z]+", plain.encode("ascii", "ignore").decode())


def person(name: str, country: str) -> tuple[str, str]:
    """A person as this test tells them apart, independently of the importer: the letters of
    their name in any order, case and accents (so "Yu Qi Shi", "Yuqi SHI" and "SHI Yu Qi" are
    one, and "Carolina Marín" is "Carolina MARIN"), and their country."""
    return "".join(sorted("".join(words(name)))), country


def same(written: tuple[str, str], served: tuple[str, str]) -> bool:
    """Whether a (name, nation) of the record is one served: the same person() (letters and
    nation), or a name the record writes with initials ("P. V. Sindhu") whose full words are the
    served name's and whose initials begin its other words ("PUSARLA V. Sindhu")."""
    if person(*written) == person(*served):
        return True
    if written[1] != served[1]:
        return False
    mine, theirs = words(written[0]), words(served[0])
    initials = sorted(w for w in mine if len(w) == 1)
    rest = list(theirs)
    for w in (w for w in mine if len(w) > 1):
        if w not in rest:
            return False
        rest.remove(w)
    return bool(initials) and len(mine) == len(theirs) and sorted(w[0] for w in rest) == initials


def record_rows(name: str) -> list[dict[str, str]]:
    with open(RECORD / name, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def medallists(row: dict[str, str]) -> list[tuple[str, str]]:
    """The people of a row of the World Championships file: (name as written, their nation)."""
    year = int(row["year"])
    return [
        (n, OWN_NATION.get((year, row["discipline_key"], n), NATIONS[row["country_name"]]))
        for n in row["participant_name"].split(" / ")
    ]


def record_finals() -> list[tuple[int, str, list[tuple[str, str]], list[tuple[str, str]]]]:
    """(year, discipline, gold side, silver side) of every World Championships final on record."""
    podium: dict[tuple[int, str], dict[str, list]] = defaultdict(dict)
    for r in record_rows("world-championships-podiums.csv"):
        if r["medal"] in ("gold", "silver"):
            podium[(int(r["year"]), DISCIPLINE[r["discipline_key"]])][r["medal"]] = medallists(r)
    return [(y, d, p["gold"], p["silver"]) for (y, d), p in sorted(podium.items())]


@pytest.fixture(scope="module")
def real_url(pg_server_url, shipped_bwf_bundle):
    """A database holding the real world built from the shipped files (as `load_bwf_world` loads it:
    the bundle of the shipped files, imported)."""
    name = f"svc_test_bwf_{os.getpid()}"
    url = new_database(pg_server_url, name)

    async def build():
        conn = await connect_asyncio(url)
        try:
            await prepare_database(conn)
            await import_bundle(conn, shipped_bwf_bundle)
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
    """The files' titles of the six most titled singles players, and their World titles on record."""
    client, key = real
    finals = record_finals()
    for discipline in ("MS", "WS"):
        names = {
            person(r[f"{s}_players"], r[f"{s}_nationalities"]): (r[f"{s}_players"], r[f"{s}_nationalities"])
            for r in rows(discipline.lower())
            for s in ("team_one", "team_two")
        }
        for who, titles in champions(discipline.lower()).most_common(6):
            name, country = names[who]
            pid = await find(client, key, name, country)
            meta = (await client.get(f"/v1/players/{pid}/titles", key)).json_body["meta"]
            world_titles = sum(1 for _y, d, gold, _s in finals if d == discipline and same(gold[0], (name, country)))
            assert meta["by_discipline"][discipline]["titles"] == titles + world_titles, (name, meta)


async def test_every_final_of_the_files_and_the_record_is_a_final(real):
    client, key = real
    on_record = Counter(d for _y, d, _g, _s in record_finals())
    for discipline in ("ms", "ws", "md", "wd", "xd"):
        finals = sum(1 for r in rows(discipline) if r["round"] == "Final")
        r = await client.get("/v1/matches", key, round="F", discipline=discipline.upper(), per_page=1)
        assert r.json_body["meta"]["total"] == finals + on_record[discipline.upper()], discipline


async def test_head_to_head_counts_the_meetings_of_the_files(real):
    client, key = real
    meetings: Counter = Counter()
    wins: Counter = Counter()
    spelt: dict[tuple[str, str], tuple[str, str]] = {}
    for r in rows("ms"):
        a = person(r["team_one_players"], r["team_one_nationalities"])
        b = person(r["team_two_players"], r["team_two_nationalities"])
        spelt[a], spelt[b] = (
            (r["team_one_players"], r["team_one_nationalities"]),
            (r["team_two_players"], r["team_two_nationalities"]),
        )
        pair = tuple(sorted((a, b)))
        meetings[pair] += 1
        if r["winner"] in ("1", "2"):
            wins[(pair, a if r["winner"] == "1" else b)] += 1
    for _year, _discipline, (gold,), (silver,) in (f for f in record_finals() if f[1] == "MS"):  # World finals
        pair = tuple(sorted((person(*gold), person(*silver))))
        if pair in meetings:  # two players of the files who also met in a World final
            meetings[pair] += 1
            wins[(pair, person(*gold))] += 1
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
    """Viktor Axelsen's matches: the files' rows, with their days, and his World finals on record,
    without a day (the record holds none for 2017 and 2022)."""
    client, key = real
    expected = sorted(
        r["date"][6:] + r["date"][3:5] + r["date"][:2]
        for r in rows("ms")
        if "Viktor Axelsen" in (r["team_one_players"], r["team_two_players"])
    )
    world_finals = sum(1 for _y, _d, gold, silver in record_finals() if ("Viktor Axelsen", "DEN") in gold + silver)
    pid = await find(client, key, "Viktor Axelsen", "DEN")
    page = await client.get(f"/v1/players/{pid}/matches", key, per_page=200)
    got = [m["date"].replace("-", "") for m in page.json_body["data"] if m["date"]]
    assert page.json_body["meta"]["total"] == len(expected) + world_finals and sorted(got) == expected
    assert world_finals == 2


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

    # the record's Thomas and Uber Cups are editions of their own; the file lists both as one event
    cups = Counter(int(r["year"]) for r in record_rows("thomas-uber-cup-podiums-2002-2024.csv") if r["rank"] == "1")
    for year in (2023, 2024):
        of_year = [e for e in events if label(e) == year]
        got = (await client.get("/v1/calendar", key, year=year)).json_body["data"]
        assert len(got) == len(of_year) + cups[year], year
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


# -- the public record --------------------------------------------------------------------------


async def test_the_world_championships_roll_of_honour_is_the_records(real):
    """Every edition 1977-2025 of the record, and each discipline's gold and silver medallists, names
    and nations, as /v1/series/world-championships/champions answers them."""
    client, key = real
    r = await client.get("/v1/series/world-championships/champions", key)
    assert r.status_code == 200
    roll = {e["year"]: e for e in r.json_body["data"]}
    finals = record_finals()
    assert sorted(roll) == sorted({y for y, *_ in finals}) and len(roll) == 29
    for year, discipline, gold, silver in finals:
        entry = roll[year]
        for side, served in ((gold, entry["champions"][discipline]), (silver, entry["runners_up"][discipline])):
            assert len(served) == len(side) and all(same(w, (p["name"], p["country"])) for w, p in zip(side, served)), (
                year,
                discipline,
                side,
                served,
            )
        assert entry["tournament"]["name"] == f"World Championships {year}"
    assert "29 of these editions" in r.json_body["meta"]["note"]  # no scores or draws: said


async def test_the_world_finalists_of_the_files_have_their_world_finals(real):
    """Every World Championships finalist who is a person of the match files (the same letters of
    the name and nation, this test's own matching) is that person: their /titles hold their World
    finals, as many as the record gives them."""
    client, key = real
    spelt: dict[tuple[str, str], tuple[str, str]] = {}
    for discipline in ("ms", "ws", "md", "wd", "xd"):
        for r in rows(discipline):
            for side in ("team_one", "team_two"):
                if f"{side}_players" in r:  # singles
                    named = [(r[f"{side}_players"], r[f"{side}_nationalities"])]
                else:
                    named = [(r[f"{side}_player_{n}"], r[f"{side}_player_{n}_nationality"]) for n in ("one", "two")]
                for name, nation in named:
                    spelt.setdefault(person(name, nation), (name, nation))
    finals: Counter = Counter()
    for _year, _discipline, gold, silver in record_finals():
        for name, nation in gold + silver:
            if person(name, nation) in spelt:
                finals[person(name, nation)] += 1
    assert len(finals) >= 60  # the finalists of 2005-2025 who played the World Tour of 2018-2020
    for who, n in sorted(finals.items()):
        pid = await find(client, key, *spelt[who])
        titles = (await client.get(f"/v1/players/{pid}/titles", key)).json_body["data"]
        assert sum(t["tournament"]["name"].startswith("World Championships") for t in titles) == n, spelt[who]


async def test_the_thomas_and_uber_cups_are_won_as_on_record(real):
    client, key = real
    podium: dict[tuple[str, int], dict[str, str]] = defaultdict(dict)
    for row in record_rows("thomas-uber-cup-podiums-2002-2024.csv"):
        podium[(row["competition_id"], int(row["year"]))][row["rank"]] = NATIONS[row["country_name"]]
    for series, competition in (("thomas-cup", "bwf_thomas_cup"), ("uber-cup", "bwf_uber_cup")):
        r = await client.get(f"/v1/series/{series}/champions", key)
        assert r.status_code == 200
        got = {e["year"]: (e["winner_team"]["code"], e["runner_up_team"]["code"]) for e in r.json_body["data"]}
        expected = {y: (p["1"], p["2"]) for (c, y), p in podium.items() if c == competition}
        assert got == expected and sorted(got) == list(range(2002, 2025, 2)), series
        assert "12 of these editions" in r.json_body["meta"]["note"]


async def test_axelsens_titles_include_his_world_titles(real):
    client, key = real
    pid = await find(client, key, "Viktor Axelsen", "DEN")
    r = await client.get(f"/v1/players/{pid}/titles", key)
    worlds = {
        t["tournament"]["year"]: t for t in r.json_body["data"] if t["tournament"]["name"].startswith("World Champ")
    }
    assert sorted(worlds) == [2017, 2022] and all(t["result"] == "W" and t["games"] == [] for t in worlds.values())
    assert person(worlds[2017]["opponents"][0]["name"], "CHN") == person("Lin Dan", "CHN")
    assert "2 of these finals" in r.json_body["meta"]["note"]
    match = await client.get(f"/v1/matches/{worlds[2022]['match']}", key)  # the final's id answers
    assert match.status_code == 200


def retirement_winner(r: dict[str, str]) -> str:
    """The side a final that ended in a retirement goes to, by the README's rule (no later round):
    the side ahead on games won, then on points of the game play stopped in."""
    games = [tuple(int(x) for x in r[f"game_{i}_score"].split("-")) for i in (1, 2, 3) if r[f"game_{i}_score"]]
    won1 = sum(1 for a, b in games if a > b and a >= 21)
    won2 = sum(1 for a, b in games if b > a and b >= 21)
    last = games[-1] if games else (0, 0)
    return "1" if (won1, last[0]) > (won2, last[1]) else "2"


async def test_the_countries_count_the_world_titles(real):
    """A nation's titles are its finals won in the files and its World golds on record, a pair of two
    nations counted for each of them (Kihlström of Sweden and Perry of England, 1983)."""
    client, key = real
    won = Counter()
    for discipline in ("ms", "ws", "md", "wd", "xd"):
        for r in rows(discipline):
            if r["round"] != "Final":
                continue
            side = "team_one" if (r["winner"] if r["winner"] != "0" else retirement_winner(r)) == "1" else "team_two"
            for nation in {
                v for k, v in r.items() if k.startswith(side) and k.endswith(("nationalities", "nationality"))
            }:
                won[(nation, discipline.upper())] += 1
    for _year, discipline, gold, _silver in record_finals():
        for nation in {country for _name, country in gold}:
            won[(nation, discipline)] += 1
    for nation in sorted({n for n, _d in won} & set(NATIONS.values())):
        body = (await client.get(f"/v1/countries/{nation}", key)).json_body["data"]
        expected = {d: won[(nation, d)] for d in ("MS", "WS", "MD", "WD", "XD")}
        assert body["titles_by_discipline"] == expected, nation
