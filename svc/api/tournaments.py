"""Editions: /v1/tournaments, /v1/tournaments/{id}, their draw (/draw) and team ties (/ties),
and a series' roll of honour (/v1/series/{slug}/champions). The records they answer with and
their shaping from rows are in tournament_records."""

from __future__ import annotations

from collections import Counter

import attrs
import orjson

from svc.api.reference import SLUG, check_series
from svc.api.tournament_records import (
    EditionRef,
    RollEntry,
    TeamRef,
    Tie,
    TournamentItem,
    TournamentProfile,
    record_note,
    tie_from_row,
    tournament_item,
    tournament_profile,
)
from svc.core.errors import invalid, not_found
from svc.core.sqlfiles import Q
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import (
    LEVELS,
    class_variants,
    discipline_param,
    param,
    path_id,
    sport_class_param,
    year_param,
)
from svc.web.records import DrawMatch, draw_match_from_row


# -- /v1/tournaments ---------------------------------------------------------------------
@attrs.frozen
class TournamentsParams(Paging):
    series: str | None = param("Series slug, as listed by /v1/series.", pattern=SLUG)
    year: int | None = year_param("The edition's year label.")
    level: str | None = param(
        "senior, junior (that level, para excluded) or para (para-badminton editions).", enum=LEVELS
    )


@endpoint(
    "/v1/tournaments",
    plan="archive",
    summary="Editions, newest first",
    params=TournamentsParams,
    returns=TournamentItem,
    many=True,
    description="Editions that have started (editions still to come are on /v1/calendar), newest first: by "
    "year label, then by first day (latest first; editions without dates last within their "
    "year). `level` para selects para-badminton editions; senior and junior exclude them. An "
    "unknown `series` answers 422.",
)
async def tournaments(call: Call) -> Page:
    p = call.p
    rows = await call.db.fetch(
        Q.tournaments.list,
        today=call.clock.today(),
        series=p.series,
        year=p.year,
        level=p.level,
        offset=call.offset,
        limit=call.limit,
    )
    if not rows:
        await check_series(call, p.series)
    return call.page(rows, tournament_item)


# -- /v1/tournaments/{id} ----------------------------------------------------------------
@attrs.frozen
class TournamentParams:
    id: str = path_id("tr_", "Edition id (tr_...).")


@endpoint(
    "/v1/tournaments/{id}",
    plan="archive",
    summary="One edition with its rounds and podium",
    params=TournamentParams,
    returns=TournamentProfile,
    cache_seconds=5,  # an edition under way: a final ending fills its podium
    description="An edition with its place, the matches of each round of each event (para events per sport "
    'class, e.g. "MS WH1"), and its podium when it has a medal table. Podium choice: gold and '
    "silver are the finalists; both losing semi-finalists get bronze, except where a bronze medal "
    "match (3P) is played: then its winner is the only bronze and its loser is `fourth`. An event "
    "appears on the podium once its final is decided. Unknown id: 404.",
)
async def tournament(call: Call) -> Answer:
    r = await call.db.fetchrow(Q.tournaments.one, id=call.p.id)
    if r is None:
        raise not_found(f"no edition with id {call.p.id}")
    return Answer(tournament_profile(r, call.clock.today()))


# -- /v1/series/{slug}/champions ---------------------------------------------------------
@attrs.frozen
class ChampionsParams:
    slug: str = param("Series slug, as listed by /v1/series.", location="path", pattern=SLUG)
    discipline: str | None = discipline_param("Only this discipline's champions (individual events only).")


@endpoint(
    "/v1/series/{slug}/champions",
    plan="archive",
    summary="Roll of honour of a series, year by year",
    params=ChampionsParams,
    returns=RollEntry,
    many=True,
    description="Every edition with a decided final, oldest first: the champions and runners-up of each "
    'event, para events keyed per sport class ("MS WH1"). Team series (Thomas, Uber, Sudirman '
    "Cup) give the winning and losing nation of the final tie instead; `discipline` does not "
    "apply to them (422). `meta.most_titles` lists the ten players who won the series most "
    "(within `discipline` when given): titles, first and last winning year; for team series "
    "`meta.most_titles_teams` counts nations. Editions whose finals are held only as a result "
    "of public record (who won and lost, without the score or the draw: the real world's World "
    "Championships and Cups) are counted in `meta.note`. As of the last import. Unknown slug: 404.",
)
async def champions(call: Call) -> Answer:
    p = call.p
    s = await call.db.fetchrow(Q.tournaments.series_facts, slug=p.slug)
    if s is None:
        raise not_found(f"no series {p.slug!r}; see /v1/series")
    if s["team"]:
        if p.discipline:
            raise invalid(
                f"parameter `discipline`: {s['name']} is a team event; its champions are nations", "discipline"
            )
        rows = await call.db.fetch(Q.tournaments.team_champions, series=p.slug)
        team_entries = [
            RollEntry(
                year=r["year"],
                tournament=EditionRef(id=r["tournament_id"], name=r["tournament_name"]),
                champions={},
                runners_up={},
                winner_team=TeamRef(**r["winner_team"]),
                runner_up_team=TeamRef(**r["runner_up_team"]),
            )
            for r in rows
        ]
        wins = Counter((r["winner_team"]["code"], r["winner_team"]["name"]) for r in rows)
        most = [
            {"team": {"code": c, "name": n}, "titles": k}
            for (c, n), k in sorted(wins.items(), key=lambda kv: (-kv[1], kv[0][0]))[:10]
        ]
        meta = {"series": p.slug, "count": len(team_entries), "most_titles": [], "most_titles_teams": most}
        return Answer(
            team_entries,
            meta
            | record_note(
                sum(r["unscored"] for r in rows),
                "final ties",
                "the winning and losing nations only, no score or matches",
            ),
        )
    # The roll arrives as JSON text in the shape of RollEntry (which the OpenAPI description shows)
    # and is written out as it is: a big series spans ~600 finals, and walking them as Python
    # objects cost more than the query.
    roll = await call.db.fetchrow(Q.tournaments.champions, series=p.slug, discipline=p.discipline)
    most_rows = await call.db.fetch(Q.tournaments.series_most, series=p.slug, discipline=p.discipline)
    most = [
        {
            "player": {"id": m["id"], "name": m["name"], "country": m["country"]},
            "titles": m["titles"],
            "first_year": m["first_year"],
            "last_year": m["last_year"],
        }
        for m in most_rows
    ]
    meta = {"series": p.slug, "discipline": p.discipline, "count": roll["editions"], "most_titles": most}
    return Answer(
        orjson.Fragment(roll["roll"]),
        meta | record_note(roll["unscored_editions"], "finals", "champions and runners-up only, no scores or draws"),
    )


# -- /v1/tournaments/{id}/draw -----------------------------------------------------------
@attrs.frozen
class DrawParams:
    id: str = path_id("tr_", "Edition id (tr_...).")
    discipline: str = discipline_param("The discipline's draw.", required=True)
    sport_class: str | None = sport_class_param(
        "Para editions only: one class (WH1, WH2, SL3, SL4, SU5, SH6) or a pair for doubles such as WH1-WH2 "
        "(either order). Omitted: every class of the discipline, class by class. Given for an edition that is not "
        "para, or naming a class without a draw in this discipline: 422."
    )


@endpoint(
    "/v1/tournaments/{id}/draw",
    plan="archive",
    summary="A whole draw, first round to final",
    params=DrawParams,
    returns=DrawMatch,
    many=True,
    cache_seconds=2,  # the draw of an edition under way holds matches in play
    description="Every match of one discipline's draw, in this order: group stages first (World Tour Finals, "
    "team events), then the knockout rounds from the first (R128 ... R16) through QF and SF to the "
    "bronze medal match (3P, listed just before the final) and the final (F); within a round in "
    "draw order (the winner of position p meets the winner of p±1 next). Para draws come class by "
    "class unless `sport_class` picks one. A discipline the edition did not hold gives an empty "
    "list. Prices only for Odds keys and above. Unknown id: 404.",
)
async def draw(call: Call) -> Answer:
    p = call.p
    facts = await call.db.fetchrow(Q.tournaments.draw_facts, id=p.id, discipline=p.discipline)
    if facts is None:
        raise not_found(f"no edition with id {p.id}")
    classes = list(facts["classes"])
    wanted = None
    if p.sport_class:
        if not facts["para"]:
            raise invalid(f"parameter `sport_class`: {p.id} is not a para-badminton edition", "sport_class")
        wanted = class_variants(p.sport_class)
        if not set(wanted) & set(classes):
            raise invalid(
                f"parameter `sport_class`: {p.sport_class} has no {p.discipline} draw here; "
                f"classes: {', '.join(classes) or 'none'}",
                "sport_class",
            )
    rows = await call.db.fetch(Q.tournaments.draw, id=p.id, discipline=p.discipline, classes=wanted)
    data = [draw_match_from_row(r, with_odds=call.sees_odds) for r in rows]
    return Answer(data, {"tournament": p.id, "discipline": p.discipline, "sport_classes": classes, "count": len(data)})


# -- /v1/tournaments/{id}/ties -----------------------------------------------------------
@attrs.frozen
class TiesParams:
    id: str = path_id("tr_", "Edition id (tr_...).")
    stage: str | None = param(
        "Only ties of this stage, as named (e.g. Group A, Semi-finals; capitals do not "
        "matter). A stage the edition does not have: 422 listing its stages."
    )


@endpoint(
    "/v1/tournaments/{id}/ties",
    plan="archive",
    summary="The ties of a team event, in page order",
    params=TiesParams,
    returns=Tie,
    many=True,
    cache_seconds=2,  # a tie under way holds a match in play
    description="Every tie of a team event (Thomas, Uber, Sudirman Cup) in page order, each with both "
    "nations, the score in matches, and its matches shaped as draw matches, in playing order. "
    "An edition that is not a team event has no ties: an empty list (meta.team_event false). "
    "Unknown id: 404.",
)
async def ties(call: Call) -> Answer:
    p = call.p
    rows = await call.db.fetch(Q.tournaments.ties, id=p.id, stage=p.stage)
    if not rows:
        raise not_found(f"no edition with id {p.id}")
    stages = list(rows[0]["stages"])
    if p.stage and rows[0]["id"] is None:
        raise invalid(f"parameter `stage`: no stage {p.stage!r} here; stages: {', '.join(stages) or 'none'}", "stage")
    tie_rows = [r for r in rows if r["id"] is not None]
    by_tie: dict[str, list[DrawMatch]] = {r["id"]: [] for r in tie_rows}
    if tie_rows:
        for m in await call.db.fetch(Q.tournaments.tie_matches, ties=list(by_tie)):
            by_tie[m["tie_id"]].append(draw_match_from_row(m, with_odds=call.sees_odds))
    data = [tie_from_row(r, by_tie[r["id"]]) for r in tie_rows]
    return Answer(data, {"tournament": p.id, "team_event": rows[0]["team_event"], "stages": stages, "count": len(data)})
