"""The results feed: /v1/results/yesterday, /v1/results, /v1/fixtures, /v1/events/{id}."""

from __future__ import annotations

import datetime as dt

import attrs

from svc.core.clock import Clock
from svc.core.db import Database
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.core.errors import invalid, not_found
from svc.web.params import Paging, discipline_param, param, path_id
from svc.web.records import Event, event_from_row
from svc.core.sqlfiles import Q


def _events(call: Call, rows, *, odds_for_all: bool = False) -> list[Event]:
    with_odds = odds_for_all or call.sees_odds
    return [event_from_row(r, with_odds=with_odds) for r in rows]


def _page(call: Call, rows) -> Page:
    return call.page(rows, lambda r: event_from_row(r, with_odds=call.sees_odds))


@endpoint("/v1/results/yesterday", plan="free", summary="Events finished yesterday (UTC), with closing prices",
          returns=Event, many=True, cache_seconds=5,  # "yesterday" moves at midnight; corrections arrive
          description="Every event finished yesterday (UTC) with its score and, where bookmakers priced it, "
                      "its opening and closing prices (for every plan).")
async def results_yesterday(call: Call) -> Answer:
    day = call.clock.today() - dt.timedelta(days=1)
    rows = await call.db.fetch(Q.events.finished_on, day=day, discipline=None, offset=0, limit=100_000)
    return Answer(_events(call, rows, odds_for_all=True), {"date": day.isoformat(), "count": len(rows)})


@attrs.frozen
class ResultsParams(Paging):
    date: dt.date = param("Day the events finished (UTC), YYYY-MM-DD. The Free key covers yesterday and today; "
                          "Archive covers every day held.", required=True)
    discipline: str | None = discipline_param()


async def results_plan(p: ResultsParams, db: Database, clock: Clock) -> str:
    today = clock.today()
    if p.date > today:
        raise invalid(f"parameter `date` ({p.date}) is after today ({today}); nothing has finished yet")
    return "free" if p.date >= today - dt.timedelta(days=1) else "archive"


@endpoint("/v1/results", plan="free", summary="Events finished on a day", params=ResultsParams, returns=Event,
          many=True, plan_for=results_plan, cache_seconds=5,  # today's list grows as matches finish
          description="Events finished on `date` (UTC), in the order they ended. The Free key covers yesterday "
                      "and today; another day answers 403 upgrade_required with plan archive. A day after today "
                      "answers 422.")
async def results(call: Call) -> Page:
    rows = await call.db.fetch(Q.events.finished_on, day=call.p.date, discipline=call.p.discipline,
                               offset=call.offset, limit=call.limit)
    return _page(call, rows)


@attrs.frozen
class FixturesParams(Paging):
    discipline: str | None = discipline_param()


@endpoint("/v1/fixtures", plan="free", summary="Events under way and scheduled next, soonest first",
          params=FixturesParams, returns=Event, many=True, cache_seconds=2,  # scores move with every rally
          description="Events under way (status live) and scheduled next (status scheduled), by start time, "
                      "soonest first; events under way therefore come first.")
async def fixtures(call: Call) -> Page:
    rows = await call.db.fetch(Q.events.open, discipline=call.p.discipline, offset=call.offset, limit=call.limit)
    return _page(call, rows)


@attrs.frozen
class EventParams:
    id: str = path_id("ev_", "Event id (ev_...).")


@endpoint("/v1/events/{id}", plan="free", summary="One event", params=EventParams, returns=Event,
          cache_seconds=2)  # an event in play changes with every rally
async def event(call: Call) -> Answer:
    row = await call.db.fetchrow(Q.events.by_id, id=call.p.id)
    if row is None:
        raise not_found(f"no event with id {call.p.id}")
    return Answer(_events(call, [row])[0])
