"""Point by point: /v1/events/{id}/points.

Rallies are held for the newest matches only (finished matches of the last twelve months and
matches in play); a match in play needs the Live plan."""

from __future__ import annotations

from typing import Any

import attrs

from svc.core.clock import Clock
from svc.web.convert import doc
from svc.core.db import Database
from svc.web.endpoint import Answer, Call, endpoint
from svc.core.errors import not_found
from svc.web.params import param
from svc.core.sqlfiles import Q

MATCH_OR_EVENT_ID = r"^(ev|mt)_[A-Za-z0-9-]{1,64}$"  # the event, or its draw match: both name one match


@attrs.frozen
class Rally:
    rally: int = attrs.field(metadata=doc("1-based within the game"))
    score: list[int] = attrs.field(metadata=doc("score after the rally, side 1 first"))
    winner: int = attrs.field(metadata=doc("side that won the rally, 1 or 2"))
    server: int = attrs.field(metadata=doc("side that served it, 1 or 2"))


@attrs.frozen
class GamePoints:
    game: int = attrs.field(metadata=doc("1-based"))
    score: list[int] = attrs.field(metadata=doc("score after the game's last rally held, side 1 first"))
    rallies: list[Rally]


@attrs.frozen
class SidePoints:
    side: int
    points: int = attrs.field(metadata=doc("points scored (won_on_serve + won_against_serve)"))
    won_on_serve: int = attrs.field(metadata=doc("points scored on rallies this side served"))
    won_against_serve: int = attrs.field(
        metadata=doc("points scored on rallies the other side served (receiving); always 0 under side-out scoring, "
                     "where winning against serve only wins the serve back"))
    longest_run: int = attrs.field(metadata=doc("most points scored in a row within one game"))


@attrs.frozen
class PointsParams:
    id: str = param("Event id (ev_...) or the id of its draw match (mt_...).", location="path",
                    pattern=MATCH_OR_EVENT_ID)


async def points_plan(p: PointsParams, db: Database, clock: Clock) -> str:
    """A match in play is Live-plan data; anything else is in the Archive."""
    status = await db.fetchval(Q.events.match_status, id=p.id)
    if status is None:
        raise not_found(f"no event or match with id {p.id}")
    return "live" if status == "live" else "archive"


def summarise(rallies: list[dict[str, Any]]) -> tuple[list[GamePoints], list[SidePoints]]:
    """Games with their rallies, and per side: points on and against serve and the longest run.
    A point is counted where the side's score went up (under side-out scoring a rally won by the
    receiver changes only the serve)."""
    games: list[GamePoints] = []
    on_serve, against, longest = [0, 0, 0], [0, 0, 0], [0, 0, 0]
    run_side, run = 0, 0
    before = (0, 0)
    for r in rallies:
        if not games or games[-1].game != r["game"]:
            games.append(GamePoints(game=r["game"], score=[0, 0], rallies=[]))
            before, run_side, run = (0, 0), 0, 0
        after = (r["s1"], r["s2"])
        scorer = 1 if after[0] > before[0] else 2 if after[1] > before[1] else 0
        if scorer:
            (on_serve if r["server"] == scorer else against)[scorer] += 1
            run = run + 1 if run_side == scorer else 1
            run_side = scorer
            longest[scorer] = max(longest[scorer], run)
        games[-1].rallies.append(Rally(rally=r["rally"], score=list(after), winner=r["winner"], server=r["server"]))
        games[-1].score[:] = list(after)
        before = after
    sides = [SidePoints(side=s, points=on_serve[s] + against[s], won_on_serve=on_serve[s],
                        won_against_serve=against[s], longest_run=longest[s]) for s in (1, 2)]
    return games, sides


@endpoint("/v1/events/{id}/points", plan="archive", summary="Point by point: every rally, game by game",
          params=PointsParams, returns=GamePoints, many=True, plan_for=points_plan,
          cache_seconds=2,  # a match in play gains a rally every few seconds
          description="Every rally of a match, game by game: the score after it, the side that won it and the side "
                      "that served it. `meta.sides` gives each side's points won on serve and against serve "
                      "(receiving) and its longest run of points within a game. Rallies are held for finished "
                      "matches of the last twelve months and for matches in play; a match without them answers an "
                      "empty list with `meta.note`. A match in play needs the Live plan (403 upgrade_required, plan "
                      "live). Accepts the event id (ev_) or its draw match id (mt_). Unknown id: 404.")
async def points(call: Call) -> Answer:
    r = await call.db.fetchrow(Q.events.points, id=call.p.id)
    if r is None:  # removed between the plan check and now
        raise not_found(f"no event or match with id {call.p.id}")
    meta: dict[str, Any] = {"event": r["event_id"], "match": r["match_id"], "status": r["status"]}
    if not r["rallies"]:
        meta["sides"] = None
        meta["note"] = ("the match has not started" if r["status"] == "scheduled"
                        else "a walkover: no rally was played" if r["outcome"] == "walkover"
                        else "no point-by-point record is held for this match: rallies are kept for matches of the "
                             "last twelve months and matches in play")
        return Answer([], meta)
    games, sides = summarise(r["rallies"])
    meta["sides"] = sides
    return Answer(games, meta)
