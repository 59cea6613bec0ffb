"""The generated world obeys the sport's rules (scoring by era, brackets, ties, odds, rallies,
rankings: play_checks.py) and is like the real one (people, nations, names, hosts and champions on
record: realism_checks.py), and the generator is deterministic. Runs on a tiny bundle; the same
checks run on the demo scale with SVC_TEST_DEMO=1 (select it alone with `-k demo`)."""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

import pytest

from svc.world import engine
from svc.world.generate import generate_bundle
from tests.world import play_checks, realism_checks
from tests.world.rules_support import AS_OF, SEED, World


@pytest.fixture(scope="module")
def tiny(tmp_path_factory) -> World:
    path = tmp_path_factory.mktemp("tiny")
    generate_bundle(path, scale="tiny", seed=SEED, as_of=AS_OF)
    return World(path)


# the sport's rules (play_checks), then the world as the real one is (realism_checks)
ALL_CHECKS = (
    play_checks.check_games_legal,
    play_checks.check_winners,
    play_checks.check_brackets,
    play_checks.check_bronze_and_medals,
    play_checks.check_ids,
    play_checks.check_ties,
    play_checks.check_rallies,
    play_checks.check_odds,
    play_checks.check_current_week,
    play_checks.check_rankings,
    play_checks.check_corrections,
    realism_checks.check_one_place_a_day,
    realism_checks.check_nations_in_their_era,
    realism_checks.check_no_real_names,
    realism_checks.check_names_apart_while_active,
    realism_checks.check_hosts_on_record,
    realism_checks.check_champions_as_on_record,
    realism_checks.check_matches_within_their_dates,
    realism_checks.check_pairs_of_one_nation,
    realism_checks.check_specialists,
)


# --------------------------------------------------------------------------- tiny tests


@pytest.mark.parametrize("check", ALL_CHECKS, ids=lambda c: c.__name__)
def test_tiny_world_rule(tiny: World, check) -> None:
    check(tiny)


def test_tiny_has_one_of_everything(tiny: World) -> None:
    ms = tiny.matches
    days = [(tiny.match_day(m), m) for m in ms if m["outcome"] == "played"]
    assert any(not engine.era_rules(m["discipline"], d).rally_point for d, m in days)
    assert any(engine.era_rules(m["discipline"], d).rally_point for d, m in days)
    assert any(
        m["discipline"] == "WS" and max(m["G1"] + m["G2"]) in (11, 12, 13)
        for d, m in days
        if not engine.era_rules("WS", d).rally_point
    )

    def set_game(d, m):
        return any(
            max(a, b) in (17, 18, 12, 13) and not engine.era_rules(m["discipline"], d).rally_point
            for a, b in zip(m["G1"], m["G2"])
        )

    assert any(set_game(d, m) for d, m in days)
    outcomes = {m["outcome"] for m in ms}
    assert {"played", "walkover", "retired"} <= outcomes
    series = {t["series"] for t in tiny.tournaments.values() if any(m["tournament_id"] == t["id"] for m in ms)}
    assert {"world-junior-championships", "para-world-championships", "thomas-cup"} <= series
    classes = {m["sport_class"] for m in ms if m["sport_class"]}
    assert any("-" in c for c in classes) and {"WH1", "SL3"} <= classes
    assert any(
        m["round_code"] == "" and m["round_name"].startswith("Group") and not m["tie_id"] for m in ms
    )  # finals groups
    assert any(m["tie_id"] and m["round_code"] in ("QF", "SF", "F") for m in ms)
    per_tie = defaultdict(int)
    for m in ms:
        if m["tie_id"]:
            per_tie[m["tie_id"]] += 1
    assert max(per_tie.values()) > 5  # the long ties of the early Thomas Cup
    assert any(v["elevation_m"] and int(v["elevation_m"]) > 2000 for v in tiny.tables["venues"])
    assert any(any(ord(ch) > 127 for ch in p["name"]) for p in tiny.tables["players"])
    assert {p["id"] for p in tiny.tables["players"] if p["sport_class"]}
    odds_markets = {o["market"] for o in tiny.tables["odds"]}
    assert odds_markets == {"winner", "handicap_games", "handicap_points", "total_games", "total_points"}
    first = min(int(t["year"]) for t in tiny.tournaments.values())
    assert first == 1899
    ae1899 = [m for m in ms if tiny.tournaments[m["tournament_id"]]["name"] == "All England Open 1899"]
    assert ae1899 and {m["discipline"] for m in ae1899} <= {"MD", "WD", "XD"}
    meta = {r["key"]: r["value"] for r in tiny.tables["world_meta"]}
    assert meta["seed"] == str(SEED) and meta["scale"] == "tiny" and meta["as_of"] == AS_OF.isoformat()


def test_every_scale_names_each_series_once() -> None:
    """The invented lower tiers of the full scale never take the slug of a real series (an
    "Orléans Masters" of the invented kind beside the World Tour's own)."""
    from svc.world.generate import SCALES
    from svc.world.generate.calendar import series_of

    for scale in SCALES.values():
        slugs = [s.slug for s in series_of(scale)]
        assert len(slugs) == len(set(slugs)), (scale.name, sorted(s for s in slugs if slugs.count(s) > 1))


def test_deterministic(tiny: World, tmp_path) -> None:
    again = tmp_path / "again"
    generate_bundle(again, scale="tiny", seed=SEED, as_of=AS_OF)
    m1 = tiny.manifest
    m2 = json.loads((again / "manifest.json").read_text())
    assert m1 == m2
    other = tmp_path / "other"
    generate_bundle(other, scale="tiny", seed=SEED + 1, as_of=AS_OF)
    m3 = json.loads((other / "manifest.json").read_text())
    assert m3["tables"]["matches"]["sha256"] != m1["tables"]["matches"]["sha256"]
    assert m3["tables"]["players"]["sha256"] != m1["tables"]["players"]["sha256"]


# --------------------------------------------------------------------------- demo scale (opt-in)

demo_enabled = os.environ.get("SVC_TEST_DEMO") == "1"


@pytest.mark.skipif(not demo_enabled, reason="demo scale: set SVC_TEST_DEMO=1")
def test_demo_world_rules(tmp_path) -> None:
    generate_bundle(tmp_path, scale="demo", seed=SEED, as_of=AS_OF)
    w = World(tmp_path)
    for check in ALL_CHECKS:
        check(w)


# --------------------------------------------------------------------------- the importer


def on_new_schema(pg_server_url: str, name: str, work) -> None:
    """`await work(conn)` on a new database `name` holding the schema's migrations applied in
    order (as `migrate` applies them); the database is dropped after."""
    import asyncio

    import asyncpg

    from tests.support import drop_database, new_database

    db_url = new_database(pg_server_url, name)

    async def go() -> None:
        conn = await asyncpg.connect(db_url)
        try:
            for f in sorted((Path(__file__).resolve().parents[2] / "svc" / "sql" / "schema").glob("*.sql")):
                await conn.execute(f.read_text())
            await work(conn)
        finally:
            await conn.close()

    try:
        asyncio.run(go())
    finally:
        drop_database(pg_server_url, name)


def edited_copy(tiny: World, where: str, table: str, edit) -> Path:
    """A copy of the tiny bundle (beside it, in `where`) with `table`'s file edited."""
    copy = tiny.path.parent / where
    copy.mkdir(exist_ok=True)
    for f in tiny.path.iterdir():
        (copy / f.name).write_bytes(f.read_bytes())
    (copy / f"{table}.csv").write_text(edit((tiny.path / f"{table}.csv").read_text()))
    return copy


def test_load_bundle_replaces_world_tables_only(tiny: World, pg_server_url) -> None:
    """Loads twice (a reload replaces, never appends); platform tables keep their rows."""
    from svc.world.bundle import TABLE_NAMES, BundleError
    from svc.world.load import load_bundle

    async def work(conn) -> None:
        await conn.execute("CREATE TABLE IF NOT EXISTS keep_me (x int)")
        await conn.execute("INSERT INTO keep_me VALUES (1)")
        steps = []
        for _ in range(2):
            await load_bundle(conn, tiny.path, progress=lambda s, d, t: steps.append((s, d, t)))
        for table in TABLE_NAMES:
            n = await conn.fetchval(f"SELECT count(*) FROM {table}")
            assert n == tiny.manifest["tables"][table]["rows"], table
        assert await conn.fetchval("SELECT count(*) FROM keep_me") == 1
        assert steps and steps[-1][1] == steps[-1][2]
        # accent-insensitive search finds the accented names
        assert await conn.fetchval("SELECT count(*) FROM players WHERE fold(name) <> lower(name)") > 0
        broken = edited_copy(tiny, "broken", "odds", lambda text: text.split("\n", 1)[0] + "\n")
        with pytest.raises(BundleError):
            await load_bundle(conn, broken)
        assert await conn.fetchval("SELECT count(*) FROM odds") == tiny.manifest["tables"]["odds"]["rows"]

    on_new_schema(pg_server_url, f"svc_world_load_{os.getpid()}", work)


def test_an_import_reports_the_rating_and_each_derived_table(tiny: World, pg_server_url) -> None:
    """The longest steps of a full import show progress: the rating's read of the results, each
    derived file in turn, then the rating's write, each seen to its end."""
    from svc.world import derived
    from svc.world.replace import import_bundle

    async def work(conn) -> None:
        steps: list[tuple[str, int, int]] = []
        await import_bundle(conn, tiny.path, progress=lambda s, d, t: steps.append((s, d, t)))
        after_load = [s for s in steps if not s[0].startswith("load ") and s[0] not in ("indexes", "analyze")]
        files = len(list(derived.DERIVED_DIR.glob("*.sql")))
        assert after_load == [
            (derived.READING, 0, 1),
            (derived.READING, 1, 1),
            *(("derived tables", n, files) for n in range(files + 1)),
            (derived.WRITING, 0, 1),
            (derived.WRITING, 1, 1),
        ]
        assert await conn.fetchval("SELECT count(*) FROM rating_days") > 0

    on_new_schema(pg_server_url, f"svc_world_import_steps_{os.getpid()}", work)


def test_load_bundle_still_checks_keys(tiny: World, pg_server_url) -> None:
    """The load adds its keys after the COPY (svc.world.load.keys_checked_after): a bundle whose odds
    name a match it lacks, or that holds one match twice, still fails, and leaves the world and its
    keys as they were."""
    import asyncpg

    from svc.world.load import load_bundle

    keys = "SELECT count(*) FROM pg_constraint WHERE conrelid = ANY ('{matches,odds}'::regclass[])"

    # rows replaced, not added: the manifest's row counts still hold
    def foreign_odds(text: str) -> str:  # a price for a match the bundle lacks
        head, first, rest = text.split("\n", 2)
        return "\n".join([head, "mt_nowhere" + first[first.index(",") :], rest])

    def twice(text: str) -> str:  # the first match again, in place of the second
        head, first, _, rest = text.split("\n", 3)
        return "\n".join([head, first, first, rest])

    async def work(conn) -> None:
        await load_bundle(conn, tiny.path)
        before = await conn.fetchval(keys)
        with pytest.raises(asyncpg.ForeignKeyViolationError):
            await load_bundle(conn, edited_copy(tiny, "foreign", "odds", foreign_odds))
        with pytest.raises(asyncpg.UniqueViolationError):
            await load_bundle(conn, edited_copy(tiny, "twice", "matches", twice))
        assert await conn.fetchval("SELECT count(*) FROM odds") == tiny.manifest["tables"]["odds"]["rows"]
        assert await conn.fetchval(keys) == before > 0

    on_new_schema(pg_server_url, f"svc_world_keys_{os.getpid()}", work)
