"""The public record in the real world's bundle (svc.world.sources.record), without a database:
the slice of the BWF files (tests/world/data/bwf-slice) beside the record shipped in
svc/world/sources/data/record/, or a record written here with the faults a copy may have. Every
messy row is reported with its file and line, none is dropped silently; medallists are the
people of the files where the files hold them."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from svc.world.sources import bwf
from svc.world.sources.names import person_key, player_id

SLICE = Path(__file__).with_name("data") / "bwf-slice"
RECORD = Path(__file__).resolve().parents[2] / "svc" / "world" / "sources" / "data" / "record"
WORLDS = "world-championships-podiums.csv"
CUPS = "thomas-uber-cup-podiums-2002-2024.csv"


def table(bundle: Path, name: str) -> list[dict[str, str]]:
    with open(bundle / f"{name}.csv", newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def source_with(tmp: Path, record: Path) -> Path:
    """A source folder: the slice's match and ranking files, and `record` as its record/."""
    shutil.copytree(SLICE / "bwf-world-tour", tmp / "bwf-world-tour")
    shutil.copytree(SLICE / "bwf-world-ranking", tmp / "bwf-world-ranking")
    shutil.copytree(record, tmp / "record")
    return tmp


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    source = source_with(tmp_path_factory.mktemp("source"), RECORD)
    out = tmp_path_factory.mktemp("bundle")
    manifest, report = bwf.build_bundle(out, source)
    return out, manifest, report


def test_the_messy_rows_of_the_shipped_record_are_reported_with_their_lines(shipped):
    _out, manifest, report = shipped
    lines = report.record_problems
    said = "\n".join(lines)
    # the 1983 mixed pair of two nations: the row gives one country
    assert any(
        p.startswith(f"record/{WORLDS}:50: ") and "two nations" in p and "Nora Perry of England" in p for p in lines
    ), said
    # the 2020 Cups, played in 2021, kept under their label
    assert any(p.startswith(f"record/{CUPS}:38: ") and "Thomas Cup 2020 was played in 2021" in p for p in lines), said
    assert any(p.startswith(f"record/{CUPS}:86: ") and "Uber Cup 2020 was played in 2021" in p for p in lines), said
    # names of the time, read as today's codes
    assert any(p.startswith(f"record/{WORLDS}:") and "'South Korea'" in p and "KOR" in p for p in lines), said
    assert report.rows_refused == 0 and manifest["import_report"]["problem_list"][-len(lines) :] == lines
    assert all(line in report.lines() for line in (f"  {p}" for p in lines))  # printed, however many others


def test_every_final_of_the_record_is_a_final_of_its_edition(shipped):
    out, _manifest, report = shipped
    with open(RECORD / WORLDS, newline="", encoding="utf-8") as f:
        golds = [r for r in csv.DictReader(f) if r["medal"] == "gold"]
    editions = {t["id"]: t for t in table(out, "tournaments")}
    finals = [m for m in table(out, "matches") if editions[m["tournament_id"]]["series"] == "world-championships"]
    assert len(finals) == len(golds) == report.record_counts.finals == 145
    assert all(
        m["round_code"] == "F" and m["winner"] == "1" and m["g1"] == "{}" and m["outcome"] == "played" for m in finals
    )
    worlds = [t for t in editions.values() if t["series"] == "world-championships"]
    assert len(worlds) == 29 and all(t["medals"] == "t" for t in worlds)
    ties = table(out, "ties")
    assert len(ties) == 24 and all(t["round_code"] == "F" and t["score1"] == "" and t["winner"] == "1" for t in ties)
    series = {s["slug"]: s for s in table(out, "series")}
    assert series["thomas-cup"]["team"] == "t" and series["uber-cup"]["team"] == "t"
    assert series["world-championships"]["team"] == "f"


def test_a_medallist_of_the_files_is_their_person(shipped):
    out, _manifest, _report = shipped
    axelsen = player_id(person_key("Viktor Axelsen", "DEN"))  # in the slice's All England 2020 final
    editions = {t["id"]: t for t in table(out, "tournaments")}
    won = sorted(
        int(editions[m["tournament_id"]]["year"])
        for m in table(out, "matches")
        if editions[m["tournament_id"]]["series"] == "world-championships" and m["side1"] == f"{{{axelsen}}}"
    )
    assert won == [2017, 2022]
    players = {p["id"]: p for p in table(out, "players")}
    assert sum(1 for p in players.values() if p["name"].lower() == "viktor axelsen") == 1
    lin_dan = [p for p in players.values() if p["name"] == "LIN Dan"]  # not in the slice: a player of the record
    assert len(lin_dan) == 1 and lin_dan[0]["country"] == "CHN" and lin_dan[0]["gender"] == "M"


def test_a_faulty_record_is_reported_row_by_row(tmp_path):
    record = tmp_path / "written"
    record.mkdir()
    header = (
        "year,event_date,discipline_key,discipline_name,gender,rank,medal,participant_type,"
        "participant_name,country_name"
    )
    (record / WORLDS).write_text(
        "\n".join(
            [
                header,
                "1977,1977-12-31,mens_singles,Men's singles,men,1,gold,athlete,Flemming Delfs,Denmark",
                "1977,1977-12-31,mens_singles,Men's singles,men,2,silver,athlete,Svend Pri,Denmark",
                # unknown country
                "1977,1977-12-31,mens_singles,Men's singles,men,3,bronze,athlete,Iie Sumirat,Atlantis",
                # one player for a pair
                "1977,1977-12-31,mens_doubles,Men's doubles,men,1,gold,team,Tjun Tjun,Indonesia",
                "1977,1977-12-31,mens_doubles,Men's doubles,men,2,silver,team,"
                "Ade Chandra / Christian Hadinata,Indonesia",
                "1977,1977-12-31,womens_singles,Women's singles,women,1,gold,athlete,Lene Køppen",  # a value short
                "",
            ]
        ),
        encoding="utf-8",
    )
    (record / CUPS).write_text(
        "\n".join(
            [
                "competition_id,competition_name,year,event_date,discipline_key,discipline_name,gender,rank,"
                "participant_type,participant_name,country_name,country_code,source_url",
                "bwf_thomas_cup,BWF Thomas Cup,1955,1955-12-31,badminton-team,Badminton Team,men,1,team,"
                "Malaya,Malaya,MAL,x",
                "bwf_thomas_cup,BWF Thomas Cup,1955,1955-12-31,badminton-team,Badminton Team,men,2,team,"
                "Denmark,Denmark,DNK,x",
                "",
            ]
        ),
        encoding="utf-8",
    )
    out = tmp_path / "bundle"
    _manifest, report = bwf.build_bundle(out, source_with(tmp_path / "source", record))
    said = "\n".join(report.record_problems)
    assert f"record/{WORLDS}:4: unknown country 'Atlantis': row refused" in report.record_problems, said
    assert any(p.startswith(f"record/{WORLDS}:5: 'Tjun Tjun' (team) is not a pair") for p in report.record_problems), (
        said
    )
    assert f"record/{WORLDS}:7: 9 columns where the header has 10" in said
    assert any(p.startswith(f"record/{WORLDS}:6: MD 1977: 0 gold and 1 silver") for p in report.record_problems), said
    assert any(p.startswith(f"record/{CUPS}:2: country 'Malaya'") and "MAS" in p for p in report.record_problems), said
    assert report.rows_refused >= 3
    ties = table(out, "ties")
    assert [(t["team1"], t["team2"]) for t in ties] == [("MAS", "DEN")]
    assert report.record_counts.finals == 1 and report.record_counts.bronze_not_loaded == 0
