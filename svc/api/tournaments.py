"""Editions: /v1/tournaments, /v1/tournaments/{id}, their draw (/draw) and team ties (/ties),
and a series' roll of honour (/v1/series/{slug}/champions)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any, Literal

import attrs
import orjson

from svc.api.players import player_refs
from svc.api.reference import SLUG, calendar_status, check_series
from svc.core.errors import invalid, not_found
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import (
    DISCIPLINES,
    LEVELS,
    ROUND_CODES,
    class_variants,
    discipline_param,
    param,
    path_id,
    sport_class_param,
    year_param,
)
from svc.web.records import DrawMatch, PlayerRef, VenueRef, draw_match_from_row


def event_key(discipline: str, sport_class: str | None) -> str:
    """Para events are told apart by sport class: "MS WH1"; others by discipline: "MS"."""
    return f"{discipline} {sport_class}" if sport_class else discipline


def round_order(round_code: str | None, round_name: str) -> tuple[int, int, str]:
    """Group stages first (by name), then R128 ... SF, the bronze match (3P), the final."""
    if round_code is None:
        return (0, 0, round_name)
    return (1, ROUND_CODES.index(round_code), round_name)


def event_order(discipline: str, sport_class: str | None) -> tuple[int, str]:
    return (DISCIPLINES.index(discipline), sport_class or "")


# -- /v1/tournaments ---------------------------------------------------------------------
@attrs.frozen
class TournamentItem:
    id: str = attrs.field(metadata=doc("tr_ id"))
    series: str = attrs.field(metadata=doc("series slug"))
    name: str
    year: int = attrs.field(metadata=doc("the edition's year label (Tokyo 2020 is 2020, played in 2021)"))
    level: Literal["senior", "junior"]
    para: bool = attrs.field(metadata=doc("a para-badminton edition"))
    team: bool = attrs.field(metadata=doc("a team event played in ties"))
    start: dt.date | None = attrs.field(metadata=doc("first day; null when no dates are held"))
    end: dt.date | None = attrs.field(metadata=doc("last day; null when no dates are held"))
    disciplines: list[str] = attrs.field(metadata=doc("disciplines with a draw, in the order MS, WS, MD, WD, XD"))
    matches: int = attrs.field(
        metadata=doc("draw matches held, including matches of ties and matches still to be played")
    )


@attrs.frozen
class TournamentsParams(Paging):
    series: str | None = param("Series slug, as listed by /v1/series.", pattern=SLUG)
    year: int | None = year_param("The edition's year label.")
    level: str | None = param(
        "senior, junior (that level, para excluded) or para (para-badminton editions).", enum=LEVELS
    )


def _sorted_disciplines(ds: list[str]) -> list[str]:
    return sorted(ds, key=DISCIPLINES.index)


def _item(r: Any) -> TournamentItem:
    return TournamentItem(
        id=r["id"],
        series=r["series"],
        name=r["name"],
        year=r["year"],
        level=r["level"],
        para=r["para"],
        team=r["team"],
        start=r["start_date"],
        end=r["end_date"],
        disciplines=_sorted_disciplines(r["disciplines"]),
        matches=r["matches"],
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
    return call.page(rows, _item)


# -- /v1/tournaments/{id} ----------------------------------------------------------------
@attrs.frozen
class RoundCount:
    round: str = attrs.field(metadata=doc("round as the draw names it, e.g. Quarter-finals or Group A"))
    round_code: str | None = attrs.field(metadata=doc("R128 ... F, 3P; null in group stages"))
    matches: int


@attrs.frozen
class Podium:
    """One event's medals: gold and silver from the final; bronze the losing semi-finalists (two),
    or, where a bronze medal match (3P) is played, its winner alone, its loser then fourth."""

    event: str = attrs.field(metadata=doc('discipline, and for para events a space and the sport class: "MS WH1"'))
    discipline: str
    sport_class: str | None
    gold: list[PlayerRef]
    silver: list[PlayerRef]
    bronze: list[list[PlayerRef]] = attrs.field(
        metadata=doc("each bronze medallist side: both losing semi-finalists, or the bronze match winner alone")
    )
    fourth: list[PlayerRef] | None = attrs.field(metadata=doc("the bronze match loser; null without a bronze match"))


@attrs.frozen
class TournamentProfile:
    id: str = attrs.field(metadata=doc("tr_ id"))
    series: str
    name: str
    year: int
    level: Literal["senior", "junior"]
    para: bool
    team: bool
    tier: str | None = attrs.field(metadata=doc("e.g. Super 1000; null before tiers and for championships"))
    start: dt.date | None
    end: dt.date | None
    status: Literal["finished", "in_progress", "upcoming", "unknown"] = attrs.field(
        metadata=doc("as on /v1/calendar, as of today (UTC)")
    )
    city: str | None
    country: str | None = attrs.field(metadata=doc("IOC code of the host city"))
    venue: VenueRef | None
    elevation_m: int | None = attrs.field(metadata=doc("metres above sea level: the hall's, else the host city's"))
    prize_money: int | None = attrs.field(metadata=doc("USD as recorded"))
    medals: bool = attrs.field(metadata=doc("the edition has a medal table (podium)"))
    draw_size: int | None = attrs.field(metadata=doc("singles main draw size; null for team events"))
    disciplines: list[str]
    matches: int = attrs.field(metadata=doc("draw matches, the sum of `rounds`"))
    rounds: dict[str, list[RoundCount]] = attrs.field(
        metadata=doc(
            'matches per round for each event ("MS", or "MS WH1" for a para class), group stages '
            "first, then the first knockout round to the final, the bronze match (3P) just before it"
        )
    )
    podium: list[Podium] = attrs.field(
        metadata=doc("per event whose final is decided; empty when the edition has no medal table")
    )


@attrs.frozen
class TournamentParams:
    id: str = path_id("tr_", "Edition id (tr_...).")


def podiums(medal_matches: list[dict[str, Any]]) -> list[Podium]:
    """Medals per event from its semi-finals, bronze match and final (see Podium)."""
    by_event: dict[tuple[str, str | None], list[dict[str, Any]]] = {}
    for m in medal_matches:
        by_event.setdefault((m["discipline"], m["sport_class"]), []).append(m)
    out = []
    for (discipline, sport_class), ms in sorted(by_event.items(), key=lambda kv: event_order(*kv[0])):
        decided = [m for m in ms if m["status"] == "finished" and m["winner"] in (1, 2)]
        final = next((m for m in decided if m["round_code"] == "F"), None)
        if final is None:
            continue  # medals are given once the final is decided

        def side(m: dict[str, Any], won: bool) -> list[PlayerRef]:
            n = m["winner"] if won else 3 - m["winner"]
            return player_refs(m[f"players{n}"])

        bronze_match = next((m for m in ms if m["round_code"] == "3P"), None)
        if bronze_match is not None:
            played = bronze_match in decided
            bronze = [side(bronze_match, True)] if played else []
            fourth = side(bronze_match, False) if played else None
        else:
            semis = sorted((m for m in decided if m["round_code"] == "SF"), key=lambda m: m["position"])
            bronze, fourth = [side(m, False) for m in semis], None
        out.append(
            Podium(
                event=event_key(discipline, sport_class),
                discipline=discipline,
                sport_class=sport_class,
                gold=side(final, True),
                silver=side(final, False),
                bronze=bronze,
                fourth=fourth,
            )
        )
    return out


def rounds_by_event(rows: list[dict[str, Any]]) -> dict[str, list[RoundCount]]:
    rows = sorted(
        rows, key=lambda r: (event_order(r["discipline"], r["sport_class"]), round_order(r["round_code"], r["round"]))
    )
    out: dict[str, list[RoundCount]] = {}
    for r in rows:
        out.setdefault(event_key(r["discipline"], r["sport_class"]), []).append(
            RoundCount(round=r["round"], round_code=r["round_code"], matches=r["matches"])
        )
    return out


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
    round_rows = r["rounds"] or []
    rounds = rounds_by_event(round_rows)
    profile = TournamentProfile(
        id=r["id"],
        series=r["series"],
        name=r["name"],
        year=r["year"],
        level=r["level"],
        para=r["para"],
        team=r["team"],
        tier=r["tier"],
        start=r["start_date"],
        end=r["end_date"],
        status=calendar_status(r["start_date"], r["end_date"], call.clock.today()),
        city=r["city"],
        country=r["country"],
        venue=VenueRef(id=r["venue_id"], name=r["venue_name"]) if r["venue_id"] else None,
        elevation_m=r["elevation_m"],
        prize_money=r["prize_money"],
        medals=r["medals"],
        draw_size=r["draw_size"],
        disciplines=_sorted_disciplines(list({x["discipline"] for x in round_rows})),
        matches=sum(x["matches"] for x in round_rows),
        rounds=rounds,
        podium=podiums(r["medal_matches"] or []) if r["medals"] else [],
    )
    return Answer(profile)


# -- /v1/series/{slug}/champions ---------------------------------------------------------
@attrs.frozen
class TeamRef:
    code: str = attrs.field(metadata=doc("IOC code"))
    name: str


@attrs.frozen
class EditionRef:
    id: str = attrs.field(metadata=doc("tr_ id"))
    name: str


@attrs.frozen
class RollEntry:
    year: int
    tournament: EditionRef
    champions: dict[str, list[PlayerRef]] = attrs.field(
        metadata=doc('winners per event: "MS" ... "XD", para events per sport class ("MS WH1"); empty for team events')
    )
    runners_up: dict[str, list[PlayerRef]] = attrs.field(metadata=doc("losing finalists, keyed as champions"))
    winner_team: TeamRef | None = attrs.field(metadata=doc("team events: the nation that won the final tie; else null"))
    runner_up_team: TeamRef | None = attrs.field(
        metadata=doc("team events: the nation that lost the final tie; else null")
    )


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


def record_note(editions: int, what: str, held: str) -> dict[str, str]:
    """meta.note for a roll whose editions' finals are held only as results of public record
    (played, without games: the real world's World Championships and Cups); nothing otherwise."""
    if not editions:
        return {}
    return {"note": f"The {what} of {editions} of these editions are held as results of public record: {held}."}


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
    data = [_tie(r, by_tie[r["id"]]) for r in tie_rows]
    return Answer(data, {"tournament": p.id, "team_event": rows[0]["team_event"], "stages": stages, "count": len(data)})


def _tie(r: Any, matches: list[DrawMatch]) -> Tie:
    return Tie(
        id=r["id"],
        stage=r["stage"],
        round_code=r["round_code"],
        number=r["number"],
        team1=TeamRef(code=r["team1"], name=r["team1_name"]),
        team2=TeamRef(code=r["team2"], name=r["team2_name"]),
        score=[r["score1"], r["score2"]],
        winner=r["winner"],
        date=r["day"],
        venue=r["venue"],
        matches=matches,
    )
