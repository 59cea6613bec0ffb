"""Archive editions on the tiny world: /v1/tournaments, /v1/tournaments/{id}, /draw, /ties and
/v1/series/{slug}/champions; agreements between them."""

from __future__ import annotations

import math

import pytest

from tests.support import NOON, make_key, sql, walk

TODAY = NOON.date()
ORDER = ["R128", "R64", "R32", "R16", "QF", "SF", "3P", "F"]


@pytest.fixture
def key(db_url):
    return make_key(db_url, "archive")  # its own per-minute allowance for each test


def edition(db_url, where: str, *args) -> str:
    """The newest complete edition matching `where`."""
    rows = sql(
        db_url,
        f"SELECT t.id FROM tournaments t WHERE t.end_date < $1 AND {where} ORDER BY t.year DESC, t.id LIMIT 1",
        TODAY,
        *args,
    )
    assert rows, where
    return rows[0]["id"]


def rank(code):
    return (0,) if code is None else (1, ORDER.index(code))


# -- plans and bad input ----------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        "/v1/tournaments",
        "/v1/tournaments/tr_x",
        "/v1/tournaments/tr_x/draw?discipline=MS",
        "/v1/tournaments/tr_x/ties",
        "/v1/series/all-england/champions",
    ],
)
async def test_a_free_key_is_asked_to_upgrade_to_archive(client, plan_keys, path):
    r = await client.get(path, plan_keys["free"])
    assert r.status_code == 403 and r.json_body["error"]["plan"] == "archive"


async def test_bad_parameters_name_the_parameter(client, key, db_url):
    tid = edition(db_url, "NOT t.para AND NOT t.team")
    cases = [
        ("/v1/tournaments", dict(year=1800), 422, "year"),
        ("/v1/tournaments", dict(level="amateur"), 422, "level"),
        ("/v1/tournaments", dict(series="no-such-series"), 422, "series"),
        ("/v1/tournaments", dict(series="Not A Slug!"), 400, "series"),
        ("/v1/tournaments", dict(page=0), 422, "page"),
        (f"/v1/tournaments/{tid}/draw", {}, 400, "discipline"),
        (f"/v1/tournaments/{tid}/draw", dict(discipline="XX"), 422, "discipline"),
        (f"/v1/tournaments/{tid}/draw", dict(discipline="MS", sport_class="WH1"), 422, "sport_class"),
        (f"/v1/tournaments/{tid}/draw", dict(discipline="MS", sport_class="WH1--"), 400, "sport_class"),
        (f"/v1/tournaments/{tid}/ties", dict(stage="Group Z"), 422, "stage"),
        ("/v1/series/all-england/champions", dict(discipline="MX"), 422, "discipline"),
        ("/v1/series/thomas-cup/champions", dict(discipline="MS"), 422, "discipline"),
    ]
    for path, params, status, name in cases:
        r = await client.get(path, key, **params)
        assert r.status_code == status, (path, params, r.json_body)
        assert name in r.json_body["error"]["message"], (path, params)


async def test_unknown_ids_answer_404(client, key):
    for path in (
        "/v1/tournaments/tr_nosuchthing",
        "/v1/tournaments/tr_nosuchthing/draw?discipline=MS",
        "/v1/tournaments/tr_nosuchthing/ties",
        "/v1/series/no-such-series/champions",
    ):
        assert (await client.get(path, key)).status_code == 404, path
    assert (await client.get("/v1/tournaments/mt_wrongkind", key)).status_code == 400


# -- /v1/tournaments ----------------------------------------------------------------------
async def test_tournaments_newest_first_every_started_edition_once(client, key, db_url):
    items, meta = await walk(client, key, "/v1/tournaments", 8)
    ids = [t["id"] for t in items]
    assert len(ids) == len(set(ids)) == meta["total"]
    started = sql(db_url, "SELECT id FROM tournaments WHERE start_date IS NULL OR start_date <= $1", TODAY)
    assert set(ids) == {r["id"] for r in started}
    keys = [(t["year"], t["start"] or "") for t in items]
    assert keys == sorted(keys, reverse=True)
    for t in items:
        assert set(t) >= {"id", "series", "name", "year", "level", "disciplines", "matches"}
        assert t["level"] in ("senior", "junior")
        assert t["disciplines"] == [d for d in ("MS", "WS", "MD", "WD", "XD") if d in t["disciplines"]]


async def test_tournaments_of_a_series_are_its_editions(client, key):
    series = (await client.get("/v1/series", key)).json_body["data"]
    for s in series[:4]:
        items, meta = await walk(client, key, "/v1/tournaments", 50, series=s["series"])
        assert meta["total"] == s["editions"], s["series"]
        assert {t["series"] for t in items} <= {s["series"]}
        if items:
            assert items[0]["year"] == s["last_year"]


async def test_tournaments_filters(client, key):
    para = (await client.get("/v1/tournaments", key, level="para", per_page=200)).json_body["data"]
    assert para and all(t["para"] for t in para)
    senior = (await client.get("/v1/tournaments", key, level="senior", per_page=200)).json_body["data"]
    assert senior and all(t["level"] == "senior" and not t["para"] for t in senior)
    year = para[0]["year"]
    that_year = (await client.get("/v1/tournaments", key, year=year, per_page=200)).json_body["data"]
    assert that_year and {t["year"] for t in that_year} == {year}


# -- /v1/tournaments/{id} -----------------------------------------------------------------
async def test_tournament_rounds_agree_with_the_list_and_the_draws(client, key, db_url):
    tid = edition(db_url, "NOT t.para AND NOT t.team")
    item = next(t for t in (await walk(client, key, "/v1/tournaments", 200))[0] if t["id"] == tid)
    r = await client.get(f"/v1/tournaments/{tid}", key)
    assert r.status_code == 200
    t = r.json_body["data"]
    assert {k: t[k] for k in item} == item
    assert sum(x["matches"] for rounds in t["rounds"].values() for x in rounds) == t["matches"]
    assert list(t["rounds"]) == t["disciplines"]
    for discipline, rounds in t["rounds"].items():
        assert [rank(x["round_code"]) for x in rounds] == sorted(rank(x["round_code"]) for x in rounds)
        drawn = (await client.get(f"/v1/tournaments/{tid}/draw", key, discipline=discipline)).json_body["data"]
        assert len(drawn) == sum(x["matches"] for x in rounds)


async def test_podium_without_bronze_match_gives_both_losing_semifinalists(client, key, db_url):
    tid = edition(
        db_url,
        "t.medals AND NOT t.para AND NOT EXISTS (SELECT 1 FROM matches m "
        "WHERE m.tournament_id = t.id AND m.round_code = '3P')",
    )
    podium = (await client.get(f"/v1/tournaments/{tid}", key)).json_body["data"]["podium"]
    assert [p["event"] for p in podium] == ["MS", "WS", "MD", "WD", "XD"][: len(podium)] and podium
    for p in podium:
        drawn = (await client.get(f"/v1/tournaments/{tid}/draw", key, discipline=p["discipline"])).json_body["data"]
        final = next(m for m in drawn if m["round_code"] == "F")
        assert p["gold"] == final[f"side{final['winner']}"]["players"]
        assert p["silver"] == final[f"side{3 - final['winner']}"]["players"]
        semis = [m for m in drawn if m["round_code"] == "SF"]
        losers = [m[f"side{3 - m['winner']}"]["players"] for m in semis]
        assert len(p["bronze"]) == 2 and sorted(map(str, p["bronze"])) == sorted(map(str, losers))
        assert p["fourth"] is None


async def test_podium_with_bronze_match_gives_its_winner_bronze_and_loser_fourth(client, key, db_url):
    tid = edition(
        db_url, "t.medals AND EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.id AND m.round_code = '3P')"
    )
    podium = (await client.get(f"/v1/tournaments/{tid}", key)).json_body["data"]["podium"]
    assert podium
    for p in podium:
        drawn = (await client.get(f"/v1/tournaments/{tid}/draw", key, discipline=p["discipline"])).json_body["data"]
        bronze_match = next(m for m in drawn if m["round_code"] == "3P")
        assert p["bronze"] == [bronze_match[f"side{bronze_match['winner']}"]["players"]]
        assert p["fourth"] == bronze_match[f"side{3 - bronze_match['winner']}"]["players"]


async def test_podium_is_empty_without_a_medal_table(client, key, db_url):
    tid = edition(db_url, "NOT t.medals AND NOT t.team")
    t = (await client.get(f"/v1/tournaments/{tid}", key)).json_body["data"]
    assert t["medals"] is False and t["podium"] == [] and t["matches"] > 0


# -- /v1/tournaments/{id}/draw ------------------------------------------------------------
async def test_draw_runs_first_round_to_final_and_winners_advance(client, key, db_url):
    tid = edition(db_url, "NOT t.para AND NOT t.team AND t.draw_size >= 8")
    drawn = (await client.get(f"/v1/tournaments/{tid}/draw", key, discipline="MS")).json_body["data"]
    codes = [m["round_code"] for m in drawn]
    assert codes == sorted(codes, key=rank) and codes[-1] == "F"
    positions = sql(db_url, "SELECT id, position FROM matches WHERE tournament_id = $1", tid)
    pos = {r["id"]: r["position"] for r in positions}
    by_round = {(m["round_code"], pos[m["id"]]): m for m in drawn}
    for m in drawn:
        if m["round_code"] in ("F", "3P") or m["status"] != "finished" or m["outcome"] == "walkover":
            continue
        nxt = ORDER[ORDER.index(m["round_code"]) + 1] if m["round_code"] != "SF" else "F"
        later = by_round.get((nxt, math.ceil(pos[m["id"]] / 2)))
        if later is None:
            continue
        side = later["side1"] if pos[m["id"]] % 2 else later["side2"]
        assert side["players"] == m[f"side{m['winner']}"]["players"]
    assert all(
        set(m)
        == {
            "id",
            "tournament",
            "discipline",
            "round",
            "round_code",
            "sport_class",
            "side1",
            "side2",
            "games",
            "winner",
            "outcome",
            "status",
            "date",
            "event",
            "odds",
        }
        for m in drawn
    )


async def test_draw_prices_follow_the_plan(client, key, plan_keys, db_url):
    priced = sql(
        db_url,
        "SELECT m.tournament_id, m.discipline FROM matches m JOIN odds o ON o.match_id = m.id "
        "WHERE m.status = 'finished' ORDER BY m.id LIMIT 1",
    )[0]
    path = f"/v1/tournaments/{priced['tournament_id']}/draw"
    archive = (await client.get(path, key, discipline=priced["discipline"])).json_body["data"]
    odds = (await client.get(path, plan_keys["odds"], discipline=priced["discipline"])).json_body["data"]
    assert all(m["odds"] is None for m in archive)
    assert any(m["odds"] for m in odds)


async def test_para_draw_by_sport_class(client, key, db_url):
    tid = edition(
        db_url, "t.para AND EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.id AND m.sport_class LIKE '%-%')"
    )
    pair = sql(
        db_url,
        "SELECT discipline, sport_class FROM matches WHERE tournament_id = $1 AND sport_class LIKE '%-%' LIMIT 1",
        tid,
    )[0]
    everything = await client.get(f"/v1/tournaments/{tid}/draw", key, discipline=pair["discipline"])
    classes = everything.json_body["meta"]["sport_classes"]
    assert pair["sport_class"] in classes
    one = (
        await client.get(
            f"/v1/tournaments/{tid}/draw", key, discipline=pair["discipline"], sport_class=pair["sport_class"].lower()
        )
    ).json_body["data"]
    assert one and {m["sport_class"] for m in one} == {pair["sport_class"]}
    a, b = pair["sport_class"].split("-")
    swapped = (
        await client.get(f"/v1/tournaments/{tid}/draw", key, discipline=pair["discipline"], sport_class=f"{b}-{a}")
    ).json_body["data"]
    assert swapped == one
    assert sum(1 for m in everything.json_body["data"] if m["sport_class"] == pair["sport_class"]) == len(one)
    missing = await client.get(f"/v1/tournaments/{tid}/draw", key, discipline=pair["discipline"], sport_class="SH6-SH6")
    assert missing.status_code == 422 and pair["sport_class"] in missing.json_body["error"]["message"]


# -- /v1/tournaments/{id}/ties ------------------------------------------------------------
async def test_ties_of_a_team_event(client, key, db_url):
    tid = edition(db_url, "t.team AND EXISTS (SELECT 1 FROM ties ti WHERE ti.tournament_id = t.id)")
    r = await client.get(f"/v1/tournaments/{tid}/ties", key)
    assert r.status_code == 200
    ties = r.json_body["data"]
    assert len(ties) == sql(db_url, "SELECT count(*) AS n FROM ties WHERE tournament_id = $1", tid)[0]["n"]
    assert [t["number"] for t in ties] == sorted(t["number"] for t in ties)
    for t in ties:
        assert (t["round_code"] is None) == t["stage"].startswith("Group")
        assert set(t["team1"]) == {"code", "name"}
        won = [sum(1 for m in t["matches"] if m["winner"] == side) for side in (1, 2)]
        assert won == t["score"]
        assert t["winner"] == (1 if t["score"][0] > t["score"][1] else 2)
        assert all(m["tournament"]["id"] == tid for m in t["matches"])
    stage = ties[-1]["stage"]
    only = (await client.get(f"/v1/tournaments/{tid}/ties", key, stage=stage.upper())).json_body["data"]
    assert only and {t["stage"] for t in only} == {stage}


async def test_ties_of_an_individual_event_are_empty(client, key, db_url):
    tid = edition(db_url, "NOT t.team")
    r = await client.get(f"/v1/tournaments/{tid}/ties", key)
    assert r.status_code == 200 and r.json_body["data"] == [] and r.json_body["meta"]["team_event"] is False


# -- /v1/series/{slug}/champions ----------------------------------------------------------
async def test_champions_are_the_final_winners(client, key):
    r = await client.get("/v1/series/all-england/champions", key)
    assert r.status_code == 200
    roll = r.json_body["data"]
    years = [e["year"] for e in roll]
    assert years == sorted(years) and roll
    for e in roll[-3:]:
        for event, champions in e["champions"].items():
            drawn = (
                await client.get(f"/v1/tournaments/{e['tournament']['id']}/draw", key, discipline=event)
            ).json_body["data"]
            final = next(m for m in drawn if m["round_code"] == "F")
            assert champions == final[f"side{final['winner']}"]["players"]
            assert e["runners_up"][event] == final[f"side{3 - final['winner']}"]["players"]


async def test_champions_meta_counts_the_most_titled_players(client, key):
    r = await client.get("/v1/series/all-england/champions", key, discipline="WS")
    roll, most = r.json_body["data"], r.json_body["meta"]["most_titles"]
    assert all(set(e["champions"]) == {"WS"} for e in roll)
    counts: dict[str, int] = {}
    for e in roll:
        for p in e["champions"]["WS"]:
            counts[p["id"]] = counts.get(p["id"], 0) + 1
    assert most and most[0]["titles"] == max(counts.values())
    for m in most:
        assert counts[m["player"]["id"]] == m["titles"]


async def test_para_champions_are_keyed_per_sport_class(client, key):
    roll = (await client.get("/v1/series/paralympic-games/champions", key)).json_body["data"]
    keys = {k for e in roll for k in e["champions"]}
    assert keys and all(len(k.split(" ")) == 2 for k in keys)
    assert any("-" in k for k in keys)  # doubles: a class pair


async def test_team_champions_are_the_final_tie_winners(client, key):
    r = await client.get("/v1/series/thomas-cup/champions", key)
    roll = r.json_body["data"]
    assert roll and all(e["champions"] == {} for e in roll)
    for e in roll:
        ties = (await client.get(f"/v1/tournaments/{e['tournament']['id']}/ties", key, stage="Final")).json_body["data"]
        final = ties[-1]
        assert e["winner_team"] == final[f"team{final['winner']}"]
        assert e["runner_up_team"] == final[f"team{3 - final['winner']}"]
    assert sum(t["titles"] for t in r.json_body["meta"]["most_titles_teams"]) == len(roll)


# -- time: the list follows the service clock -------------------------------------------
async def test_an_edition_joins_the_list_on_its_first_day(client, key, db_url, mock_clock):
    nxt = sql(
        db_url,
        "SELECT id, start_date, year FROM tournaments WHERE start_date > $1 ORDER BY start_date, id LIMIT 1",
        TODAY,
    )[0]
    before = (await client.get("/v1/tournaments", key, year=nxt["year"], per_page=200)).json_body
    assert nxt["id"] not in [t["id"] for t in before["data"]]
    assert (await client.get(f"/v1/tournaments/{nxt['id']}", key)).json_body["data"]["status"] == "upcoming"
    mock_clock.jump((nxt["start_date"] - TODAY).days * 86400)  # noon on its first day
    after = (await client.get("/v1/tournaments", key, year=nxt["year"], per_page=200)).json_body
    assert nxt["id"] in [t["id"] for t in after["data"]]
    assert after["meta"]["total"] >= before["meta"]["total"] + 1
    assert (await client.get(f"/v1/tournaments/{nxt['id']}", key)).json_body["data"]["status"] == "in_progress"
