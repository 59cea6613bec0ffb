"""Names are folded by anyascii (svc.world.generate.ids.fold): Ł, đ, ð, þ and œ become letters
instead of vanishing, as the database's fold() (unaccent) already made them, so a name written
with or without its marks is one person; and no id changes: ids and slugs are still made from the
fold they were first made with (ids.id_fold), kept here as the reference."""

from __future__ import annotations

import csv
import gzip
import io
import unicodedata
from pathlib import Path

from svc.world.generate import ids
from svc.world.sources import bwf, bwf_tour, countries, names, record, record_finals, series_names
from svc.world.sources.names import player_id
from tests.support import sql

from .test_bwf_increment import SHIPPED, applied, slice_url  # noqa: F401 (a fixture)

# The names the newcomer met, as Python and the database must both fold them.
NAMES = {
    "ŁUkasz": "lukasz",
    "Đặng": "dang",
    "Þór": "thor",
    "Œuvre": "oeuvre",
    "Ðorđe": "dorde",
    "Søren Æbelø": "soren aebelo",
    "Straße": "strasse",
    "Kyleigh O’Donoghue": "kyleigh o'donoghue",
}


def first_fold(text: str) -> str:
    """fold() as it was before anyascii (NFKD, what has no ASCII form dropped): the reference
    every id and slug is compared with."""
    s = text.replace("ø", "o").replace("Ø", "O").replace("æ", "ae").replace("Æ", "AE").replace("ß", "ss")
    s = s.replace("ı", "i")
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()


def test_the_first_fold_lost_letters_that_fold_keeps():
    assert first_fold("ŁUkasz") == "ukasz" and ids.fold("ŁUkasz") == "lukasz"
    assert [ids.fold(n) for n in NAMES] == list(NAMES.values())
    assert all(ids.id_fold(n) == first_fold(n) for n in NAMES)  # what ids are made from has not moved


async def test_python_and_the_database_fold_latin_letters_alike(slice_url):  # noqa: F811
    rows = sql_fold(slice_url, list(NAMES))
    assert rows == list(NAMES.values())
    # every letter of Latin-1 and Latin Extended-A (the alphabets of the files' names) but Sami's
    # eng, which unaccent makes n and anyascii ng (no name of the files has it)
    letters = [chr(c) for c in range(0xC0, 0x180) if chr(c).isalpha() and chr(c) not in "Ŋŋ"]
    assert len(letters) == 188
    assert sql_fold(slice_url, letters) == [ids.fold(c) for c in letters]


def sql_fold(url: str, texts: list[str]) -> list[str]:
    rows = sql(url, "SELECT fold(t) AS f FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n", texts)
    return [r["f"] for r in rows]


def ranking_week(folder: Path, week: str, name: str) -> None:
    """A ranking week holding one men's singles row: ŁUkasz CHUDZINSKI's row of the shipped
    2022-11-10 list, under the spelling `name`."""
    with gzip.open(SHIPPED.parent / "bwf-world-ranking" / "2022-11-10" / "MS.csv.gz") as raw:
        lines = list(csv.reader(io.TextIOWrapper(raw, encoding="utf-8")))
    row = next(r for r in lines if r[1] == "ŁUkasz CHUDZINSKI")
    (folder / week).mkdir(parents=True)
    with open(folder / week / "MS.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([lines[0], [row[0], name, *row[2:]]])


def test_an_increment_spelling_lukasz_finds_the_lukasz_held(slice_url, tmp_path):  # noqa: F811
    ranking_week(tmp_path / "first", "2025-03-03", "ŁUkasz CHUDZINSKI")
    first = applied(slice_url, tmp_path / "first")
    assert first.players_added == 1
    held = [dict(r) for r in sql(slice_url, "SELECT id, slug FROM players WHERE name = 'ŁUkasz CHUDZINSKI'")]
    # his id and slug as the first fold made them: the same as the full import of the shipped files gives
    assert held == [{"id": player_id("chudzinski ukasz|POL"), "slug": "ukasz-chudzinski"}]

    ranking_week(tmp_path / "second", "2025-03-10", "Lukasz CHUDZINSKI")
    second = applied(slice_url, tmp_path / "second")
    assert second.players_added == 0 and second.ranking_rows_added == 1
    listed = sql(slice_url, "SELECT week::text, player1 FROM rankings WHERE name LIKE '%CHUDZINSKI' ORDER BY week")
    assert [(r["week"], r["player1"]) for r in listed] == [("2025-03-03", held[0]["id"]), ("2025-03-10", held[0]["id"])]


# What names a thing in each table of a bundle: ids, slugs and the ids other rows point to.
ID_COLUMNS = {
    "players.csv": ("id", "name", "slug", "country"),
    "series.csv": ("slug", "name"),
    "tournaments.csv": ("id", "series", "name", "year"),
    "matches.csv": ("id", "event_id", "tournament_id", "tie_id", "side1", "side2"),
    "ties.csv": ("id", "tournament_id"),
    "rankings.csv": ("week", "discipline", "rank", "name", "player1", "player2"),
    "venues.csv": ("id", "name"),
    "cities.csv": ("id", "name", "country"),
}


def identities(folder: Path) -> dict[str, set[tuple[str, ...]]]:
    out = {}
    for table, columns in ID_COLUMNS.items():
        with open(folder / table, newline="", encoding="utf-8") as f:
            out[table] = {tuple(r[c] for c in columns) for r in csv.DictReader(f)}
    return out


def clear_caches() -> None:
    for cached in (names.person_key, names.joined_key, names.id_key, countries.code_of):
        cached.cache_clear()


FOLDING = (names, bwf_tour, countries, record, record_finals, series_names)  # every module of the import that folds


def test_no_id_of_the_shipped_real_world_changes(tmp_path, monkeypatch, shipped_bwf_bundle):
    with monkeypatch.context() as importer_as_it_was:
        for module in FOLDING:
            importer_as_it_was.setattr(module, "fold", first_fold)
        clear_caches()
        bwf.build_bundle(tmp_path / "before")
    clear_caches()
    before, after = identities(tmp_path / "before"), identities(shipped_bwf_bundle)
    assert {t: len(rows) for t, rows in after.items()} == {t: len(rows) for t, rows in before.items()}
    for table in ID_COLUMNS:
        assert after[table] == before[table], table
    # the one name of the shipped files the first fold lost a letter of keeps its id and slug
    lukasz = (player_id("chudzinski ukasz|POL"), "ŁUkasz CHUDZINSKI", "ukasz-chudzinski", "POL")
    assert lukasz in after["players.csv"]
