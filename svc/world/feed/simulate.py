"""The live feed's simulation: what a step does to a match, computed in Trio without I/O
(the feed reads the rows first and writes the decisions after, svc.world.feed.persist).

A match's rows (Q.feed.load, Q.feed.margins, Q.feed.round, Q.feed.strengths) come in as read;
out come the values of svc.world.feed.decisions. Every random draw is named by the match (and
the rally), so the same match replayed from the same rows plays out the same way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from svc.world import engine
from svc.world.feed import play
from svc.world.feed.decisions import Correction, Finished, InPlay, NextMatch, Quotes, Rallies, Side, Slip
from svc.world.feed.editions import Calendar
from svc.world.generate.draws import ROUND_NAMES, rounds_of
from svc.world.generate.ids import make_id, sub_rng
from svc.world.generate.prices import IN_PLAY, prices
from svc.world.generate.timetable import NEXT_ROUND_GAP, on_five

Row = Mapping[str, Any]  # a row as read (asyncpg.Record or dict)
KNOCKOUT = tuple(rounds_of(128))  # the generator's rounds, first to final


# -- rallies ---------------------------------------------------------------------------------
def play_due(m: Row, t: dt.datetime) -> play.Play | None:
    """Plays match `m` (a Q.feed.load row) through every rally due by `t`; None when none was due."""
    match_id = m["id"]
    g1, g2 = list(m["g1"]), list(m["g2"])
    in_game = m["last_rally"] if m["last_game"] is not None and m["last_game"] == len(g1) else 0
    first_server = 1 if sub_rng(match_id, "toss").random() < 0.5 else 2
    st = play.Play(
        match_id=match_id,
        g1=g1,
        g2=g2,
        server=m["last_winner"] or first_server,
        rally_no=m["rally_no"],
        rally_in_game=in_game,
        next_at=m["next_at"],
    )
    # played with the form on the day (named by the match, so a replay plays the same), which the
    # bookmakers learn only from the rallies (in_play_quotes)
    rules = engine.era_rules(m["discipline"], m["day"] or m["start_at"].date())
    p_day = engine.rally_chance(
        (m["s1"] or 0.0) + engine.form(sub_rng(match_id, "form"), m["discipline"]), m["s2"] or 0.0
    )
    play.play_until(st, p_day, rules, t, engine.bias(m["discipline"], rules))
    return st if st.rallies else None


def rallies_of(m: Row, st: play.Play) -> Rallies:
    return Rallies(
        match_id=m["id"],
        played=list(st.rallies),
        g1=list(st.g1),
        g2=list(st.g2),
        rally_no=st.rally_no,
        next_at=st.next_at,
        first=m["rally_no"] == 0,
    )


def in_play(m: Row, st: play.Play, books: Sequence[Row]) -> InPlay:
    """The match goes on; `books` are its Q.feed.margins rows."""
    return InPlay(rallies_of(m, st), in_play_quotes(st, m["discipline"], books))


def in_play_quotes(st: play.Play, discipline: str, books: Sequence[Row]) -> Quotes | None:
    """In-play prices: from the bookmakers' closing price, moved by the score (play.in_play_chance)."""
    if not books:
        return None
    closing = sum(b["chance_close"] for b in books) / len(books)
    chance = play.in_play_chance(st, play.market_gap(round(closing, 4), discipline), discipline)
    return _quotes(chance, books)


def _quotes(chance: float, books: Sequence[Row]) -> Quotes:
    quotes = [prices(chance, b["margin"], IN_PLAY) for b in books]
    return Quotes([b["bookmaker"] for b in books], [q[0] for q in quotes], [q[1] for q in quotes])


def finished(m: Row, st: play.Play, next_matches: list[NextMatch]) -> Finished:
    """The match is won (st.winner); `next_matches` from next_match."""
    assert st.winner is not None and st.ended_at is not None
    match_id = m["id"]
    published = play.slip(match_id, st.g1, st.g2)
    slip = None
    if published is not None:
        lo, hi = play.CORRECT_AFTER_MIN
        due = st.ended_at + dt.timedelta(minutes=sub_rng(match_id, "due").randint(lo, hi))
        slip = Slip(due_at=due, true_g1=list(st.g1), true_g2=list(st.g2))
    g1p, g2p = published or (st.g1, st.g2)
    last_kind = m["round_code"] in ("F", "3P") or m["tie_id"] is not None or m["round_code"] is None
    return Finished(
        rallies=rallies_of(m, st),
        tournament_id=m["tournament_id"],
        winner=st.winner,
        ended_at=st.ended_at,
        published_g1=list(g1p),
        published_g2=list(g2p),
        slip=slip,
        next_matches=next_matches,
        may_end_edition=last_kind,
    )


def correction(row: Row, t: dt.datetime) -> Correction:
    """A Q.feed.corrections_due row as its correction, recorded at world time `t`."""
    return Correction(match_id=row["match_id"], g1=list(row["true_g1"]), g2=list(row["true_g2"]), at=t)


# -- the next round -------------------------------------------------------------------------
def leads_on(m: Row) -> bool:
    """Whether a knockout match's result feeds a next-round match (team ties, group stages, finals
    and bronze matches lead nowhere here)."""
    return m["tie_id"] is None and m["round_code"] in KNOCKOUT[:-1]


def feeder_positions(position: int) -> tuple[int, int]:
    """The two places of a round that feed one match of the next."""
    return (position, position + 1) if position % 2 else (position - 1, position)


@attrs.frozen
class Pairing:
    """Who meets in a match of round `round_code` at `position`: (side, seed) each; its feeders ended by `latest`."""

    round_code: str
    position: int
    sides: tuple[tuple[Side, int | None], tuple[Side, int | None]]
    latest: dt.datetime


def pairings(m: Row, st: play.Play, feeders: Sequence[Row], bronze: bool) -> list[Pairing]:
    """The matches to schedule now that `m` is won: none until both of its feeders (Q.feed.round
    rows, read before this result is written: `m`'s own row is taken as won here) are finished;
    then the next round's match, and after a semi-final the bronze match when the edition has one."""
    assert st.winner is not None and st.ended_at is not None
    done = [
        {**dict(f), "status": "finished", "winner": st.winner, "end_at": st.ended_at} if f["id"] == m["id"] else f
        for f in feeders
    ]
    if len(done) != 2 or any(f["status"] != "finished" or f["winner"] is None for f in done):
        return []
    code, position = m["round_code"], m["position"]
    latest = max(f["end_at"] or st.ended_at for f in done)
    winners = [(f["side1"], f["seed1"]) if f["winner"] == 1 else (f["side2"], f["seed2"]) for f in done]
    out = [Pairing(KNOCKOUT[KNOCKOUT.index(code) + 1], (position + 1) // 2, _two(winners), latest)]
    if code == "SF" and bronze:
        losers = [(f["side2"], f["seed2"]) if f["winner"] == 1 else (f["side1"], f["seed1"]) for f in done]
        out.append(Pairing("3P", 1, _two(losers), latest))
    return out


def _two(sides: list[tuple[Any, Any]]) -> tuple[tuple[Side, int | None], tuple[Side, int | None]]:
    return (tuple(sides[0][0]), sides[0][1]), (tuple(sides[1][0]), sides[1][1])


def next_match(
    m: Row, pairing: Pairing, calendar: Calendar | None, books: Sequence[Row], strengths: Row | None
) -> NextMatch:
    """The match `pairing` schedules, in `m`'s draw: at its planned time in the edition's timetable
    (made beforehand: Calendar.plan) or 30 minutes after its later feeder, whichever is later;
    priced like its feeder (`books`, its Q.feed.margins) from the sides' `strengths` (Q.feed.strengths)."""
    tournament_id, code = m["tournament_id"], pairing.round_code
    key = (tournament_id, m["discipline"], m["sport_class"], code, pairing.position, None, None)
    match_id = make_id("mt_", *key)
    start = on_five(pairing.latest + NEXT_ROUND_GAP)
    planned = calendar.planned(tournament_id, match_id) if calendar is not None else None
    if planned is not None and planned.start_at > start:
        start = planned.start_at
    day = calendar.local_day(tournament_id, start) if calendar is not None else start.date()
    quotes = None
    if books and strengths is not None:
        chance, _game = engine.match_chance(
            (strengths["s1"] or 0.0) - (strengths["s2"] or 0.0), engine.RALLY, m["discipline"]
        )
        quotes = _quotes(chance, books)
    (side1, seed1), (side2, seed2) = pairing.sides
    return NextMatch(
        id=match_id,
        event_id=make_id("ev_", *key),
        tournament_id=tournament_id,
        discipline=m["discipline"],
        sport_class=m["sport_class"],
        round_code=code,
        round_name=ROUND_NAMES[code],
        position=pairing.position,
        side1=side1,
        side2=side2,
        seed1=seed1,
        seed2=seed2,
        day=day,
        start_at=start,
        quotes=quotes,
    )
