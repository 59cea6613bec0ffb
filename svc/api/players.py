"""Players: /v1/players, /v1/players/{id}, /v1/players/{id}/rankings, and what every player
endpoint shares (the path parameter, the 404 for an unknown player, player references, games
turned to the asked player's side).

Figures come from tables rebuilt at import (player_totals, player_discipline_totals,
player_career_highs, player_number_ones, player_rankings: svc/sql/derived/10, 60-62), so a
profile is a handful of indexed lookups in one statement."""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import attrs

from svc.api.rankings import SERVED_FROM
from svc.core.db import Database
from svc.core.errors import not_found
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import IOC_CODE, discipline_param, param, path_id
from svc.web.records import Discipline, PlayerRef

Result = Literal["W", "L"]


@attrs.frozen
class PlayerPath:
    id: str = path_id("pl_", "Player id (pl_...).")


async def require_player(db: Database, player_id: str) -> Any:
    """The player's row (id, name, country), or 404."""
    row = await db.fetchrow(Q.players.one, id=player_id)
    if row is None:
        raise not_found(f"no player with id {player_id}")
    return row


def player_ref(p: Any) -> PlayerRef:
    return PlayerRef(id=p["id"], name=p["name"], country=p["country"])


def player_refs(players: list[dict[str, Any]] | None) -> list[PlayerRef]:
    return [player_ref(p) for p in players or []]


def own_games(own: list[int], other: list[int]) -> list[list[int]]:
    """Game scores with the asked player's points first."""
    return [[a, b] for a, b in zip(own, other)]


def sided_games(g1: list[int], g2: list[int], side: int) -> list[list[int]]:
    """Game scores of a match seen from `side` (1 or 2)."""
    return own_games(g1, g2) if side == 1 else own_games(g2, g1)


def result(won: bool) -> Result:
    return "W" if won else "L"


def rate(won: int, played: int) -> float | None:
    """won / played to four places; null when nothing was played (no rate to give)."""
    return round(won / played, 4) if played else None


# -- records ----------------------------------------------------------------------------
MATCHES_PLAYED = (
    "draw matches played: finished, walkovers not counted. /v1/players/{id}/matches lists more: every "
    "draw match, walkovers and matches scheduled or under way too (the profile's meta.match_list "
    "gives both counts and the difference)"
)


def match_list(pid: str, played: int, listed: dict[str, int]) -> tuple[dict[str, int], str | None]:
    """The profile's meta.match_list (what /v1/players/{id}/matches counts, beside `matches`) and
    a note saying why they differ; no note when they do not."""
    counts = {
        "total": listed["total"],
        "played": played,
        "walkovers": listed["walkovers"],
        "scheduled_or_live": listed["not_finished"],
    }
    if listed["total"] == played:
        return counts, None
    walkovers, to_come = counts["walkovers"], counts["scheduled_or_live"]
    parts = [f"{walkovers:,} walkover{'s' if walkovers != 1 else ''}"] if walkovers else []
    parts += [f"{to_come:,} not finished (scheduled or under way)"] if to_come else []
    return counts, (
        f"`matches` counts the {played:,} draw matches played; /v1/players/{pid}/matches lists "
        f"{listed['total']:,}, adding {' and '.join(parts)}"
    )


@attrs.frozen
class PlayerItem:
    """A player in the list: career figures over draw matches (walkovers are not matches played)."""

    id: str = attrs.field(metadata=doc("pl_ id"))
    name: str
    slug: str
    country: str | None = attrs.field(metadata=doc("IOC code or null"))
    gender: Literal["M", "W"]
    first_year: int | None = attrs.field(metadata=doc("year of the first draw match played; null when none"))
    last_year: int | None = attrs.field(metadata=doc("year of the last draw match played; null when none"))
    matches: int = attrs.field(metadata=doc(MATCHES_PLAYED))
    wins: int


@attrs.frozen
class DisciplineFigures:
    matches: int
    wins: int
    first_year: int
    last_year: int


@attrs.frozen
class RankingHigh:
    rank: int
    discipline: Discipline
    date: str = attrs.field(
        metadata=doc("YYYY-MM-DD of the first list showing it, or YYYY-MM when only the month is known")
    )
    partner: PlayerRef | None = attrs.field(metadata=doc("doubles partner on that list; null in singles"))


@attrs.frozen
class CareerHigh:
    """Best world ranking over every list held; other_events: the best in each other discipline."""

    rank: int
    discipline: Discipline
    date: str = attrs.field(
        metadata=doc("YYYY-MM-DD of the first list showing it, or YYYY-MM when only the month is known")
    )
    partner: PlayerRef | None = attrs.field(metadata=doc("doubles partner on that list; null in singles"))
    other_events: list[RankingHigh]


@attrs.frozen
class NumberOneSpell:
    weeks: int = attrs.field(metadata=doc("weekly lists that put the player first"))
    reigns: int = attrs.field(metadata=doc("unbroken runs at number one (as in /v1/rankings/number-ones)"))
    first: dt.date = attrs.field(metadata=doc("first day at number one (from 1 October 2009)"))
    last: dt.date | None = attrs.field(metadata=doc("last day at number one; null while it continues"))
    current: bool


@attrs.frozen
class NumberOne:
    """Time at world number one since 1 October 2009."""

    weeks: int = attrs.field(metadata=doc("total weeks over every discipline"))
    reigns: int
    current: bool = attrs.field(metadata=doc("number one on the latest list in some discipline"))
    by_discipline: dict[str, NumberOneSpell] = attrs.field(
        metadata=doc("keyed by discipline (MS, WS, MD, WD, XD), only those where the player was first")
    )


@attrs.frozen
class PlayerProfile:
    id: str = attrs.field(metadata=doc("pl_ id"))
    name: str
    slug: str
    country: str | None
    gender: Literal["M", "W"]
    first_year: int | None
    last_year: int | None
    matches: int = attrs.field(metadata=doc(MATCHES_PLAYED))
    wins: int
    by_discipline: dict[str, DisciplineFigures] = attrs.field(
        metadata=doc("the same figures keyed by discipline (MS, WS, MD, WD, XD), disciplines played only")
    )
    career_high: CareerHigh | None = attrs.field(metadata=doc("null when the player was never on a ranking list held"))
    number_one: NumberOne | None = attrs.field(metadata=doc("null for a player who never was"))
    born: dt.date | None
    hand: Literal["left", "right"] | None
    height_cm: int | None
    coach: str | None = attrs.field(metadata=doc("coach or coaches, comma separated"))


@attrs.frozen
class RankingHistoryRow:
    date: dt.date = attrs.field(metadata=doc("the list's publication day"))
    discipline: Discipline
    rank: int
    points: int


# -- shaping ----------------------------------------------------------------------------
def _item(r: Any) -> PlayerItem:
    return PlayerItem(
        id=r["id"],
        name=r["name"],
        slug=r["slug"],
        country=r["country"],
        gender=r["gender"],
        first_year=r["first_year"],
        last_year=r["last_year"],
        matches=r["matches"],
        wins=r["wins"],
    )


def _high(h: dict[str, Any]) -> RankingHigh:
    partner = PlayerRef(**h["partner"]) if h["partner"] else None
    return RankingHigh(rank=h["rank"], discipline=h["discipline"], date=h["week"], partner=partner)


def career_high(highs: list[dict[str, Any]]) -> CareerHigh | None:
    """The best rank over every discipline (ties: the earliest list), the others beside it.
    `highs` comes ordered by rank, then date."""
    if not highs:
        return None
    best = _high(highs[0])
    others = sorted((_high(h) for h in highs[1:]), key=lambda h: (h.rank, h.date))
    return CareerHigh(
        rank=best.rank, discipline=best.discipline, date=best.date, partner=best.partner, other_events=others
    )


def number_one(spells: list[dict[str, Any]]) -> NumberOne | None:
    if not spells:
        return None
    by = {
        s["discipline"]: NumberOneSpell(
            weeks=s["weeks"],
            reigns=s["reigns"],
            first=dt.date.fromisoformat(s["first"]),
            last=dt.date.fromisoformat(s["last"]) if s["last"] else None,
            current=s["current"],
        )
        for s in spells
    }
    return NumberOne(
        weeks=sum(s.weeks for s in by.values()),
        reigns=sum(s.reigns for s in by.values()),
        current=any(s.current for s in by.values()),
        by_discipline=by,
    )


def like_fragment(q: str) -> str:
    """A user's text as a LIKE fragment matching itself literally."""
    return q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


# -- endpoints --------------------------------------------------------------------------
@attrs.frozen
class PlayersParams(Paging):
    q: str | None = param("Part of a name; accents and capitals do not matter.")
    country: str | None = param("IOC code (three letters).", pattern=IOC_CODE, upper=True)
    gender: str | None = param("M or W.", enum=("M", "W"), upper=True)


@endpoint(
    "/v1/players",
    plan="archive",
    summary="Players, most draw matches first",
    params=PlayersParams,
    returns=PlayerItem,
    many=True,
    description="Every player, most draw matches played first (walkovers are not matches played), "
    "then by id; `q` matches part of a name regardless of accents and capitals. Players "
    "known only from ranking lists have 0 matches and null years.",
)
async def players(call: Call) -> Page:
    p = call.p
    rows = await call.db.fetch(
        Q.players.list,
        q=like_fragment(p.q) if p.q else None,
        country=p.country,
        gender=p.gender,
        offset=call.offset,
        limit=call.limit,
    )
    return call.page(rows, _item)


@endpoint(
    "/v1/players/{id}",
    plan="archive",
    summary="One player's profile",
    params=PlayerPath,
    returns=PlayerProfile,
    description="The list item's figures, the same split by discipline, the best world ranking "
    "(`career_high`, with the best in each other discipline under `other_events`), time at "
    "world number one since 1 October 2009 (`number_one`; its weeks are the weekly lists that "
    "put the player first), and born, hand, height_cm and coach. `matches` counts draw matches "
    "played (finished, no walkover), while /v1/players/{id}/matches lists every draw match: "
    "`meta.match_list` gives its total, played, walkovers and scheduled_or_live (total = played + "
    "walkovers + scheduled_or_live), and `meta.note` says so in words when the two differ.",
)
async def player(call: Call) -> Answer:
    r = await call.db.fetchrow(Q.players.profile, id=call.p.id)
    if r is None:
        raise not_found(f"no player with id {call.p.id}")
    by = {d.pop("discipline"): DisciplineFigures(**d) for d in r["by_discipline"]}
    counts, note = match_list(r["id"], r["matches"], r["listed"])
    meta: dict[str, Any] = {"match_list": counts} | ({"note": note} if note else {})
    return Answer(
        PlayerProfile(
            **attrs.asdict(_item(r), recurse=False),  # the list's figures, read the same way
            by_discipline=by,
            career_high=career_high(r["highs"]),
            number_one=number_one(r["number_ones"]),
            born=r["born"],
            hand=r["hand"],
            height_cm=r["height_cm"],
            coach=r["coach"],
        ),
        meta,
    )


@attrs.frozen
class PlayerRankingsParams(PlayerPath):
    discipline: str | None = discipline_param()


@endpoint(
    "/v1/players/{id}/rankings",
    plan="archive",
    summary="A player's world ranking history, newest first",
    params=PlayerRankingsParams,
    returns=RankingHistoryRow,
    many=True,
    description="Every list the player is on, newest first: every list from September 2026 (full lists), "
    "and the weekly top lists back to 2013 for weeks the player was in them. "
    "meta.count is the number of rows.",
)
async def player_rankings(call: Call) -> Answer:
    rows = await call.db.fetch(Q.players.rankings, id=call.p.id, discipline=call.p.discipline, since=SERVED_FROM)
    if not rows or not rows[0]["known"]:
        raise not_found(f"no player with id {call.p.id}")
    data = [
        RankingHistoryRow(date=r["week"], discipline=r["discipline"], rank=r["rank"], points=r["points"])
        for r in rows
        if r["week"] is not None
    ]
    return Answer(data, {"count": len(data)})
