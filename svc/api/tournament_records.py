"""The records the tournament endpoints answer with (svc/api/tournaments.py), and their shaping
from rows: an edition in a list, its profile with rounds and podium, a series' roll of honour,
a team event's ties."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import attrs

from svc.api.players import player_refs
from svc.api.reference import calendar_status
from svc.web.convert import doc
from svc.web.params import DISCIPLINES, ROUND_CODES
from svc.web.records import DrawMatch, PlayerRef, VenueRef


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


def sorted_disciplines(ds: list[str]) -> list[str]:
    return sorted(ds, key=DISCIPLINES.index)


def tournament_item(r: Any) -> TournamentItem:
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
        disciplines=sorted_disciplines(r["disciplines"]),
        matches=r["matches"],
    )


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


def tournament_profile(r: Any, today: dt.date) -> TournamentProfile:
    """An edition's row (Q.tournaments.one) as its profile, its status as of `today`."""
    round_rows = r["rounds"] or []
    rounds = rounds_by_event(round_rows)
    return TournamentProfile(
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
        status=calendar_status(r["start_date"], r["end_date"], today),
        city=r["city"],
        country=r["country"],
        venue=VenueRef(id=r["venue_id"], name=r["venue_name"]) if r["venue_id"] else None,
        elevation_m=r["elevation_m"],
        prize_money=r["prize_money"],
        medals=r["medals"],
        draw_size=r["draw_size"],
        disciplines=sorted_disciplines(list({x["discipline"] for x in round_rows})),
        matches=sum(x["matches"] for x in round_rows),
        rounds=rounds,
        podium=podiums(r["medal_matches"] or []) if r["medals"] else [],
    )


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


def record_note(editions: int, what: str, held: str) -> dict[str, str]:
    """meta.note for a roll whose editions' finals are held only as results of public record
    (played, without games: the real world's World Championships and Cups); nothing otherwise."""
    if not editions:
        return {}
    return {"note": f"The {what} of {editions} of these editions are held as results of public record: {held}."}


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


def tie_from_row(r: Any, matches: list[DrawMatch]) -> Tie:
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
