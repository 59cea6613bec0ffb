"""The results feed: /v1/results/yesterday, /v1/results, /v1/fixtures, /v1/events/{id}, and
point by point, /v1/events/{id}/points. Rallies are held for the newest matches only
(finished matches of the last twelve months and matches in play); a match in play needs the
Live plan."""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from svc.core.clock import Clock
from svc.core.db import Database
from svc.core.errors import ApiError, invalid, not_found
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import discipline_param, param, path_id
from svc.web.records import Event, event_from_row


def _events(call: Call, rows, *, odds_for_all: bool = False) -> list[Event]:
    with_odds = odds_for_all or call.sees_odds
    return [event_from_row(r, with_odds=with_odds) for r in rows]


def _page(call: Call, rows) -> Page:
    return call.page(rows, lambda r: event_from_row(r, with_odds=call.sees_odds))


@endpoint(
    "/v1/results/yesterday",
    plan="free",
    summary="Events finished yesterday (UTC), with closing prices",
    returns=Event,
    many=True,
    cache_seconds=5,  # "yesterday" moves at midnight; corrections arrive
    description="Every event finished yesterday (UTC) with its score and, where bookmakers priced it, "
    "its opening and closing prices (for every plan).",
)
async def results_yesterday(call: Call) -> Answer:
    day = call.clock.today() - dt.timedelta(days=1)
    rows = await call.db.fetch(Q.events.finished_on, day=day, discipline=None, offset=0, limit=100_000)
    return Answer(_events(call, rows, odds_for_all=True), {"date": day.isoformat(), "count": len(rows)})


@attrs.frozen
class ResultsParams(Paging):
    date: dt.date = param(
        "Day the events finished (UTC), YYYY-MM-DD. The Free key covers yesterday and today; "
        "Archive covers every day held.",
        required=True,
    )
    discipline: str | None = discipline_param()


def free_days(clock: Clock) -> tuple[dt.date, dt.date]:
    """The first and last day (UTC) the Free key's results cover: yesterday and today (interface.md)."""
    today = clock.today()
    return today - dt.timedelta(days=1), today


async def results_plan(p: ResultsParams, db: Database, clock: Clock) -> str:
    today = clock.today()
    if p.date > today:
        raise invalid(f"parameter `date` ({p.date}) is after today ({today}); nothing has finished yet", "date")
    return "free" if p.date >= free_days(clock)[0] else "archive"


def results_plan_note(p: ResultsParams, clock: Clock, refused: ApiError) -> None:
    """A Free key refused a day before yesterday: the refusal names the days it covers, in its
    message and as error.covers {from, to}."""
    first, last = free_days(clock)
    refused.message = (
        f"results of {p.date} need the Archive plan, which covers every day held; the Free key covers "
        f"yesterday and today (UTC): {first} to {last}. The key's account is on the Free plan"
    )
    refused.extra["covers"] = {"from": first.isoformat(), "to": last.isoformat()}


@endpoint(
    "/v1/results",
    plan="free",
    summary="Events finished on a day",
    params=ResultsParams,
    returns=Event,
    many=True,
    plan_for=results_plan,
    plan_note=results_plan_note,
    cache_seconds=5,  # today's list grows as matches finish
    description="Events finished on `date` (UTC), in the order they ended. The Free key covers yesterday "
    "and today; another day answers 403 upgrade_required with plan archive, whose message names "
    "the days the Free key covers and whose `error.covers` gives them as {from, to} (YYYY-MM-DD). "
    "A day after today answers 422.",
)
async def results(call: Call) -> Page:
    rows = await call.db.fetch(
        Q.events.finished_on, day=call.p.date, discipline=call.p.discipline, offset=call.offset, limit=call.limit
    )
    return _page(call, rows)


@attrs.frozen
class FixturesParams(Paging):
    discipline: str | None = discipline_param()


@endpoint(
    "/v1/fixtures",
    plan="free",
    summary="Events under way and scheduled next, soonest first",
    params=FixturesParams,
    returns=Event,
    many=True,
    cache_seconds=2,  # scores move with every rally
    description="Events under way (status live) and scheduled next (status scheduled), by start time, "
    "soonest first; events under way therefore come first.",
)
async def fixtures(call: Call) -> Page:
    rows = await call.db.fetch(Q.events.open, discipline=call.p.discipline, offset=call.offset, limit=call.limit)
    return _page(call, rows)


@attrs.frozen
class EventParams:
    id: str = path_id("ev_", "Event id (ev_...).")


@endpoint(
    "/v1/events/{id}", plan="free", summary="One event", params=EventParams, returns=Event, cache_seconds=2
)  # an event in play changes with every rally
async def event(call: Call) -> Answer:
    row = await call.db.fetchrow(Q.events.by_id, id=call.p.id)
    if row is None:
        raise not_found(f"no event with id {call.p.id}")
    return Answer(_events(call, [row])[0])


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
        metadata=doc(
            "points scored on rallies the other side served (receiving); always 0 under side-out scoring, "
            "where winning against serve only wins the serve back"
        )
    )
    longest_run: int = attrs.field(metadata=doc("most points scored in a row within one game"))


@attrs.frozen
class PointsParams:
    id: str = param(
        "Event id (ev_...) or the id of its draw match (mt_...).", location="path", pattern=MATCH_OR_EVENT_ID
    )


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
    sides = [
        SidePoints(
            side=s,
            points=on_serve[s] + against[s],
            won_on_serve=on_serve[s],
            won_against_serve=against[s],
            longest_run=longest[s],
        )
        for s in (1, 2)
    ]
    return games, sides


@endpoint(
    "/v1/events/{id}/points",
    plan="archive",
    summary="Point by point: every rally, game by game",
    params=PointsParams,
    returns=GamePoints,
    many=True,
    plan_for=points_plan,
    cache_seconds=2,  # a match in play gains a rally every few seconds
    description="Every rally of a match, game by game: the score after it, the side that won it and the side "
    "that served it. `meta.sides` gives each side's points won on serve and against serve "
    "(receiving) and its longest run of points within a game. Rallies are held for finished "
    "matches of the last twelve months and for matches in play; a match without them answers an "
    "empty list with `meta.note`. A match in play needs the Live plan (403 upgrade_required, plan "
    "live). Accepts the event id (ev_) or its draw match id (mt_). Unknown id: 404.",
)
async def points(call: Call) -> Answer:
    r = await call.db.fetchrow(Q.events.points, id=call.p.id)
    if r is None:  # removed between the plan check and now
        raise not_found(f"no event or match with id {call.p.id}")
    meta: dict[str, Any] = {"event": r["event_id"], "match": r["match_id"], "status": r["status"]}
    if not r["rallies"]:
        meta["sides"] = None
        meta["note"] = (
            "the match has not started"
            if r["status"] == "scheduled"
            else "a walkover: no rally was played"
            if r["outcome"] == "walkover"
            else "no point-by-point record is held for this match: rallies are kept for matches of the "
            "last twelve months and matches in play"
        )
        return Answer([], meta)
    games, sides = summarise(r["rallies"])
    meta["sides"] = sides
    return Answer(games, meta)
