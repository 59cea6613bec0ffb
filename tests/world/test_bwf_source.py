"""The public BWF files as a world bundle (svc.world.sources), on the slices kept in
tests/world/data/bwf-slice (see its README): series across sponsors, one id per person,
doubles pairs rebuilt, retirements resolved, the draw rebuilt from the final down, rallies
with their servers, ranking rows matched, and every malformed row reported."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

import pytest

from svc.world.bundle import read_manifest
from svc.world.sources import bwf
from svc.world.sources.countries import code_of
from svc.world.sources.import_report import Report
from svc.world.sources.names import person_key, player_id
from svc.world.sources.series_names import series_of

SLICE = Path(__file__).with_name("data") / "bwf-slice"


def table(bundle: Path, name: str) -> list[dict[str, str]]:
    with open(bundle / f"{name}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def array(text: str) -> list[str]:
    return [x for x in text.strip("{}").split(",") if x]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("bwf-bundle")
    manifest, report = bwf.build_bundle(out, SLICE)
    return out, manifest, report


@pytest.mark.parametrize(
    "written, tier, slug",
    [
        ("YONEX All England Open Badminton Championships 2019", "Super 1000", "all-england"),
        ("YONEX All England Open 2020", "Super 1000", "all-england"),
        ("Princess Sirivannavari Thailand Masters 2020 (New Dates)", "Super 300", "thailand-masters"),
        ("Fuzhou China Open 2019", "Super 750", "fuzhou-china-open"),
        ("VICTOR China Open 2019", "Super 1000", "china-open"),
        ("YUZU Indonesia Masters 2019", "Super 100", "indonesia-masters-super-100"),
        ("DAIHATSU Indonesia Masters 2019", "Super 500", "indonesia-masters"),
        ("Orléans Masters 2019", "Super 100", "orleans-masters"),
    ],
)
def test_one_series_whatever_the_sponsor_and_year(written, tier, slug):
    assert series_of(written, tier, Report())[0] == slug


def test_an_unknown_event_is_named_by_its_words_and_reported():
    report = Report()
    slug, name = series_of("YONEX Atlantis Open 2021 (New Dates)", "Super 100", report)
    assert slug == "atlantis-open" and name == "Atlantis Open"
    assert report.as_dict()["series_by_fallback"] == ["YONEX Atlantis Open 2021 (New Dates)"]


def test_one_person_whatever_the_order_case_and_accents():
    assert person_key("Jun Hao Leong", "MAS") == person_key("LEONG Jun Hao", "MAS")
    assert person_key("Søren Jørgensen", "DEN") == person_key("SOREN JORGENSEN", "DEN")
    assert person_key("Jun Hao Leong", "MAS") != person_key("Jun Hao Leong", "SGP")  # the country guides
    assert player_id(person_key("Viktor Axelsen", "DEN")) == player_id(person_key("Viktor AXELSEN", "DEN"))


@pytest.mark.parametrize(
    "name, code",
    [
        ("Chinese Taipei", "TPE"),
        ("Hong Kong China", "HKG"),
        ("Korea", "KOR"),
        ("U.S.A.", "USA"),
        ("TUN Tunisia", "TUN"),
        ("Türkiye", "TUR"),
        ("National Olympic Committee KENYA", "KEN"),
        ("Pan America", None),
    ],
)
def test_country_names_to_ioc_codes(name, code):
    assert code_of(name) == code


def test_the_bundle_loads_and_reports_the_malformed_row_with_its_line(built):
    out, manifest, report = built
    read_manifest(out, verify_checksums=True)  # what the importer checks
    problems = report.problems
    assert any(p.startswith("ms.csv:33: ") and "23-x" in p for p in problems), problems
    assert any(p.startswith("ms.csv:33: ") and "Round of 9" in p for p in problems), problems
    swiss = [m for m in table(out, "matches") if m["round_name"] == "Round of 9"]
    assert len(swiss) == 1 and swiss[0]["round_code"] == "" and swiss[0]["g1"] == "{}"  # kept, with what is certain
    rows = sum(
        sum(1 for _ in csv.DictReader(open(f, newline="", encoding="utf-8")))
        for f in (SLICE / "bwf-world-tour").glob("*.csv")
    )
    assert manifest["import_report"]["matches"] == rows == len(table(out, "matches"))  # every row became a match


def test_the_draw_reads_from_the_first_round_to_the_final(built):
    out, _, _ = built
    editions = {t["id"]: t for t in table(out, "tournaments")}
    ae = next(i for i, t in editions.items() if t["name"] == "All England Open 2020")
    draw = [m for m in table(out, "matches") if m["tournament_id"] == ae and m["discipline"] == "MS"]
    by_round = defaultdict(dict)
    for m in draw:
        by_round[m["round_code"]][int(m["position"])] = m
    rounds = ["R32", "R16", "QF", "SF", "F"]
    assert [len(by_round[r]) for r in rounds] == [16, 8, 4, 2, 1]
    for before, after in zip(rounds, rounds[1:]):
        for p, m in by_round[after].items():
            for n, side in ((1, "side1"), (2, "side2")):
                feeder = by_round[before][2 * p - 2 + n]
                assert array(feeder[f"side{feeder['winner']}"]) == array(m[side]), (after, p, n)
    final = by_round["F"][1]
    axelsen = player_id(person_key("Viktor Axelsen", "DEN"))
    assert axelsen in array(final[f"side{final['winner']}"])  # the 2020 champion
    assert editions[ae]["draw_size"] == "32" and editions[ae]["series"] == "all-england"


def test_a_retirement_is_won_by_who_played_on(built):
    out, _, report = built
    source = {
        (r["team_one_players"], r["team_two_players"]): r
        for r in csv.DictReader(open(SLICE / "bwf-world-tour" / "ms.csv", newline="", encoding="utf-8"))
    }
    retired = [r for r in source.values() if r["winner"] == "0"]
    assert retired, "the slice holds a retirement"
    matches = table(out, "matches")
    for r in retired:
        first = player_id(person_key(r["team_one_players"], r["team_one_nationalities"]))
        row = next(m for m in matches if m["outcome"] == "retired" and array(m["side1"]) == [first])
        winner = array(row[f"side{row['winner']}"])[0]
        later = [
            m
            for m in matches
            if m["tournament_id"] == row["tournament_id"]
            and m["discipline"] == "MS"
            and winner in array(m["side1"]) + array(m["side2"])
            and m["round_code"] != row["round_code"]
        ]
        assert later, "the winner given is the side that played the next round"
    assert report.retirements["by_bracket"] >= len(retired)


def test_doubles_side_two_gets_its_partner_back(built):
    out, _, report = built
    matches = [m for m in table(out, "matches") if m["discipline"] == "MD"]
    # in the file side two is one player twice; rebuilt, a side is never one player twice
    assert all(len(set(array(m["side2"]))) == len(array(m["side2"])) for m in matches)
    partner_of: dict[tuple[str, str], str] = {}
    for m in matches:  # side one is complete in the file: the truth to compare with
        a, b = array(m["side1"])
        partner_of[(m["tournament_id"], a)], partner_of[(m["tournament_id"], b)] = b, a
    exact = 0
    for m in matches:
        side2 = array(m["side2"])
        if (m["tournament_id"], side2[0]) in partner_of:
            assert side2 == [side2[0], partner_of[(m["tournament_id"], side2[0])]]
            exact += 1
    assert exact == report.partners["exact"] and report.partners["exact"] > 0
    assert sum(report.partners.values()) == len(matches)  # each side two counted once: exact, inferred or unknown


def test_rallies_have_the_rule_of_service(built):
    out, _, _ = built
    by_match = defaultdict(list)
    for r in table(out, "rallies"):
        by_match[r["match_id"]].append(r)
    assert by_match
    for rallies in by_match.values():
        rallies.sort(key=lambda r: (int(r["game"]), int(r["rally"])))
        for prev, this in zip(rallies, rallies[1:]):
            if this["game"] == prev["game"]:
                assert this["server"] == prev["winner"]  # the rally's winner serves next
            else:
                assert this["server"] == prev["winner"]  # the game's winner serves first in the next
        assert rallies[0]["server"] == "1"  # game 1's first server is not recorded: side 1, as documented


def test_ranking_rows_carry_their_players_and_match_the_match_files(built):
    out, _, report = built
    rows = table(out, "rankings")
    assert len(rows) == 2 * 5 * 40 and all(r["full_list"] == "t" for r in rows)
    assert all(r["player1"] for r in rows) and all(r["player2"] for r in rows if r["discipline"] in ("MD", "WD", "XD"))
    top = next(r for r in rows if r["week"] == "2023-06-05" and r["discipline"] == "MS" and r["rank"] == "1")
    assert top["name"] == "Viktor AXELSEN"
    assert top["player1"] == player_id(person_key("Viktor Axelsen", "DEN"))  # the same person as in the matches
    players = {p["id"]: p for p in table(out, "players")}
    assert players[top["player1"]]["name"] == "Viktor AXELSEN" and players[top["player1"]]["gender"] == "M"
    assert report.ranking_rows_matched["MS"] > 0
