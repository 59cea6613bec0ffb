"""/v1/players/{id}/form: a player's latest results with the record and the current run."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import attrs

from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import discipline_param, param
from svc.web.records import Discipline, PlayerRef, TournamentRef
from svc.core.sqlfiles import Q
from svc.api.player_lookup import PlayerPath, Result, player_refs, require_player, result

FORM_LAST = 10  # interface.md: form last 1 to 50, default 10
FORM_MAX = 50


@attrs.frozen
class FormRow:
    result: Result = attrs.field(metadata=doc("W or L for this player"))
    tournament: TournamentRef
    date: dt.date | None = attrs.field(metadata=doc("day played; null when the edition has no dates"))
    discipline: Discipline
    round: str = attrs.field(metadata=doc("round as the draw names it"))
    opponents: list[PlayerRef]
    games: list[list[int]] = attrs.field(metadata=doc("game scores, this player's side first"))
    outcome: Literal["played", "retired", "walkover"]
    match: str = attrs.field(metadata=doc("mt_ id"))


@attrs.frozen
class FormParams(PlayerPath):
    discipline: str | None = discipline_param()
    last: int = param("Results to return.", default=FORM_LAST, minimum=1, maximum=FORM_MAX)


def _row(r: Any) -> FormRow:
    return FormRow(result=result(r["won"]),
                   tournament=TournamentRef(id=r["tournament_id"], name=r["tournament_name"], year=r["year"]),
                   date=r["played_on"], discipline=r["discipline"], round=r["round_name"],
                   opponents=player_refs(r["opponents"]), games=[[a, b] for a, b in zip(r["gf"], r["ga"])],
                   outcome=r["outcome"], match=r["id"])


def form_meta(rows: list[FormRow], run_length: int) -> dict[str, Any]:
    """The record over the results shown, and the current run (the newest streak, counted over
    every result of the player, so it may be longer than the list)."""
    wins = sum(r.result == "W" for r in rows)
    run = {"result": rows[0].result, "length": run_length} if rows else None
    return {"record": {"wins": wins, "losses": len(rows) - wins}, "current_run": run}


@endpoint("/v1/players/{id}/form", plan="archive", summary="A player's latest results, newest first",
          params=FormParams, returns=FormRow, many=True,
          description="The player's `last` results (finished matches, walkovers included), newest first, games "
                      "from the player's side. `meta.record` counts wins and losses over the results shown; "
                      "`meta.current_run` is the newest streak (result W or L and its length over all results).")
async def player_form(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_history.form, id=call.p.id, discipline=call.p.discipline, last=call.p.last)
    if not rows:
        await require_player(call.db, call.p.id)
    data = [_row(r) for r in rows]
    return Answer(data, form_meta(data, rows[0]["run_length"] if rows else 0))
