"""The live feed plays the tiny world forward from noon: matches in play finish with legal
scores, scheduled ones start on time, the next round is drawn from the winners, every
change is in the change log and the outbox, slipped results are corrected."""

from __future__ import annotations

import datetime as dt

import pytest

from svc.core.clock import Clock
from svc.core.db import Database
from svc.world import engine
from svc.world.feed import play
from svc.world.feed.feed import Feed
from tests.support import NOON, sql

HOURS = 6
STEP = dt.timedelta(minutes=2)


@pytest.fixture(scope="module")
def before(db_url):
    return {
        r["id"]: r for r in sql(db_url, "SELECT id, status, start_at, g1, g2 FROM matches WHERE status <> 'finished'")
    }


@pytest.fixture(scope="module")
def played(db_url, before):
    """The world after HOURS of play from noon (once for the module)."""
    import trio

    async def go():
        # slips are rare (play.SLIP_RATE); here one result in three slips so that corrections happen
        db = Database(db_url, pool_size=2)
        await db.open()
        try:
            feed = Feed(db, Clock(start=NOON + dt.timedelta(hours=HOURS)))
            t = NOON
            while t < NOON + dt.timedelta(hours=HOURS):
                t += STEP
                await feed.step(t)
        finally:
            await db.close()

    rate, play.SLIP_RATE = play.SLIP_RATE, 0.35
    try:
        trio.run(go)
    finally:
        play.SLIP_RATE = rate
    return db_url


def test_matches_in_play_at_noon_finish_with_legal_scores(played, before):
    live_then = [mid for mid, r in before.items() if r["status"] == "live"]
    assert live_then
    rows = sql(
        played,
        "SELECT id, status, g1, g2, winner, outcome, start_at, end_at, day, discipline FROM matches "
        "WHERE id = ANY($1::text[])",
        live_then,
    )
    assert all(r["status"] == "finished" for r in rows)  # none lasts six hours
    for r in rows:
        g1, g2 = list(r["g1"]), list(r["g2"])
        wins = [1 if a > b else 2 for a, b in zip(g1, g2)]
        assert wins.count(r["winner"]) == 2 and wins[-1] == r["winner"] and len(g1) in (2, 3)
        for a, b in zip(g1, g2):
            assert engine.legal_game(max(a, b), min(a, b), r["discipline"], r["day"]), (r["id"], g1, g2)
        assert r["outcome"] == "played" and r["end_at"] > r["start_at"]


def test_scheduled_matches_start_on_time_and_last_30_to_80_minutes(played, before):
    due = [
        mid
        for mid, r in before.items()
        if r["status"] == "scheduled" and r["start_at"] <= NOON + dt.timedelta(hours=HOURS - 2)
    ]
    assert due
    rows = sql(played, "SELECT id, status, start_at, end_at FROM matches WHERE id = ANY($1::text[])", due)
    for r in rows:
        assert r["status"] == "finished", r["id"]
        assert r["start_at"] == before[r["id"]]["start_at"]
        minutes = (r["end_at"] - r["start_at"]).total_seconds() / 60
        assert 25 <= minutes <= 90, (r["id"], minutes)


def test_every_change_is_logged_and_each_start_and_finish_is_in_the_outbox(played, before):
    finished = sql(played, "SELECT id FROM matches WHERE status = 'finished' AND end_at > $1", NOON)
    ids = sorted(r["id"] for r in finished)
    outbox = sql(played, "SELECT type, match_id, payload FROM match_events ORDER BY seq")
    fin = [e for e in outbox if e["type"] == "match.finished"]
    assert sorted(e["match_id"] for e in fin) == ids  # exactly once each
    started = sorted(e["match_id"] for e in outbox if e["type"] == "match.started")
    assert started == sorted(mid for mid in ids if before.get(mid, {}).get("status") != "live")
    for e in fin:
        assert e["payload"]["status"] == "finished" and e["payload"]["match"] == e["match_id"]
        assert e["payload"]["winner"] in (1, 2) and e["payload"]["duration_min"] > 0
    changes = sql(played, "SELECT seq, match_id, kind, payload FROM live_changes ORDER BY seq")
    last_kind = {}
    for c in changes:
        last_kind[c["match_id"]] = c["kind"]
    assert all(last_kind[mid] in ("finished", "corrected") for mid in ids)
    # within a match, the points played never go down until it finishes
    seen: dict[str, int] = {}
    for c in changes:
        if c["kind"] in ("score", "started"):
            pts = sum(sum(g) for g in c["payload"]["games"])
            assert pts >= seen.get(c["match_id"], 0)
            seen[c["match_id"]] = pts


def test_next_round_is_drawn_from_the_winners(played):
    made = sql(
        played,
        """
        SELECT n.id, n.side1, n.side2, n.round_code, n.start_at,
               a.winner AS wa, a.side1 AS a1, a.side2 AS a2, a.end_at AS ea,
               b.winner AS wb, b.side1 AS b1, b.side2 AS b2, b.end_at AS eb
        FROM matches n
        JOIN matches a ON a.tournament_id = n.tournament_id AND a.discipline = n.discipline
             AND a.sport_class IS NOT DISTINCT FROM n.sport_class AND a.tie_id IS NULL
               AND a.position = 2 * n.position - 1
        JOIN matches b ON b.tournament_id = n.tournament_id AND b.discipline = n.discipline
             AND b.sport_class IS NOT DISTINCT FROM n.sport_class AND b.tie_id IS NULL AND b.position = 2 * n.position
        WHERE n.tie_id IS NULL AND a.round_code = b.round_code
          AND array_position(ARRAY['R128','R64','R32','R16','QF','SF','F'], n.round_code)
              = array_position(ARRAY['R128','R64','R32','R16','QF','SF','F'], a.round_code) + 1
          AND a.end_at > $1 AND b.end_at > $1""",
        NOON,
    )
    assert made, "six hours of play complete some pairs of feeders"
    for r in made:
        assert r["side1"] == (r["a1"] if r["wa"] == 1 else r["a2"])
        assert r["side2"] == (r["b1"] if r["wb"] == 1 else r["b2"])
        assert r["start_at"] >= max(r["ea"], r["eb"]) + dt.timedelta(minutes=30)


def test_slipped_results_are_corrected_back_to_the_rallies(played):
    fixed = sql(
        played,
        """
        SELECT c.match_id, c.old_g1, c.old_g2, m.g1, m.g2,
               (SELECT array_agg(score1 ORDER BY game) FROM (SELECT DISTINCT ON (game) game, score1 FROM rallies
                 WHERE match_id = m.id ORDER BY game, rally DESC) x) AS r1,
               (SELECT array_agg(score2 ORDER BY game) FROM (SELECT DISTINCT ON (game) game, score2 FROM rallies
                 WHERE match_id = m.id ORDER BY game, rally DESC) y) AS r2
        FROM corrections c JOIN matches m ON m.id = c.match_id WHERE c.corrected_at > $1""",
        NOON,
    )
    outbox = {r["match_id"] for r in sql(played, "SELECT match_id FROM match_events WHERE type = 'result.corrected'")}
    assert fixed, "with one slip in three, six hours of play correct some results"
    assert {r["match_id"] for r in fixed} == outbox
    for r in fixed:
        assert (r["g1"], r["g2"]) == (r["r1"], r["r2"]) and (r["old_g1"], r["old_g2"]) != (r["g1"], r["g2"])


def test_finished_matches_are_rated_as_a_rebuild_rates_them(played, before):
    """The feed rates each match as it finishes (corrections included): its pre-match chance and its
    players' standings for the day are those a full rebuild of the ratings gives."""
    from svc.core.db import connect_asyncio
    from svc.rating import history
    from tests.support import run

    done = [
        r["id"]
        for r in sql(
            played,
            "SELECT id FROM matches WHERE id = ANY($1) AND status = 'finished' AND outcome <> 'walkover'",
            list(before),
        )
    ]
    assert len(done) >= 5
    query_days = """SELECT d.discipline, d.player_id, d.day, d.rating, d.variance, d.matches
                    FROM rating_days d JOIN matches m ON m.id = ANY($1)
                    AND d.player_id = ANY(m.side1 || m.side2) AND d.discipline = m.discipline AND d.day = m.day
                    ORDER BY 1, 2, 3"""
    query_chances = "SELECT match_id, chance1 FROM rating_matches WHERE match_id = ANY($1) ORDER BY 1"
    live_days, live_chances = sql(played, query_days, done), sql(played, query_chances, done)
    assert len(live_chances) == len(done)
    # every standing holds until the player's next day rated in the discipline, the latest for good
    broken = sql(
        played,
        """SELECT count(*) FROM (SELECT until, lead(day) OVER (PARTITION BY discipline, player_id
                                                                          ORDER BY day) AS next FROM rating_days) x
                            WHERE until IS DISTINCT FROM next""",
    )[0][0]
    assert broken == 0
    # every player's first day rated in a discipline (the size of the all-time table) is kept too
    firsts = """SELECT discipline, player_id, min(day) FROM rating_days GROUP BY 1, 2
                EXCEPT SELECT discipline, player_id, day FROM rating_firsts"""
    assert sql(played, firsts) == [] and sql(played, "SELECT count(*) FROM rating_firsts")[0][0] > 0

    async def rebuilt():
        conn = await connect_asyncio(played)
        try:
            tx = conn.transaction()
            await tx.start()
            await history.rebuild(conn)
            got = (
                [dict(r) for r in await conn.fetch(query_days, done)],
                [dict(r) for r in await conn.fetch(query_chances, done)],
            )
            await tx.rollback()
            return got
        finally:
            await conn.close()

    full_days, full_chances = run(rebuilt())
    assert [(r["discipline"], r["player_id"], r["day"], r["matches"]) for r in live_days] == [
        (r["discipline"], r["player_id"], r["day"], r["matches"]) for r in full_days
    ]
    for a, b in zip(live_days, full_days):
        assert a["rating"] == pytest.approx(b["rating"], abs=0.05) and a["variance"] == pytest.approx(
            b["variance"], rel=1e-3
        )
    for a, b in zip(live_chances, full_chances):
        assert a["match_id"] == b["match_id"] and a["chance1"] == pytest.approx(b["chance1"], abs=1e-4)
