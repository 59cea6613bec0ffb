"""Response records shared by several endpoints (interface.md, Resources and their fields)."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import attrs

from svc.web.convert import doc

Discipline = Literal["MS", "WS", "MD", "WD", "XD"]


@attrs.frozen
class PlayerRef:
    id: str | None = attrs.field(metadata=doc("pl_ id; null when not matched to a player"))
    name: str
    country: str | None = attrs.field(metadata=doc("IOC code or null"))


@attrs.frozen
class Side:
    players: list[PlayerRef]
    seed: int | None


@attrs.frozen
class TournamentRef:
    id: str
    name: str
    year: int


@attrs.frozen
class VenueRef:
    id: str
    name: str


@attrs.frozen
class OddsSummary:
    """Match-winner prices over every bookmaker quoting the match; side 1 first in each pair. The
    same numbers, and names, as the winner market of /v1/odds/{id}, which gives them bookmaker by
    bookmaker."""

    bookmakers: int = attrs.field(metadata=doc("bookmakers counted"))
    opening: list[float] = attrs.field(
        metadata=doc("average opening price of side 1 and side 2 (/v1/odds/{id}: the winner market's opening)")
    )
    closing: list[float] = attrs.field(
        metadata=doc("average closing price of side 1 and side 2 (/v1/odds/{id}: the winner market's closing)")
    )
    best: list[float] = attrs.field(metadata=doc("best (highest) closing price of side 1 and side 2"))
    market_chance: list[float] = attrs.field(
        metadata=doc("chance implied by the average closing prices, margin removed")
    )
    margin: float = attrs.field(metadata=doc("average bookmaker margin at closing, e.g. 0.05 for 5%"))


@attrs.frozen
class Event:
    """A result or fixture in the results feed."""

    id: str = attrs.field(metadata=doc("ev_ id"))
    tournament: TournamentRef
    discipline: Discipline
    sport_class: str | None = attrs.field(metadata=doc("para badminton only, e.g. WH1 or WH1-WH2"))
    team_event: bool = attrs.field(metadata=doc("true for a match of a tie in a team event"))
    round_code: str | None = attrs.field(metadata=doc("R128 ... F, 3P; null in group stages"))
    start: str | None = attrs.field(metadata=doc("start time (ISO 8601 UTC) where held, else the day (YYYY-MM-DD)"))
    status: Literal["scheduled", "live", "finished"]
    side1: Side
    side2: Side
    sets: list[int] = attrs.field(metadata=doc("games won by side 1 and side 2"))
    games: list[list[int]] = attrs.field(
        metadata=doc("game scores, side 1 first; while live the last is the game in play")
    )
    winner: int | None = attrs.field(metadata=doc("1 or 2; null until finished"))
    outcome: Literal["played", "retired", "walkover"] | None
    match: str = attrs.field(metadata=doc("mt_ id of the draw match"))
    odds: OddsSummary | None = attrs.field(
        metadata=doc("Odds plan and above; closing prices on results/yesterday for every plan")
    )
    duration_min: int | None = attrs.field(
        metadata=doc("minutes from start to final point; null until finished and for older matches")
    )


@attrs.frozen
class DrawMatch:
    """A match of a draw (or of a tie in a team event)."""

    id: str = attrs.field(metadata=doc("mt_ id"))
    tournament: TournamentRef
    discipline: Discipline
    round: str = attrs.field(metadata=doc("round as the draw names it, e.g. Quarter-finals or Group A"))
    round_code: str | None = attrs.field(metadata=doc("R128 ... F, 3P; null in group stages"))
    sport_class: str | None = attrs.field(metadata=doc("para badminton only, e.g. WH1 or WH1-WH2"))
    side1: Side
    side2: Side
    games: list[list[int]] = attrs.field(metadata=doc("game scores, side 1 first"))
    winner: int | None = attrs.field(metadata=doc("1 or 2; null until finished"))
    outcome: Literal["played", "retired", "walkover"] | None = attrs.field(metadata=doc("null until finished"))
    status: Literal["scheduled", "live", "finished"]
    date: dt.date | None = attrs.field(metadata=doc("day played or scheduled"))
    event: str | None = attrs.field(metadata=doc("ev_ id of the same match in the results feed"))
    odds: OddsSummary | None = attrs.field(metadata=doc("Odds plan and above; otherwise null"))


def _iso(ts: dt.datetime) -> str:
    return ts.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


def _side(players: list[dict[str, Any]] | None, seed: int | None) -> Side:
    return Side(players=[PlayerRef(**p) for p in players or []], seed=seed)


def _sets(g1: list[int], g2: list[int], status: str, outcome: str | None) -> list[int]:
    decided = list(zip(g1, g2))
    if status == "live" or outcome == "retired":
        decided = decided[:-1]  # the last game is in play, or was left unfinished
    return [sum(a > b for a, b in decided), sum(b > a for a, b in decided)]


def _odds(row: Any) -> OddsSummary | None:
    o = row["odds"]
    if not o or not o.get("bookmakers"):
        return None
    inv1, inv2 = 1 / o["close1"], 1 / o["close2"]
    return OddsSummary(
        bookmakers=o["bookmakers"],
        opening=[round(o["open1"], 2), round(o["open2"], 2)],
        closing=[round(o["close1"], 2), round(o["close2"], 2)],
        best=[o["best1"], o["best2"]],
        market_chance=[round(inv1 / (inv1 + inv2), 4), round(inv2 / (inv1 + inv2), 4)],
        margin=round(o["margin"], 4),
    )


def event_from_row(row: Any, *, with_odds: bool) -> Event:
    """Shape one row of the event-* statements (svc/sql/queries/events/) as an Event."""
    start_at, end_at = row["start_at"], row["end_at"]
    start = _iso(start_at) if start_at else (row["day"].isoformat() if row["day"] else None)
    duration = None
    if row["status"] == "finished" and start_at and end_at:
        duration = int((end_at - start_at).total_seconds() // 60)
    return Event(
        id=row["event_id"],
        tournament=TournamentRef(id=row["tournament_id"], name=row["tournament_name"], year=row["year"]),
        discipline=row["discipline"],
        sport_class=row["sport_class"],
        team_event=row["team_event"],
        round_code=row["round_code"],
        start=start,
        status=row["status"],
        side1=_side(row["players1"], row["seed1"]),
        side2=_side(row["players2"], row["seed2"]),
        sets=_sets(row["g1"], row["g2"], row["status"], row["outcome"]),
        games=[[a, b] for a, b in zip(row["g1"], row["g2"])],
        winner=row["winner"],
        outcome=row["outcome"],
        match=row["match_id"],
        odds=_odds(row) if with_odds else None,
        duration_min=duration,
    )


def draw_match_from_row(row: Any, *, with_odds: bool) -> DrawMatch:
    """Shape one row of event_rows (svc/sql/schema/004_event_rows.sql) as a DrawMatch."""
    return DrawMatch(
        id=row["match_id"],
        tournament=TournamentRef(id=row["tournament_id"], name=row["tournament_name"], year=row["year"]),
        discipline=row["discipline"],
        round=row["round_name"],
        round_code=row["round_code"],
        sport_class=row["sport_class"],
        side1=_side(row["players1"], row["seed1"]),
        side2=_side(row["players2"], row["seed2"]),
        games=[[a, b] for a, b in zip(row["g1"], row["g2"])],
        winner=row["winner"],
        outcome=row["outcome"],
        status=row["status"],
        date=row["day"],
        event=row["event_id"],
        odds=_odds(row) if with_odds else None,
    )


def _swapped(pair: list[float]) -> list[float]:
    return [pair[1], pair[0]]


def told_from(match: DrawMatch, side: int) -> DrawMatch:
    """The same match told from `side`'s point of view: that side becomes side 1, so games,
    winner and prices read from it first (player sub-resources and h2h: "games are always
    from the asked player's side")."""
    if side == 1:
        return match
    odds = match.odds and attrs.evolve(
        match.odds,
        opening=_swapped(match.odds.opening),
        closing=_swapped(match.odds.closing),
        best=_swapped(match.odds.best),
        market_chance=_swapped(match.odds.market_chance),
    )
    return attrs.evolve(
        match,
        side1=match.side2,
        side2=match.side1,
        games=[[b, a] for a, b in match.games],
        winner=None if match.winner is None else 3 - match.winner,
        odds=odds,
    )
