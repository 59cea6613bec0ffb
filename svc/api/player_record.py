"""A player's record against others and over time, one endpoint per sub-resource of
/v1/players/{id}: partners, opponents, titles and form. Partners, opponents and titles read the
tables built at import from one row per player per match (svc/sql/derived/70_player_match.sql)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import attrs

from svc.api.players import PlayerPath, Result, player_ref, player_refs, require_player, result, sided_games
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import DISCIPLINES, discipline_param, param
from svc.web.records import Discipline, PlayerRef, TournamentRef

OPPONENTS_LIMIT = 20  # interface.md: opponents limit 1 to 100, default 20
OPPONENTS_MAX = 100


# -- /v1/players/{id}/partners -------------------------------------------------------------


@attrs.frozen
class PartnerRow:
    partner: PlayerRef | None = attrs.field(metadata=doc("null in singles"))
    discipline: Discipline
    matches: int = attrs.field(metadata=doc("finished matches together, walkovers included"))
    wins: int
    titles: int = attrs.field(metadata=doc("finals of individual events won together"))
    first_year: int
    last_year: int


@attrs.frozen
class DisciplineParams(PlayerPath):
    discipline: str | None = discipline_param()


@endpoint(
    "/v1/players/{id}/partners",
    plan="archive",
    summary="A player's partners, most matches together first",
    params=DisciplineParams,
    returns=PartnerRow,
    many=True,
    description="One row per partner and discipline (a row with partner null per singles discipline), "
    "most matches together first. Matches are finished draw matches, walkovers included.",
)
async def player_partners(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_record.partners, id=call.p.id, discipline=call.p.discipline)
    if not rows:
        await require_player(call.db, call.p.id)
    data = [
        PartnerRow(
            partner=PlayerRef(id=r["partner"], name=r["partner_name"], country=r["partner_country"])
            if r["partner"]
            else None,
            discipline=r["discipline"],
            matches=r["matches"],
            wins=r["wins"],
            titles=r["titles"],
            first_year=r["first_year"],
            last_year=r["last_year"],
        )
        for r in rows
    ]
    return Answer(data, {"count": len(data)})


# -- /v1/players/{id}/opponents ------------------------------------------------------------


@attrs.frozen
class LastMeeting:
    match: str = attrs.field(metadata=doc("mt_ id"))
    date: dt.date | None
    tournament: TournamentRef
    discipline: Discipline
    result: Result = attrs.field(metadata=doc("W or L for the asked player"))
    games: list[list[int]] = attrs.field(metadata=doc("game scores, the asked player's side first"))
    outcome: Literal["played", "retired", "walkover"]


@attrs.frozen
class OpponentRow:
    opponent: PlayerRef
    meetings: int = attrs.field(
        metadata=doc("finished matches on opposite sides, singles and doubles, walkovers included")
    )
    wins: int
    losses: int
    last: LastMeeting = attrs.field(metadata=doc("the most recent meeting with its score"))


@attrs.frozen
class OpponentsParams(PlayerPath):
    discipline: str | None = discipline_param()
    limit: int = param("Opponents to return.", default=OPPONENTS_LIMIT, minimum=1, maximum=OPPONENTS_MAX)


def _opponent(r: Any) -> OpponentRow:
    return OpponentRow(
        opponent=PlayerRef(id=r["opponent"], name=r["opponent_name"], country=r["opponent_country"]),
        meetings=r["meetings"],
        wins=r["wins"],
        losses=r["losses"],
        last=LastMeeting(
            match=r["match_id"],
            date=r["day"],
            tournament=TournamentRef(id=r["tournament_id"], name=r["tournament_name"], year=r["year"]),
            discipline=r["discipline"],
            result=result(r["winner"] == r["side"]),
            games=sided_games(r["g1"], r["g2"], r["side"]),
            outcome=r["outcome"],
        ),
    )


@endpoint(
    "/v1/players/{id}/opponents",
    plan="archive",
    summary="A player's opponents, met most often first",
    params=OpponentsParams,
    returns=OpponentRow,
    many=True,
    description="Each player who stood on the other side (in doubles both opponents count), met most often "
    "first, with wins, losses and the most recent meeting. Meetings agree with /v1/h2h.",
)
async def player_opponents(call: Call) -> Answer:
    rows = await call.db.fetch(
        Q.player_record.opponents, id=call.p.id, discipline=call.p.discipline, limit=call.p.limit
    )
    if not rows:
        await require_player(call.db, call.p.id)
    data = [_opponent(r) for r in rows]
    return Answer(data, {"count": len(data)})


# -- /v1/players/{id}/titles ---------------------------------------------------------------


@attrs.frozen
class TitleRow:
    result: Result = attrs.field(metadata=doc("W: title won; L: runner-up"))
    tournament: TournamentRef
    level: str = attrs.field(metadata=doc("senior or junior"))
    discipline: Discipline
    sport_class: str | None = attrs.field(metadata=doc("para badminton only"))
    partner: PlayerRef | None = attrs.field(metadata=doc("null in singles"))
    opponents: list[PlayerRef]
    games: list[list[int]] = attrs.field(metadata=doc("game scores, this player's side first"))
    match: str = attrs.field(metadata=doc("mt_ id of the final"))


def _title(r: Any) -> TitleRow:
    return TitleRow(
        result=result(r["won"]),
        tournament=TournamentRef(id=r["tournament_id"], name=r["tournament_name"], year=r["year"]),
        level=r["level"],
        discipline=r["discipline"],
        sport_class=r["sport_class"],
        partner=player_ref(r["partner"]) if r["partner"] else None,
        opponents=player_refs(r["opponents"]),
        games=[[a, b] for a, b in zip(r["gf"], r["ga"])],
        match=r["match_id"],
    )


def title_totals(rows: list[TitleRow], disciplines: tuple[str, ...]) -> dict[str, Any]:
    """meta: finals, titles and runner-up places, overall and by discipline."""
    by = {d: {"finals": 0, "titles": 0, "runner_up": 0} for d in disciplines}
    for t in rows:
        by[t.discipline]["finals"] += 1
        by[t.discipline]["titles" if t.result == "W" else "runner_up"] += 1
    return {"finals": len(rows), "titles": sum(t.result == "W" for t in rows), "by_discipline": by}


@endpoint(
    "/v1/players/{id}/titles",
    plan="archive",
    summary="Every final a player reached, newest first",
    params=DisciplineParams,
    returns=TitleRow,
    many=True,
    description="Every finished final of an individual event the player stood in (team-event ties are the "
    "team's), newest first: W for a title, L for runner-up. `meta` holds the totals: finals, "
    "titles and by_discipline (finals, titles, runner_up for each discipline asked); `meta.note` "
    "says how many finals are held only as results of public record (who won and lost, `games` "
    "empty: the real world's World Championships).",
)
async def player_titles(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_record.titles, id=call.p.id, discipline=call.p.discipline)
    if not rows:
        await require_player(call.db, call.p.id)
    data = [_title(r) for r in rows]
    meta = title_totals(data, (call.p.discipline,) if call.p.discipline else DISCIPLINES)
    # a final played but held without games is a result of public record, not a walkover
    unscored = sum(1 for r in rows if r["outcome"] == "played" and not r["gf"])
    if unscored:
        meta["note"] = (
            f"{unscored} of these finals are held as results of public record: who won and lost, "
            "without the score or the draw."
        )
    return Answer(data, meta)


# -- /v1/players/{id}/form -------------------------------------------------------------------


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
    return FormRow(
        result=result(r["won"]),
        tournament=TournamentRef(id=r["tournament_id"], name=r["tournament_name"], year=r["year"]),
        date=r["played_on"],
        discipline=r["discipline"],
        round=r["round_name"],
        opponents=player_refs(r["opponents"]),
        games=[[a, b] for a, b in zip(r["gf"], r["ga"])],
        outcome=r["outcome"],
        match=r["id"],
    )


def form_meta(rows: list[FormRow], run_length: int) -> dict[str, Any]:
    """The record over the results shown, and the current run (the newest streak, counted over
    every result of the player, so it may be longer than the list)."""
    wins = sum(r.result == "W" for r in rows)
    run = {"result": rows[0].result, "length": run_length} if rows else None
    return {"record": {"wins": wins, "losses": len(rows) - wins}, "current_run": run}


@endpoint(
    "/v1/players/{id}/form",
    plan="archive",
    summary="A player's latest results, newest first",
    params=FormParams,
    returns=FormRow,
    many=True,
    description="The player's `last` results (finished matches, walkovers included), newest first, games "
    "from the player's side. `meta.record` counts wins and losses over the results shown; "
    "`meta.current_run` is the newest streak (result W or L and its length over all results).",
)
async def player_form(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_record.form, id=call.p.id, discipline=call.p.discipline, last=call.p.last)
    if not rows:
        await require_player(call.db, call.p.id)
    data = [_row(r) for r in rows]
    return Answer(data, form_meta(data, rows[0]["run_length"] if rows else 0))
