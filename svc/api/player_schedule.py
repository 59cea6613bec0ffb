"""A player's schedule (/v1/players/{id}/schedule): the events they played, newest first, with
the rest between them and how many they played back to back."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import attrs

from svc.api.players import PlayerPath, require_player
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import ROUND_CODES, discipline_param, param
from svc.web.records import TournamentRef

# -- /v1/players/{id}/schedule ---------------------------------------------------------------


SCHEDULE_LAST = 20  # interface.md: schedule last 1 to 100, default 20
SCHEDULE_MAX = 100
BACK_TO_BACK_DAYS = 7  # interface.md: back_to_back when an event starts within a week of the previous ending
WINDOWS = (30, 60, 90)  # interface.md: meta holds events and matches in the last 30 to 90 days
Furthest = Literal["F", "SF", "QF", "R16", "R32", "R64", "R128"]


@attrs.frozen
class ScheduleRow:
    tournament: TournamentRef
    level: str = attrs.field(metadata=doc("senior or junior"))
    start: dt.date | None = attrs.field(metadata=doc("the edition's first day"))
    end: dt.date | None = attrs.field(metadata=doc("the edition's last day"))
    disciplines: list[str] = attrs.field(metadata=doc("disciplines the player entered"))
    matches: int = attrs.field(metadata=doc("finished matches up to the chosen date, walkovers included"))
    wins: int
    furthest: Furthest | None = attrs.field(
        metadata=doc("furthest knockout round reached (a bronze match counts as SF); null when only group matches")
    )
    title: bool = attrs.field(metadata=doc("won the final of an individual event"))
    rest_days: int | None = attrs.field(
        metadata=doc("free days between the previous event's end and this start; null for the first")
    )
    back_to_back: bool = attrs.field(metadata=doc("started within a week of the previous event's end"))
    week_run: int = attrs.field(metadata=doc("events in a row, ending with this one, played back to back"))


@attrs.frozen
class ScheduleParams(PlayerPath):
    discipline: str | None = discipline_param()
    date: dt.date | None = param(
        "The day to look from (YYYY-MM-DD); default today. Events starting later are left out "
        "and counts are as on that day."
    )
    last: int = param("Events to return.", default=SCHEDULE_LAST, minimum=1, maximum=SCHEDULE_MAX)


_RANK_TO_ROUND = {i + 1: code for i, code in enumerate(ROUND_CODES) if code != "3P"}  # round_rank() in SQL


def schedule_rows(rows: list[Any]) -> list[ScheduleRow]:
    """Rows of Q.player_schedule.schedule (oldest first) with rest, back-to-back and week runs; oldest first."""
    out: list[ScheduleRow] = []
    prev_end: dt.date | None = None
    run = 0
    for r in rows:
        start, end = r["start_date"], r["end_date"] or r["start_date"]
        rest = None
        if out and start is not None and prev_end is not None:
            rest = max(0, (start - prev_end).days - 1)  # overlapping events leave no free day
        back = rest is not None and (start - prev_end).days <= BACK_TO_BACK_DAYS
        run = run + 1 if back else 1
        out.append(
            ScheduleRow(
                tournament=TournamentRef(id=r["id"], name=r["name"], year=r["year"]),
                level=r["level"],
                start=r["start_date"],
                end=r["end_date"],
                disciplines=list(r["disciplines"]),
                matches=r["matches"],
                wins=r["wins"],
                furthest=_RANK_TO_ROUND.get(r["furthest_rank"]),
                title=r["title"],
                rest_days=rest,
                back_to_back=back,
                week_run=run,
            )
        )
        prev_end = end
    return out


def schedule_meta(rows: list[Any], day: dt.date) -> dict[str, Any]:
    """Days since the last event (0 while one is under way) and events and matches in the last
    30, 60 and 90 days, all as on `day`."""
    ends = [min(r["end_date"] or r["start_date"], day) for r in rows if r["start_date"]]
    meta: dict[str, Any] = {"date": day.isoformat(), "days_since_last_event": (day - max(ends)).days if ends else None}
    for n in WINDOWS:
        # the first days of year 1 have no 90 days before them (no event there either)
        since = day - dt.timedelta(days=n) if day > dt.date.min + dt.timedelta(days=n) else dt.date.min
        events = sum(1 for r in rows if r["start_date"] and (r["end_date"] or r["start_date"]) > since)
        meta[f"last_{n}_days"] = {"events": events, "matches": sum(r[f"matches_{n}"] for r in rows)}
    return meta


@endpoint(
    "/v1/players/{id}/schedule",
    plan="archive",
    summary="A player's events, newest first",
    params=ScheduleParams,
    returns=ScheduleRow,
    many=True,
    description="The `last` events (editions) the player played, newest first, as on `date` (default today): "
    "events starting later are left out and matches, wins, furthest round and title count only "
    "what was played by then. rest_days, back_to_back and week_run compare each event with the "
    "previous one in the list (of the discipline when given). `meta` holds days_since_last_event "
    "and last_30_days, last_60_days, last_90_days (events and matches).",
)
async def player_schedule(call: Call) -> Answer:
    day = call.p.date or call.clock.today()
    rows = await call.db.fetch(Q.player_schedule.schedule, id=call.p.id, discipline=call.p.discipline, day=day)
    if not rows:
        await require_player(call.db, call.p.id)
    data = schedule_rows(rows)[::-1][: call.p.last]
    return Answer(data, schedule_meta(rows, day))
