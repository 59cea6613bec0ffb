"""The live feed's writes, on the database side: each function is the work of one
`Database.transaction` (it takes the transaction's Tx and awaits asyncpg only), writing what
a step decided (svc.world.feed.decisions) -- the match's rows, its change in the change log
(svc.world.feed.publish: the stream's row, the webhooks' outbox row, the NOTIFY) and what
follows from it -- so that all of one match's step commits together or not at all.

What they read, they read to write: a row already there (a draw drawn, a match scheduled, a
correction made by another feed a moment ago) makes the write a no-op; the change log's
payload is the match's row as written.
"""

from __future__ import annotations

import datetime as dt

from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx
from svc.rating import history as ratings
from svc.world.feed.decisions import Correction, Finished, InPlay, NextMatch, Rallies
from svc.world.feed.editions import Drawn
from svc.world.feed.publish import publish


async def draw(tx: Tx, d: Drawn, at: dt.datetime) -> None:
    """An edition's draw: its new players, its first round's matches and their prices; nothing when
    it was drawn already."""
    done = await tx.fetch(Q.feed.edition_drawn, tournament_id=d.tournament_id, at=at, matches=len(d.matches))
    if not done:
        return  # drawn already (another feed, a moment ago)
    if d.players:
        cols = list(zip(*d.players))
        await tx.fetch(
            Q.feed.players_insert,
            ids=list(cols[0]),
            names=list(cols[1]),
            slugs=list(cols[2]),
            countries=list(cols[3]),
            genders=list(cols[4]),
            borns=list(cols[5]),
            hands=list(cols[6]),
            heights=list(cols[7]),
            coaches=list(cols[8]),
            classes=list(cols[9]),
            strengths=list(cols[10]),
        )
    ms = d.matches
    if ms:
        await tx.fetch(
            Q.feed.draw_insert,
            tournament_id=d.tournament_id,
            ids=[m.id for m in ms],
            event_ids=[m.event_id for m in ms],
            disciplines=[m.disc for m in ms],
            classes=[m.sport_class for m in ms],
            round_codes=[m.round_code for m in ms],
            round_names=[m.round_name for m in ms],
            positions=[m.position for m in ms],
            sides1=[",".join(p.id for p in m.side1) for m in ms],
            sides2=[",".join(p.id for p in m.side2) for m in ms],
            seeds1=[m.seed1 for m in ms],
            seeds2=[m.seed2 for m in ms],
            days=[m.day for m in ms],
            starts=[m.start_at for m in ms],
        )
    if d.odds:
        cols = list(zip(*d.odds))
        await tx.fetch(
            Q.feed.odds_rows_insert,
            match_ids=list(cols[0]),
            books=list(cols[1]),
            markets=list(cols[2]),
            lines=list(cols[3]),
            open1=list(cols[4]),
            open2=list(cols[5]),
            close1=list(cols[6]),
            close2=list(cols[7]),
        )


async def in_play(tx: Tx, step: InPlay, now: dt.datetime) -> None:
    """A match that goes on: its rallies, score and in-play prices, reported as `started` (its first
    rally) or `score` at `now`."""
    r = step.rallies
    await _rallies(tx, r)
    await tx.fetch(Q.feed.score, match_id=r.match_id, g1=r.g1, g2=r.g2, rally_no=r.rally_no, next_at=r.next_at)
    q = step.quotes
    if q is not None:
        await tx.fetch(Q.feed.prices, match_id=r.match_id, books=q.books, price1=q.price1, price2=q.price2, at=now)
    await publish(tx, r.match_id, "started" if r.first else "score", now)


async def finished(tx: Tx, f: Finished, now: dt.datetime) -> None:
    """A match won: its last rallies and result (as published), rated, its slip noted for
    correction, reported (`started` too when it began and ended in one step) at `now`; then what it
    schedules, and its edition recorded finished when this was its last match."""
    match_id = f.rallies.match_id
    await _rallies(tx, f.rallies)
    await tx.fetch(
        Q.feed.finish, match_id=match_id, g1=f.published_g1, g2=f.published_g2, winner=f.winner, end_at=f.ended_at
    )
    await tx.fetch(Q.feed.forget_match, match_id=match_id)
    await tx.fetch(Q.feed.prices_drop, match_id=match_id)
    await ratings.advance(tx.connection, match_id)
    if f.slip is not None:
        await tx.fetch(
            Q.feed.correction_plan,
            match_id=match_id,
            due_at=f.slip.due_at,
            true_g1=f.slip.true_g1,
            true_g2=f.slip.true_g2,
        )
    if f.rallies.first:
        await publish(tx, match_id, "started", now)
    await publish(tx, match_id, "finished", now)
    for nxt in f.next_matches:
        await _schedule(tx, nxt)
    if f.may_end_edition:
        await tx.fetch(Q.feed.edition_finished, tournament_id=f.tournament_id, at=f.ended_at)


async def corrected(tx: Tx, c: Correction, now: dt.datetime) -> None:
    """A slipped result set right, the players' day rated again with it (a later day is left to
    the next import), reported as `corrected` at `now`; nothing when it was corrected already."""
    if await tx.fetch(Q.feed.correct, match_id=c.match_id, g1=c.g1, g2=c.g2, at=c.at):
        await ratings.advance(tx.connection, c.match_id)
        await publish(tx, c.match_id, "corrected", now)


async def _rallies(tx: Tx, r: Rallies) -> None:
    cols = list(zip(*r.played))
    await tx.fetch(
        Q.feed.rallies_insert,
        match_id=r.match_id,
        games=list(cols[0]),
        rallies=list(cols[1]),
        servers=list(cols[2]),
        winners=list(cols[3]),
        score1=list(cols[4]),
        score2=list(cols[5]),
    )


async def _schedule(tx: Tx, m: NextMatch) -> None:
    """A next-round match with its opening prices; nothing when it is there already."""
    new = await tx.fetch(
        Q.feed.match_insert,
        id=m.id,
        event_id=m.event_id,
        tournament_id=m.tournament_id,
        discipline=m.discipline,
        sport_class=m.sport_class,
        round_code=m.round_code,
        round_name=m.round_name,
        position=m.position,
        side1=list(m.side1),
        side2=list(m.side2),
        seed1=m.seed1,
        seed2=m.seed2,
        day=m.day,
        start_at=m.start_at,
    )
    if new and m.quotes is not None:
        q = m.quotes
        await tx.fetch(Q.feed.odds_insert, match_id=new[0]["id"], books=q.books, price1=q.price1, price2=q.price2)
