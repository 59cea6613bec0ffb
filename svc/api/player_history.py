"""A player's matches, partners, opponents and finals: /v1/players/{id}/matches, /partners,
/opponents and /titles (Archive plan). Partners, opponents and titles read the tables built
at import from one row per player per match (sql/derived/70_player_match.sql)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import attrs

from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.web.params import DISCIPLINES, Paging, discipline_param, param, path_id, year_param
from svc.web.records import Discipline, DrawMatch, PlayerRef, TournamentRef, draw_match_from_row, told_from
from svc.core.sqlfiles import Q
from svc.api.player_lookup import PlayerPath, Result, player_ref, player_refs, require_player, result, sided_games

OPPONENTS_LIMIT = 20  # interface.md: opponents limit 1 to 100, default 20
OPPONENTS_MAX = 100


# -- /v1/players/{id}/matches ------------------------------------------------------------

@attrs.frozen
class PlayerMatchesParams(Paging):
    id: str = path_id("pl_", "Player id (pl_...).")
    year: int | None = year_param("Tournament year (the edition's year label).")
    discipline: str | None = discipline_param()


@endpoint("/v1/players/{id}/matches", plan="archive", summary="A player's draw matches, newest first",
          params=PlayerMatchesParams, returns=DrawMatch, many=True,
          description="Every draw match the player stood in (finished, under way or scheduled), newest first, "
                      "shaped as /v1/matches/{id} but told from the player's side: the player's side is side 1, "
                      "so games, winner and prices read from it first. Filters: `year` (the "
                      "edition's year) and `discipline`.")
async def player_matches(call: Call) -> Page:
    p = call.p
    rows = await call.db.fetch(Q.player_history.matches, id=p.id, year=p.year, discipline=p.discipline,
                               offset=call.offset, limit=call.limit)
    if not rows:
        await require_player(call.db, p.id)  # an empty list for a known player, 404 otherwise
    return call.page(rows, lambda r: told_from(draw_match_from_row(r, with_odds=call.sees_odds),
                                               1 if call.p.id in r["side1"] else 2))


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


@endpoint("/v1/players/{id}/partners", plan="archive", summary="A player's partners, most matches together first",
          params=DisciplineParams, returns=PartnerRow, many=True,
          description="One row per partner and discipline (a row with partner null per singles discipline), "
                      "most matches together first. Matches are finished draw matches, walkovers included.")
async def player_partners(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_history.partners, id=call.p.id, discipline=call.p.discipline)
    if not rows:
        await require_player(call.db, call.p.id)
    data = [PartnerRow(
        partner=PlayerRef(id=r["partner"], name=r["partner_name"], country=r["partner_country"]) if r["partner"] else None,
        discipline=r["discipline"], matches=r["matches"], wins=r["wins"], titles=r["titles"],
        first_year=r["first_year"], last_year=r["last_year"]) for r in rows]
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
    meetings: int = attrs.field(metadata=doc("finished matches on opposite sides, singles and doubles, walkovers included"))
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
        meetings=r["meetings"], wins=r["wins"], losses=r["losses"],
        last=LastMeeting(match=r["match_id"], date=r["day"],
                         tournament=TournamentRef(id=r["tournament_id"], name=r["tournament_name"], year=r["year"]),
                         discipline=r["discipline"], result=result(r["winner"] == r["side"]),
                         games=sided_games(r["g1"], r["g2"], r["side"]), outcome=r["outcome"]))


@endpoint("/v1/players/{id}/opponents", plan="archive", summary="A player's opponents, met most often first",
          params=OpponentsParams, returns=OpponentRow, many=True,
          description="Each player who stood on the other side (in doubles both opponents count), met most often "
                      "first, with wins, losses and the most recent meeting. Meetings agree with /v1/h2h.")
async def player_opponents(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_history.opponents, id=call.p.id, discipline=call.p.discipline, limit=call.p.limit)
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
    return TitleRow(result=result(r["won"]),
                    tournament=TournamentRef(id=r["tournament_id"], name=r["tournament_name"], year=r["year"]),
                    level=r["level"], discipline=r["discipline"], sport_class=r["sport_class"],
                    partner=player_ref(r["partner"]) if r["partner"] else None,
                    opponents=player_refs(r["opponents"]),
                    games=[[a, b] for a, b in zip(r["gf"], r["ga"])], match=r["match_id"])


def title_totals(rows: list[TitleRow], disciplines: tuple[str, ...]) -> dict[str, Any]:
    """meta: finals, titles and runner-up places, overall and by discipline."""
    by = {d: {"finals": 0, "titles": 0, "runner_up": 0} for d in disciplines}
    for t in rows:
        by[t.discipline]["finals"] += 1
        by[t.discipline]["titles" if t.result == "W" else "runner_up"] += 1
    return {"finals": len(rows), "titles": sum(t.result == "W" for t in rows), "by_discipline": by}


@endpoint("/v1/players/{id}/titles", plan="archive", summary="Every final a player reached, newest first",
          params=DisciplineParams, returns=TitleRow, many=True,
          description="Every finished final of an individual event the player stood in (team-event ties are the "
                      "team's), newest first: W for a title, L for runner-up. `meta` holds the totals: finals, "
                      "titles and by_discipline (finals, titles, runner_up for each discipline asked).")
async def player_titles(call: Call) -> Answer:
    rows = await call.db.fetch(Q.player_history.titles, id=call.p.id, discipline=call.p.discipline)
    if not rows:
        await require_player(call.db, call.p.id)
    data = [_title(r) for r in rows]
    return Answer(data, title_totals(data, (call.p.discipline,) if call.p.discipline else DISCIPLINES))
