"""Archive plan, the own rating: /v1/ratings -- the table as on a day, or one player's history.

Ratings are per player and discipline (svc.rating.model), kept day by day in rating_days:
a row holds the standing after that day's matches, so the rating as on a date is each
player's latest row before it (a day's results count from the next day).
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import attrs

from svc.core.errors import bad_request, invalid, not_found
from svc.core.sqlfiles import Q
from svc.rating.history import Model
from svc.rating.model import variance_on
from svc.web.convert import doc
from svc.web.endpoint import Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import class_variants, discipline_param, param, sport_class_param
from svc.web.records import Discipline, PlayerRef

ACTIVE_DAYS = 365


@attrs.frozen
class RatingRow:
    rank: int = attrs.field(metadata=doc("standard competition rank by rating (equal ratings share a place)"))
    player: PlayerRef
    rating: float = attrs.field(metadata=doc("rating points, one decimal; 400 points more = odds of 10 to 1"))
    deviation: float = attrs.field(
        metadata=doc(
            "uncertainty in rating points (one standard deviation) as on the date: it shrinks as matches are rated "
            "and grows with every day without one"
        )
    )
    matches: int = attrs.field(
        metadata=doc("matches rated in this discipline before the date (walkovers are not rated)")
    )
    last_played: dt.date = attrs.field(metadata=doc("last day rated before the date"))


@attrs.frozen
class RatingDay:
    discipline: Discipline
    sport_class: str | None = attrs.field(
        metadata=doc(
            "para badminton: the class (or class pair) the player is rated in, apart from able-bodied play; "
            "null otherwise"
        )
    )
    day: dt.date = attrs.field(metadata=doc("a day the player was rated; the rating holds from the next day"))
    rating: float = attrs.field(metadata=doc("after that day's matches"))
    deviation: float = attrs.field(metadata=doc("after that day's matches"))
    matches: int = attrs.field(metadata=doc("matches rated in this discipline up to and including that day"))
    change: float | None = attrs.field(
        metadata=doc("against the previous day rated in this discipline; null for the first")
    )


@attrs.frozen
class RatingsParams(Paging):
    discipline: str | None = discipline_param("Discipline; required for the table, optional with `player`.")
    date: dt.date | None = param(
        "Ratings as on that day: every result before it counts (today when omitted; not after today)."
    )
    player: str | None = param(
        "One player's rating history (pl_...) instead of the table: the days rated before `date`, newest first.",
        prefix="pl_",
    )
    active: bool = param("Table only: keep only players rated in the 365 days before the date.", default=True)
    sport_class: str | None = sport_class_param(
        "Para badminton: the table (or history) of one sport class, or a class pair in doubles such as WH1-WH2 "
        "(either order). Para players are rated within their classes, never in the able-bodied table of the "
        "discipline, which is what the table is without it."
    )


def model_meta(model: Model | None) -> dict[str, Any]:
    """meta.model: the version, what it was fitted on and how it did on held-out seasons."""
    if model is None:
        return {"version": None}
    s = model.settings
    return {
        "version": model.version,
        "trained_to_season": s.trained_to,
        "home_edge": s.home_edge,
        "home_edge_test": model.home_edge_test,
        "held_out": model.held_out,
        "settings": {
            "initial_deviation": s.initial_deviation,
            "min_deviation": s.min_deviation,
            "deviation_growth_per_day": s.drift,
            "margin_weight": s.margin_weight,
            "rally_weight": s.points,
            "newcomer_below_field": s.entry_offset,
            "carry_from_other_discipline": s.carry,
            "pair_term": s.pair_k,
        },
    }


async def served_model(call: Call) -> Model | None:
    text = await call.db.fetchval(Q.ratings.model)
    return Model.from_json(text) if text else None


def reads_best_first(total: int, field: int, upto: int) -> bool:
    """Whether a page of the all-time table (its rows up to `upto`) is read best first. That reads
    about upto x (the discipline's standings / those in force) index rows; read by day, every
    standing before the day, about (total / field) of them: best first wins while
    upto x field < total^2 (as on today: nearly always; as on an early day: never). The active
    table is always read by day: one year of standings."""
    return total > 0 and upto * field < total * total


def deviation_on(model: Model | None, variance: float, last: dt.date, day: dt.date) -> float:
    """The deviation on `day` of a standing last rated on `last`, as the rating itself grows it."""
    if model is None:
        return round(math.sqrt(variance), 1)
    return round(math.sqrt(variance_on(model.settings, variance, last, day)), 1)


async def ratings_plan(p: RatingsParams, db: Any, clock: Any) -> str:
    # Checked before the call is counted: a 400 or 422 is never counted.
    if p.player is None and p.discipline is None:
        raise bad_request(
            "parameter `discipline` is required for the table (or give `player` for one player's history)",
            "discipline",
        )
    if p.sport_class is not None and p.discipline is None:
        raise bad_request(
            "parameter `sport_class` needs `discipline` (a class is rated within a discipline)", "sport_class"
        )
    if p.date is not None and p.date > clock.today():
        raise invalid(f"parameter `date` ({p.date}) is after today ({clock.today()})", "date")
    return "archive"


@endpoint(
    "/v1/ratings",
    plan="archive",
    summary="The own rating: the table as on a day, or one player's history",
    params=RatingsParams,
    returns=RatingRow | RatingDay,
    many=True,
    plan_for=ratings_plan,
    description="Our own Elo-style rating (not a federation figure), per player and discipline, computed from "
    "results only: each day's matches move each player by the surprise of the result (and of the "
    "points won) against the chance the ratings gave, more while the player's deviation is high; "
    "the deviation grows with inactivity. In doubles each player has a rating and a pair is their "
    "mean. Walkovers are not rated. Ratings as on `date` count every result before that day. "
    "Without `player`: the table of `discipline`, best first (`active` keeps those rated in the 365 "
    "days before). With `player`: that player's history instead, rows shaped as RatingDay "
    "(discipline, day, rating, deviation, matches, change), newest first, in one discipline or "
    "all. Para badminton is rated within its sport classes: `sport_class` gives the table of one "
    "class (or class pair), and the table without it holds able-bodied play only. `meta.model` names the "
    "model version, its settings and its held-out accuracy and "
    "log-loss; `meta.date` is the date the ratings are as on.",
)
async def ratings(call: Call) -> Page:
    p = call.p
    day = p.date or call.clock.today()
    model = await served_model(call)
    meta: dict[str, Any] = {"date": day.isoformat(), "model": model_meta(model)}
    if p.player is not None:
        if not await call.db.fetchval(Q.players.exists, id=p.player):
            raise not_found(f"no player with id {p.player}")
        rows = await call.db.fetch(
            Q.ratings.player_history,
            player=p.player,
            day=day,
            discipline=p.discipline,
            classes=class_variants(p.sport_class) if p.sport_class else None,
            offset=call.offset,
            limit=call.limit,
        )
        if not rows and call.offset == 0:
            meta["note"] = "the player has no rated match before this date" + (
                " in this discipline" if p.discipline else ""
            )
        return call.page(
            rows,
            lambda r: RatingDay(
                discipline=r["discipline"],
                sport_class=r["sport_class"],
                day=r["day"],
                rating=round(r["rating"], 1),
                deviation=round(math.sqrt(r["variance"]), 1),
                matches=r["matches"],
                change=None if r["change"] is None else round(r["change"], 1),
            ),
            meta,
        )
    rated_as = p.discipline
    if p.sport_class is not None:
        meta["sport_class"] = p.sport_class
        rated_as = (
            await call.db.fetchval(
                Q.ratings.class_rated_as, keys=[f"{p.discipline} {c}" for c in class_variants(p.sport_class)]
            )
            or f"{p.discipline} {p.sport_class}"
        )
    since, total, table = day - dt.timedelta(days=ACTIVE_DAYS), None, Q.ratings.table_by_day
    if not p.active:
        since = dt.date.min
        size = await call.db.fetchrow(Q.ratings.table_size, discipline=rated_as, day=day)
        if reads_best_first(size["total"], size["field"], call.offset + call.limit):
            total, table = size["total"], Q.ratings.table_best
    rows = await call.db.fetch(table, discipline=rated_as, day=day, since=since, offset=call.offset, limit=call.limit)
    meta["active"] = p.active
    if not rows and call.offset == 0:
        meta["note"] = "no player of this discipline was rated " + (
            "in the year before this date" if p.active else "before this date"
        )
    return call.page(
        rows,
        lambda r: RatingRow(
            rank=r["rank"],
            player=PlayerRef(id=r["player_id"], name=r["name"], country=r["country"]),
            rating=round(r["rating"], 1),
            deviation=deviation_on(model, r["variance"], r["day"], day),
            matches=r["matches"],
            last_played=r["day"],
        ),
        meta,
        total=total,
    )
