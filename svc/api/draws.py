"""The matches of an edition: /v1/tournaments/{id}/draw and /v1/tournaments/{id}/ties."""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.core.errors import invalid, not_found
from svc.web.params import discipline_param, param, path_id
from svc.web.records import DrawMatch, draw_match_from_row
from svc.core.sqlfiles import Q
from svc.api.tournaments import TeamRef

# One class (WH1, SL3 ...) or a pair for doubles (WH1-WH2); checked against the draw's classes.
SPORT_CLASS = r"^[A-Za-z]{2}[0-9](-[A-Za-z]{2}[0-9])?$"


def class_variants(sport_class: str) -> list[str]:
    """A pair may be written either way round: WH2-WH1 is the WH1-WH2 draw."""
    parts = sport_class.split("-")
    return ["-".join(parts), "-".join(reversed(parts))]


# -- /v1/tournaments/{id}/draw -----------------------------------------------------------
@attrs.frozen
class DrawParams:
    id: str = path_id("tr_", "Edition id (tr_...).")
    discipline: str = discipline_param("The discipline's draw.", required=True)
    sport_class: str | None = param(
        "Para editions only: one class (WH1, WH2, SL3, SL4, SU5, SH6) or a pair for doubles such as WH1-WH2 "
        "(either order). Omitted: every class of the discipline, class by class. Given for an edition that is not "
        "para, or naming a class without a draw in this discipline: 422.", pattern=SPORT_CLASS, upper=True)


@endpoint("/v1/tournaments/{id}/draw", plan="archive", summary="A whole draw, first round to final",
          params=DrawParams, returns=DrawMatch, many=True,
          cache_seconds=2,  # the draw of an edition under way holds matches in play
          description="Every match of one discipline's draw, in this order: group stages first (World Tour Finals, "
                      "team events), then the knockout rounds from the first (R128 ... R16) through QF and SF to the "
                      "bronze medal match (3P, listed just before the final) and the final (F); within a round in "
                      "draw order (the winner of position p meets the winner of p±1 next). Para draws come class by "
                      "class unless `sport_class` picks one. A discipline the edition did not hold gives an empty "
                      "list. Prices only for Odds keys and above. Unknown id: 404.")
async def draw(call: Call) -> Answer:
    p = call.p
    facts = await call.db.fetchrow(Q.tournaments.draw_facts, id=p.id, discipline=p.discipline)
    if facts is None:
        raise not_found(f"no edition with id {p.id}")
    classes = list(facts["classes"])
    wanted = None
    if p.sport_class:
        if not facts["para"]:
            raise invalid(f"parameter `sport_class`: {p.id} is not a para-badminton edition")
        wanted = class_variants(p.sport_class)
        if not set(wanted) & set(classes):
            raise invalid(f"parameter `sport_class`: {p.sport_class} has no {p.discipline} draw here; "
                          f"classes: {', '.join(classes) or 'none'}")
    rows = await call.db.fetch(Q.tournaments.draw, id=p.id, discipline=p.discipline, classes=wanted)
    data = [draw_match_from_row(r, with_odds=call.sees_odds) for r in rows]
    return Answer(data, {"tournament": p.id, "discipline": p.discipline, "sport_classes": classes,
                         "count": len(data)})


# -- /v1/tournaments/{id}/ties -----------------------------------------------------------
@attrs.frozen
class Tie:
    id: str = attrs.field(metadata=doc("ti_ id"))
    stage: str = attrs.field(metadata=doc("as written: Group A ..., Quarter-finals, Semi-finals, Final"))
    round_code: str | None = attrs.field(metadata=doc("QF, SF or F in the knockout stage; null in a group"))
    number: int = attrs.field(metadata=doc("the tie's place on the edition's page (play order)"))
    team1: TeamRef
    team2: TeamRef
    score: list[int | None] = attrs.field(metadata=doc("matches won by team 1 and team 2"))
    winner: int | None = attrs.field(metadata=doc("1 or 2; null until decided"))
    date: dt.date | None = attrs.field(metadata=doc("day played, when known"))
    venue: str | None = attrs.field(metadata=doc("hall, as written"))
    matches: list[DrawMatch] = attrs.field(metadata=doc("the matches of the tie in playing order"))


@attrs.frozen
class TiesParams:
    id: str = path_id("tr_", "Edition id (tr_...).")
    stage: str | None = param("Only ties of this stage, as named (e.g. Group A, Semi-finals; capitals do not "
                              "matter). A stage the edition does not have: 422 listing its stages.")


@endpoint("/v1/tournaments/{id}/ties", plan="archive", summary="The ties of a team event, in page order",
          params=TiesParams, returns=Tie, many=True,
          cache_seconds=2,  # a tie under way holds a match in play
          description="Every tie of a team event (Thomas, Uber, Sudirman Cup) in page order, each with both "
                      "nations, the score in matches, and its matches shaped as draw matches, in playing order. "
                      "An edition that is not a team event has no ties: an empty list (meta.team_event false). "
                      "Unknown id: 404.")
async def ties(call: Call) -> Answer:
    p = call.p
    rows = await call.db.fetch(Q.tournaments.ties, id=p.id, stage=p.stage)
    if not rows:
        raise not_found(f"no edition with id {p.id}")
    stages = list(rows[0]["stages"])
    if p.stage and rows[0]["id"] is None:
        raise invalid(f"parameter `stage`: no stage {p.stage!r} here; stages: {', '.join(stages) or 'none'}")
    tie_rows = [r for r in rows if r["id"] is not None]
    by_tie: dict[str, list[DrawMatch]] = {r["id"]: [] for r in tie_rows}
    if tie_rows:
        for m in await call.db.fetch(Q.tournaments.tie_matches, ties=list(by_tie)):
            by_tie[m["tie_id"]].append(draw_match_from_row(m, with_odds=call.sees_odds))
    data = [_tie(r, by_tie[r["id"]]) for r in tie_rows]
    return Answer(data, {"tournament": p.id, "team_event": rows[0]["team_event"], "stages": stages,
                         "count": len(data)})


def _tie(r: Any, matches: list[DrawMatch]) -> Tie:
    return Tie(id=r["id"], stage=r["stage"], round_code=r["round_code"], number=r["number"],
               team1=TeamRef(code=r["team1"], name=r["team1_name"]), team2=TeamRef(code=r["team2"], name=r["team2_name"]),
               score=[r["score1"], r["score2"]], winner=r["winner"], date=r["day"], venue=r["venue"], matches=matches)
