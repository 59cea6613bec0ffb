"""Increments refuse bad rows (issue 24): a row with an unknown country, no name, too few or too
many columns, a date, score or winner that does not read, or the same match twice in a file is
refused -- reported with its file and line, nothing of it applied -- and the rest of the
increment still applies.

"Nothing of it applied" is checked as directly as it can be: the increment with the bad rows and
the same increment with their lines left blank are applied to two copies of one world, and every
table of the world (players, countries, editions, matches, rallies, corrections, rankings,
events) must end the same in both. (Blank lines are skipped; leaving the lines where they were
keeps every good row at its line, and the rebuilt draw orders a day's matches by file and line.)"""

from __future__ import annotations

import csv
import gzip
import io
import itertools
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from svc.world.generate.ids import slugify
from svc.world.sources.increment import IncrementReport
from tests.support import drop_database, new_database, sql

from .test_bwf_increment import LATER, SHIPPED, applied, shipped_rows, slice_url  # noqa: F401 (a fixture)

WORLD_TABLES = (
    "countries",
    "cities",
    "series",
    "tournaments",
    "players",
    "matches",
    "rallies",
    "corrections",
    "rankings",
    "match_events",
    "live_changes",
    "world_meta",
)
WEEK = "2025-02-03"  # a ranking week the slice does not hold
_copies = itertools.count()

MACAU = [r for r in shipped_rows("ms") if r["tournament"] == LATER]  # not in the slice: every good row is new
HEADER = list(MACAU[0].keys())
GOOD = [r for r in MACAU if r["round"] == "Round of 32"]  # the rows that must land whatever else is refused
SPARE = next(r for r in MACAU if r["round"] == "Qualification round of 16")  # a new match, spoiled by each case
AVIHINGSANON = next(r for r in GOOD if r["team_one_players"] == "Suppanyu Avihingsanon")
assert len(GOOD) == 16 and AVIHINGSANON["team_one_nationalities"] == "THA"


def ranking_lines() -> list[list[str]]:
    """The header and the top 21 of the last shipped men's singles list."""
    with gzip.open(SHIPPED.parent / "bwf-world-ranking" / "2025-01-06" / "MS.csv.gz") as raw:
        return list(csv.reader(io.StringIO(io.TextIOWrapper(raw, encoding="utf-8").read())))[:22]


RANKING = ranking_lines()
RANKING_HEADER, RANKING_GOOD, RANKING_SPARE = RANKING[0], RANKING[1:21], RANKING[21]  # the 21st is spoiled


def write_csv(path: Path, header: list[str], rows: list[list[str] | dict[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows([[r[c] for c in header] if isinstance(r, dict) else r for r in rows])  # [] writes a blank line


def matches_file(folder: Path, bad: list[list[str] | dict[str, str]]) -> Path:
    """ms.csv: the first good row (line 2), the bad rows (from line 3 on; [] for a blank line),
    the other good rows."""
    write_csv(folder / "ms.csv", HEADER, [GOOD[0], *bad, *GOOD[1:]])
    return folder


def ranking_week(folder: Path, bad: list[list[str]], week: str = WEEK) -> Path:
    """<week>/MS.csv: the first good row (line 2), the bad rows (from line 3 on; [] for a blank
    line), the other good rows."""
    write_csv(folder / week / "MS.csv", RANKING_HEADER, [RANKING_GOOD[0], *bad, *RANKING_GOOD[1:]])
    return folder


def spoiled(**values: str) -> dict[str, str]:
    return {**SPARE, **values}


def world(url: str) -> dict[str, list[str]]:
    """Every row of every table of the world, as text, in order."""
    return {
        t: [r["row"] for r in sql(url, f"SELECT to_jsonb(t)::text AS row FROM {t} AS t ORDER BY 1")]
        for t in WORLD_TABLES
    }


class Copies:
    """Copies of the slice world (tests/world/test_bwf_increment.py's `slice_url`), one per
    increment applied, so that every increment starts from the same world."""

    def __init__(self, server_url: str, template_url: str) -> None:
        self.server_url, self.template = server_url, urlsplit(template_url).path.lstrip("/")

    def applied(self, folder: Path) -> tuple[IncrementReport, dict[str, list[str]]]:
        """The report of the increment in `folder` applied to a fresh copy (as `svc import
        --increment` applies it, on its own connection), and the world after it."""
        name = f"svc_test_refusal_{os.getpid()}_{next(_copies)}"
        url = new_database(self.server_url, name, template=self.template)
        try:
            return applied(url, folder), world(url)
        finally:
            drop_database(self.server_url, name)


@pytest.fixture(scope="module")
def copies(pg_server_url, slice_url):  # noqa: F811 (the fixture imported above)
    return Copies(pg_server_url, slice_url)


@pytest.fixture(scope="module")
def good_matches(copies, tmp_path_factory):
    """The world after the good match rows alone, with `blanks` blank lines where bad rows go."""
    return _good(copies, tmp_path_factory, matches_file, lambda report: report.matches_added == len(GOOD))


@pytest.fixture(scope="module")
def good_week(copies, tmp_path_factory):
    """The world after the good ranking rows alone, with `blanks` blank lines where bad rows go."""
    return _good(copies, tmp_path_factory, ranking_week, lambda report: report.ranking_rows_added == len(RANKING_GOOD))


def _good(copies, tmp_path_factory, write, landed):
    worlds: dict[int, dict[str, list[str]]] = {}

    def after(blanks: int = 1) -> dict[str, list[str]]:
        if blanks not in worlds:
            report, worlds[blanks] = copies.applied(write(tmp_path_factory.mktemp("good"), [[]] * blanks))
            assert landed(report) and report.source.rows_refused == 0, report.lines()
        return worlds[blanks]

    return after


def refused_lines(report) -> list[str]:
    return [p for p in report.source.problems if p.endswith(": row refused")]


def refused(copies, folder: Path, good, expected: list[str], rows: int = 1):
    """Apply the increment in `folder`: exactly the `expected` problem lines end in `row refused`, the
    report counts `rows` refused rows and prints every line, and the world ends as after the good
    rows alone (`good(rows)`): the refused rows changed nothing, the good ones landed."""
    report, after = copies.applied(folder)
    assert refused_lines(report) == expected, report.lines()
    assert report.source.rows_refused == rows
    printed = report.lines()
    assert f"rows refused (nothing of them applied): {rows}; " in printed[4]
    assert all(f"  {line}" in printed for line in expected)
    for table in WORLD_TABLES:
        assert after[table] == good(rows)[table], table
    return report, after


# -- match files --------------------------------------------------------------------------------


def test_an_unknown_nationality_is_refused_and_makes_no_country_or_second_player(copies, good_matches, tmp_path):
    """The issue's row: Suppanyu Avihingsanon (THA) sent again as XYZ made a country XYZ, a second
    player with his slug and a second match."""
    folder = matches_file(tmp_path, [{**AVIHINGSANON, "team_one_nationalities": "XYZ"}])
    report, after = refused(
        copies, folder, good_matches, ["ms.csv:3: unknown country 'XYZ' in team_one_nationalities: row refused"]
    )
    assert report.matches_added == len(GOOD)
    assert not [c for c in after["countries"] if '"XYZ"' in c]
    slug = slugify("Suppanyu AVIHINGSANON")
    assert len([p for p in after["players"] if f'"slug": "{slug}"' in p]) == 1


def test_empty_player_names_are_refused_and_make_no_nameless_player(copies, good_matches, tmp_path):
    folder = matches_file(tmp_path, [spoiled(team_one_players="", team_two_players="  ")])
    _, after = refused(
        copies,
        folder,
        good_matches,
        ["ms.csv:3: no name in team_one_players: row refused", "ms.csv:3: no name in team_two_players: row refused"],
    )
    assert not [p for p in after["players"] if '"name": ""' in p]


@pytest.mark.parametrize(
    "values, expected",
    [
        (lambda row: row[:10], "ms.csv:3: 10 columns where the header has 38: row refused"),
        (lambda row: [*row, "extra"], "ms.csv:3: 39 columns where the header has 38: row refused"),
    ],
    ids=["too-few-columns", "too-many-columns"],
)
def test_a_row_with_too_few_or_too_many_columns_is_refused(copies, good_matches, tmp_path, values, expected):
    """Too few columns crashed the import (None.strip) with no file or line."""
    folder = matches_file(tmp_path, [values([SPARE[c] for c in HEADER])])
    refused(copies, folder, good_matches, [expected])


def test_a_repeated_row_is_taken_once(copies, good_matches, tmp_path):
    folder = matches_file(tmp_path, [GOOD[0]])  # line 3 repeats line 2 value for value
    refused(copies, folder, good_matches, ["ms.csv:3: a repeat of ms.csv:2: row refused"])


def test_the_same_match_twice_with_other_scores_is_refused_both_times(copies, good_matches, tmp_path):
    """Which of the two is true cannot be told: neither is applied."""
    other = {
        **SPARE,
        "team_one_players": SPARE["team_two_players"],
        "team_two_players": SPARE["team_one_players"],
        "team_one_nationalities": SPARE["team_two_nationalities"],
        "team_two_nationalities": SPARE["team_one_nationalities"],
        "winner": "1",
        "game_1_score": "21-14",
        "game_2_score": "21-17",
    }  # told the other way round, 21-17
    folder = matches_file(tmp_path, [SPARE, other])
    refused(
        copies,
        folder,
        good_matches,
        [
            "ms.csv:3: the same match as ms.csv:4 with other values: row refused",
            "ms.csv:4: the same match as ms.csv:3 with other values: row refused",
        ],
        rows=2,
    )


@pytest.mark.parametrize(
    "values, expected",
    [
        ({"date": "31-02-2019"}, "date '31-02-2019' is not a day (DD-MM-YYYY)"),
        ({"game_2_score": "21:15"}, "game 2 score '21:15' does not read as a-b"),
        ({"game_2_score": "21-25"}, "game 2 score '21-25' is impossible"),
        ({"winner": "3"}, "winner '3' is not 0, 1 or 2"),
        ({"winner": "1"}, "winner 1 but side 2 won the games"),
        ({"retired": "maybe"}, "retired 'maybe' is not True or False"),
        ({"round": "Round of 9"}, "unknown round 'Round of 9'"),
        ({"country": "Atlantis"}, "unknown host country 'Atlantis'"),
    ],
    ids=[
        "bad-date",
        "unreadable-score",
        "impossible-score",
        "winner-out-of-range",
        "winner-not-who-won",
        "retired-not-a-boolean",
        "unknown-round",
        "unknown-host-country",
    ],
)
def test_a_row_the_full_import_would_keep_with_what_is_certain_is_refused(
    copies, good_matches, tmp_path, values, expected
):
    assert SPARE["winner"] == "2" and SPARE["game_2_score"] == "15-21"  # side two won 2-0
    folder = matches_file(tmp_path, [spoiled(**values)])
    refused(copies, folder, good_matches, [f"ms.csv:3: {expected}: row refused"])


def test_the_command_line_prints_each_refused_row(copies, pg_server_url, tmp_path):
    """`python -m svc import --increment` prints the report: the count and each refused row."""
    folder = matches_file(tmp_path, [{**AVIHINGSANON, "team_one_nationalities": "XYZ"}])
    name = f"svc_test_refusal_cli_{os.getpid()}"
    url = new_database(pg_server_url, name, template=copies.template)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "svc", "import", "--increment", str(folder)],
            env={**os.environ, "DATABASE_URL": url},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 3, done.stderr  # some rows refused, the rest applied
        lines = done.stderr.splitlines()
        assert "  rows refused (nothing of them applied): 1; problems, each with its file and line: 1" in lines
        assert "    ms.csv:3: unknown country 'XYZ' in team_one_nationalities: row refused" in lines
        assert not sql(url, "SELECT 1 FROM countries WHERE code = 'XYZ'")
    finally:
        drop_database(pg_server_url, name)


# -- ranking weeks ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "row, expected",
    [
        (RANKING_SPARE[:2] + ["Atlantis"] + RANKING_SPARE[3:], "unknown country 'Atlantis' in country"),
        (RANKING_SPARE[:1] + [" "] + RANKING_SPARE[2:], "no name in name"),
        (RANKING_SPARE[:5], "5 columns where the header has 9"),
        ([*RANKING_SPARE, "extra"], "10 columns where the header has 9"),
        (RANKING_SPARE[:5] + ["x"] + RANKING_SPARE[6:], "rank 'x' is not a rank (1, 2, ...)"),
        (RANKING_SPARE[:7] + ["lots"] + RANKING_SPARE[8:], "points 'lots' is not a number"),
    ],
    ids=["unknown-country", "no-name", "too-few-columns", "too-many-columns", "bad-rank", "bad-points"],
)
def test_a_bad_ranking_row_is_refused(copies, good_week, tmp_path, row, expected):
    assert RANKING_HEADER[1:3] == ["name", "country"] and RANKING_HEADER[5] == "rank"
    refused(copies, ranking_week(tmp_path, [row]), good_week, [f"{WEEK}/MS.csv:3: {expected}: row refused"])


def test_a_repeated_ranking_row_is_left_out(copies, good_week, tmp_path):
    """A list sees its rows together: the repeat is left out where the list is built (bwf.Builder.rankings)."""
    report, after = copies.applied(ranking_week(tmp_path, [RANKING_GOOD[0]]))  # line 3 repeats line 2
    assert (
        f"{WEEK}/MS.csv:3: SHI Yu Qi at rank 1 a second time in one list: the repeat is left out"
        in report.source.problems
    )
    assert report.source.rows_refused == 1 and report.ranking_rows_added == len(RANKING_GOOD)
    assert after == good_week(1)


def test_a_week_that_is_not_a_day_is_reported_and_left_out(copies, good_week, tmp_path):
    ranking_week(tmp_path, [], week=WEEK)
    ranking_week(tmp_path, [RANKING_SPARE], week="2025-02-30")
    report, after = copies.applied(tmp_path)
    assert "2025-02-30/: not a day (YYYY-MM-DD): the week's lists are left out" in report.source.problems
    assert after == good_week(0)
