"""The sport's rules a generated world keeps: games legal for their era, winners, brackets, the
Olympic bronze, ids, team ties, rallies, odds, the current week, rankings and corrections. Each
check takes a bundle read by rules_support.World (tests/world/test_rules.py runs them)."""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict

import pytest

from svc.world import engine
from tests.world.rules_support import AS_OF, KNOCKOUT, NOW, World, int_array, ts


def check_games_legal(w: World) -> None:
    for m in w.matches:
        day = w.match_day(m)
        games = list(zip(m["G1"], m["G2"]))
        assert len(m["G1"]) == len(m["G2"]), m["id"]
        # the last game of a retirement or of a match in play is unfinished
        complete = games[:-1] if m["status"] == "live" or m["outcome"] == "retired" else games
        for a, b in complete:
            assert engine.legal_game(max(a, b), min(a, b), m["discipline"], day), (m["id"], day, a, b)
        if m["status"] == "live" or m["outcome"] == "retired":
            if games:
                a, b = games[-1]
                assert max(a, b) <= 30, m["id"]


def check_winners(w: World) -> None:
    for m in w.matches:
        if m["status"] != "finished":
            assert m["W"] is None and not m["outcome"] and not m["end_at"], m["id"]
            continue
        assert m["W"] in (1, 2), m["id"]
        if m["outcome"] == "walkover":
            assert m["G1"] == [] and m["G2"] == [], m["id"]
        elif m["outcome"] == "played":
            won = [sum(a > b for a, b in zip(m["G1"], m["G2"])), sum(b > a for a, b in zip(m["G1"], m["G2"]))]
            assert won[m["W"] - 1] == engine.GAMES_TO_WIN and won[2 - m["W"]] < engine.GAMES_TO_WIN, m["id"]
        else:
            assert m["outcome"] == "retired", m["id"]
            won = [
                sum(a > b for a, b in zip(m["G1"][:-1], m["G2"][:-1])),
                sum(b > a for a, b in zip(m["G1"][:-1], m["G2"][:-1])),
            ]
            assert max(won) < engine.GAMES_TO_WIN, m["id"]


def check_brackets(w: World) -> None:
    draws = defaultdict(dict)
    for m in w.matches:
        if m["tie_id"] or not m["round_code"]:
            continue
        draws[(m["tournament_id"], m["discipline"], m["sport_class"])][(m["round_code"], m["P"])] = m
    checked = 0
    for key, by in draws.items():
        finals = [m for (r, _p), m in by.items() if r == "F"]
        assert len(finals) <= 1, key  # one final (one champion) per event and edition
        for (r, p), m in by.items():
            if r == "3P":
                continue
            i = KNOCKOUT.index(r)
            if r == "F":
                continue
            nxt = by.get((KNOCKOUT[i + 1], math.ceil(p / 2)))
            if nxt is None:
                continue
            if m["status"] == "finished":
                side = nxt["s1"] if p % 2 == 1 else nxt["s2"]
                winner = m["s1"] if m["W"] == 1 else m["s2"]
                assert side == winner, (key, r, p)
                checked += 1
            else:
                pytest.fail(f"{key} {r} {p}: next round known before this match finished")
    assert checked > 0


def check_bronze_and_medals(w: World) -> None:
    for m in w.matches:
        if m["round_code"] == "3P":
            assert w.tournaments[m["tournament_id"]]["series"] == "olympic-games", m["id"]
    olympic_finals = {
        m["tournament_id"]
        for m in w.matches
        if m["round_code"] == "F" and w.tournaments[m["tournament_id"]]["series"] == "olympic-games"
    }
    bronze = {m["tournament_id"] for m in w.matches if m["round_code"] == "3P"}
    assert olympic_finals <= bronze


def check_ids(w: World) -> None:
    prefixes = {
        "players": ("id", "pl_"),
        "tournaments": ("id", "tr_"),
        "matches": ("id", "mt_"),
        "venues": ("id", "vn_"),
        "ties": ("id", "ti_"),
    }
    for table, (col, prefix) in prefixes.items():
        ids = [r[col] for r in w.tables[table]]
        assert len(ids) == len(set(ids)), table
        for i in ids:
            assert i.startswith(prefix) and i[len(prefix) :].isalnum() and i == i.lower(), i
    evs = [m["event_id"] for m in w.matches]
    assert len(evs) == len(set(evs)) and all(e.startswith("ev_") for e in evs)
    players = {p["id"] for p in w.tables["players"]}
    for m in w.matches:
        assert set(m["s1"]) <= players and set(m["s2"]) <= players, m["id"]
        single = m["discipline"] in ("MS", "WS")
        assert len(m["s1"]) == len(m["s2"]) == (1 if single else 2), m["id"]


def check_ties(w: World) -> None:
    ties = {t["id"]: t for t in w.tables["ties"]}
    by_tie = defaultdict(list)
    for m in w.matches:
        if m["tie_id"]:
            by_tie[m["tie_id"]].append(m)
            assert (m["round_code"] or None) == (ties[m["tie_id"]]["round_code"] or None), m["id"]
            assert m["round_name"] == ties[m["tie_id"]]["stage"], m["id"]
    for tid, t in ties.items():
        ms = by_tie[tid]
        if not ms or any(m["status"] != "finished" for m in ms):
            continue
        s1 = sum(m["W"] == 1 for m in ms)
        s2 = sum(m["W"] == 2 for m in ms)
        assert (s1, s2) == (int(t["score1"]), int(t["score2"])), tid
        assert int(t["winner"]) == (1 if s1 > s2 else 2), tid
    stages = {t["stage"] for t in ties.values()}
    assert any(s.startswith("Group") for s in stages) and "Final" in stages


def check_rallies(w: World) -> None:
    by_match = defaultdict(list)
    for r in w.tables["rallies"]:
        by_match[r["match_id"]].append(
            tuple(int(r[k]) for k in ("game", "rally", "server", "winner", "score1", "score2"))
        )
    matches = {m["id"]: m for m in w.matches}
    assert by_match
    for mid, rallies in by_match.items():
        m = matches[mid]
        rules = engine.era_rules(m["discipline"], w.match_day(m))
        rallies.sort()
        last = {}
        prev = None
        for game, n, server, winner, a, b in rallies:
            if prev is None or prev[0] != game:
                before = (0, 0)
                assert n == 1, mid
            else:
                before = (prev[4], prev[5])
                assert n == prev[1] + 1 and server == prev[3], mid  # the rally's winner serves next
            scores = winner == server or rules.rally_point
            expect = (before[0] + (scores and winner == 1), before[1] + (scores and winner == 2))
            assert (a, b) == expect, (mid, game, n)
            last[game] = (a, b)
            prev = (game, n, server, winner, a, b)
        assert [last[g][0] for g in sorted(last)] == m["G1"], mid
        assert [last[g][1] for g in sorted(last)] == m["G2"], mid


def check_odds(w: World) -> None:
    markets = defaultdict(set)
    for o in w.tables["odds"]:
        prices = [float(o[k]) for k in ("open1", "open2", "close1", "close2")]
        assert min(prices) >= 1.01, o
        markets[o["match_id"]].add(o["market"])
        if o["market"] == "winner":
            for a, b in ((prices[0], prices[1]), (prices[2], prices[3])):
                margin = 1 / a + 1 / b - 1
                assert 0.02 <= margin <= 0.10, (o, margin)
    assert any(len(v) == 5 for v in markets.values())  # all five markets somewhere
    matches = {m["id"]: m for m in w.matches}
    assert all(matches[mid]["outcome"] != "walkover" for mid in markets)


def check_current_week(w: World) -> None:
    today = AS_OF
    live = [m for m in w.matches if m["status"] == "live"]
    scheduled = [m for m in w.matches if m["status"] == "scheduled"]
    assert live and scheduled
    for m in live:
        assert ts(m["start_at"]) <= NOW and m["G1"] and not m["end_at"] and not m["winner"], m["id"]
    for m in scheduled:
        assert ts(m["start_at"]) > NOW and m["G1"] == [] and not m["winner"], m["id"]
    ends = [ts(m["end_at"]) for m in w.matches if m["end_at"]]
    assert any(e.date() == today and e <= NOW for e in ends)
    assert all(e <= NOW for e in ends)
    if w.manifest["scale"] == "tiny":
        # the tiny scale's fixed current week (calendar.CURRENT_WEEK) has played since yesterday and
        # plays around the clock; the other scales hold the real calendar's week, gaps and all
        assert any(e.date() == today - dt.timedelta(days=1) for e in ends)
        hours = {
            (ts(m["start_at"]).hour)
            for m in w.matches
            if m["start_at"] and ts(m["start_at"]) >= NOW - dt.timedelta(days=2)
        }
        assert len(hours) >= 20  # play across (nearly) all 24 hours
    future = [t for t in w.tournaments.values() if t["start_date"] and dt.date.fromisoformat(t["start_date"]) > today]
    assert future
    future_ids = {t["id"] for t in future}
    assert not any(m["tournament_id"] in future_ids for m in w.matches)


def check_rankings(w: World) -> None:
    lists = defaultdict(list)
    for r in w.tables["rankings"]:
        lists[(r["discipline"], r["week"], r["full_list"])].append((int(r["rank"]), int(r["points"]), r))
    assert lists
    full_weeks = defaultdict(set)
    for (disc, week, full), rows in lists.items():
        day = dt.date.fromisoformat(week)
        assert day.weekday() == 1, week  # published on Tuesdays
        rows.sort(key=lambda x: x[0])
        assert [x[0] for x in rows] == list(range(1, len(rows) + 1)), (disc, week)
        pts = [x[1] for x in rows]
        assert pts == sorted(pts, reverse=True), (disc, week)
        if full == "t":
            assert day >= dt.date(2026, 9, 1)
            full_weeks[disc].add(day)
        else:
            assert dt.date(2009, 9, 28) <= day <= dt.date(2026, 8, 31)
            assert len(rows) <= 25
        for _rank, _pts, r in rows:
            if disc in ("MD", "WD", "XD") and r["player1"]:
                assert " / " in r["name"] and r["player2"], r
    for disc, weeks in full_weeks.items():
        weeks = sorted(weeks)
        assert all((b - a).days == 7 for a, b in zip(weeks, weeks[1:])), disc
    assert any(not r["player1"] for r in w.tables["rankings"] if r["full_list"] == "t")
    assert any(r["full_list"] == "f" for r in w.tables["rankings"])


def check_corrections(w: World) -> None:
    matches = {m["id"]: m for m in w.matches}
    assert w.tables["corrections"]
    for c in w.tables["corrections"]:
        m = matches[c["match_id"]]
        assert ts(c["corrected_at"]) <= NOW
        assert m["status"] == "finished"
        assert (int_array(c["old_g1"]), int_array(c["old_g2"]), int(c["old_winner"])) != (m["G1"], m["G2"], m["W"])
