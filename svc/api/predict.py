"""Odds plan, /v1/predict: each side's chance from the own rating as on a day, a fair price,
the deciding game's chance at one game all, and the two sides' head to head."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

import attrs

from svc.api.ratings import model_meta, served_model
from svc.core.errors import bad_request, invalid, not_found
from svc.core.sqlfiles import Q
from svc.rating.history import rated_key
from svc.rating.model import Ratings, decider_chance, expected
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import IOC_CODE, SPORT_CLASSES, discipline_param, param
from svc.web.records import Discipline, PlayerRef

RALLY_SCORING_FROM = dt.date(
    2006, 4, 28
)  # 21-point rally scoring (svc.world.engine); games before it are checked loosely
_GAMES = re.compile(r"^([0-9]{1,2})-([0-9]{1,2}),([0-9]{1,2})-([0-9]{1,2})$")


@attrs.frozen
class PredictSide:
    players: list[PlayerRef]
    rating: float = attrs.field(metadata=doc("the side's rating as on the date: the players' mean in doubles"))
    deviation: float = attrs.field(metadata=doc("the side's uncertainty in rating points"))
    rated: bool = attrs.field(
        metadata=doc(
            "false when a player has no rated match in this discipline before the date: their rating is then a "
            "newcomer's (1500, or drawn towards their rating in another discipline)"
        )
    )
    at_home: bool = attrs.field(metadata=doc("every player of the side is from `host`"))
    chance: float = attrs.field(metadata=doc("chance to win the match, 4 decimals"))
    fair_price: float | None = attrs.field(
        metadata=doc("1 / chance, 2 decimals (no margin); null when the chance is 0")
    )


@attrs.frozen
class DecidingGame:
    games: str = attrs.field(metadata=doc("the first two games from side 1, as given"))
    side1: float = attrs.field(metadata=doc("side 1's chance to win the third game (and so the match)"))
    side2: float
    fair_price1: float | None
    fair_price2: float | None


@attrs.frozen
class Meeting:
    match: str = attrs.field(metadata=doc("mt_ id"))
    day: dt.date | None
    tournament: str
    discipline: Discipline
    games: list[str] = attrs.field(metadata=doc("game scores from side 1's side, e.g. 21-17"))
    winner: int = attrs.field(metadata=doc("1 or 2, the side of this prediction that won"))
    outcome: str


@attrs.frozen
class SidesHeadToHead:
    meetings: int = attrs.field(
        metadata=doc(
            "finished matches with every player of side 1 on one side and every player of side 2 on the other "
            "(in doubles: these exact pairs), walkovers included, in any discipline"
        )
    )
    side1_wins: int
    side2_wins: int
    last: list[Meeting] = attrs.field(metadata=doc("the five most recent, newest first"))


@attrs.frozen
class Prediction:
    discipline: Discipline
    date: dt.date = attrs.field(metadata=doc("ratings as on this day: results before it count"))
    side1: PredictSide
    side2: PredictSide
    deciding_game: DecidingGame | None = attrs.field(metadata=doc("with `games` only"))
    head_to_head: SidesHeadToHead


@attrs.frozen
class PredictParams:
    player1: str = param("Side 1's player (pl_...).", required=True, prefix="pl_")
    player2: str = param("Side 2's player (pl_...).", required=True, prefix="pl_")
    partner1: str | None = param("Side 1's partner in doubles (pl_...); give both partners or neither.", prefix="pl_")
    partner2: str | None = param("Side 2's partner in doubles (pl_...).", prefix="pl_")
    discipline: str | None = discipline_param(
        "Discipline; when omitted it follows from the players' genders and whether partners are given."
    )
    date: dt.date | None = param(
        "Ratings as on that day (today when omitted); a later day uses the latest ratings "
        "with the deviation grown to that day."
    )
    host: str | None = param(
        "IOC code of the host country: a side whose players are all from it is moved by "
        "`meta.model.home_edge` rating points (nothing when that is null).",
        upper=True,
        pattern=IOC_CODE,
    )
    games: str | None = param(
        "At one game all: the first two games from side 1 as a-b,a-b (e.g. 21-17,15-21); adds `deciding_game`.",
        pattern=r"^[0-9]{1,2}-[0-9]{1,2},[0-9]{1,2}-[0-9]{1,2}$",
    )


def legal_game(a: int, b: int, rally: bool) -> bool:
    """A finished game's score: to 21 by two, capped at 30 under rally scoring; before it, loosely
    (11 to 17 points, someone ahead)."""
    hi, lo = max(a, b), min(a, b)
    if not rally:
        return hi != lo and 11 <= hi <= 17
    return (hi == 21 and lo <= 19) or (22 <= hi <= 30 and hi - lo == 2) or (hi == 30 and lo == 29)


def parse_games(text: str, day: dt.date) -> tuple[int, int, int, int]:
    m = _GAMES.match(text)
    if m is None:
        raise bad_request(f"parameter `games` ({text!r}) is not two game scores a-b,a-b", "games")
    a1, b1, a2, b2 = (int(x) for x in m.groups())
    rally = day >= RALLY_SCORING_FROM
    for a, b in ((a1, b1), (a2, b2)):
        if not legal_game(a, b, rally):
            raise invalid(
                f"parameter `games`: {a}-{b} is not the score of a finished game"
                + (" (21 points, two clear, at most 30-29)" if rally else ""),
                "games",
            )
    if (a1 > b1) == (a2 > b2):
        raise invalid(
            f"parameter `games` ({text}) is not one game all: side 1 won "
            f"{'both' if a1 > b1 else 'neither'} of the first two games",
            "games",
        )
    return a1, b1, a2, b2


async def predict_plan(p: PredictParams, db: Any, clock: Any) -> str:
    # Checked before the call is counted: a 400 or 422 is never counted.
    ids = [x for x in (p.player1, p.partner1, p.player2, p.partner2) if x is not None]
    if len(set(ids)) != len(ids):
        raise invalid("the same player is named twice; the sides need different players")
    if (p.partner1 is None) != (p.partner2 is None):
        missing = "partner2" if p.partner2 is None else "partner1"
        raise invalid(f"parameter `{missing}` is missing: doubles need a partner on both sides", missing)
    doubles = p.partner1 is not None
    if p.discipline is not None and (p.discipline in ("MD", "WD", "XD")) != doubles:
        raise invalid(
            f"parameter `discipline` ({p.discipline}) is {'doubles' if p.discipline[1] == 'D' else 'singles'} "
            f"but {'partners are' if doubles else 'no partners are'} given",
            "discipline",
        )
    if p.games is not None:
        parse_games(p.games, p.date or clock.today())
    return "odds"


def _rated_as(discipline: str, players: list[Any]) -> str:
    """The rating the sides are read in: para players (all of them with a sport class) are rated
    within their classes ("MS WH1"; a doubles class pair in the draws' order, "MD WH1-WH2"), as
    svc.rating.history rates them; anyone else in the discipline itself."""
    classes = [r["sport_class"] for r in players]
    if not all(classes):
        return discipline
    return rated_key(discipline, "-".join(sorted(set(classes), key=SPORT_CLASSES.index)))


def _discipline(given: str | None, side1: list[Any], side2: list[Any]) -> str:
    genders = [sorted(r["gender"] for r in side) for side in (side1, side2)]
    wanted = {"MS": ["M"], "WS": ["W"], "MD": ["M", "M"], "WD": ["W", "W"], "XD": ["M", "W"]}
    if given is not None:
        if genders[0] != wanted[given] or genders[1] != wanted[given]:
            raise invalid(
                f"parameter `discipline` ({given}) does not fit the players' genders "
                f"({'/'.join(genders[0])} against {'/'.join(genders[1])})",
                "discipline",
            )
        return given
    for code, want in wanted.items():
        if genders[0] == want and genders[1] == want:
            return code
    raise invalid(
        f"no discipline fits the players' genders ({'/'.join(genders[0])} against "
        f"{'/'.join(genders[1])}); give `discipline`"
    )


def _price(chance: float) -> float | None:
    return round(1 / chance, 2) if chance > 0 else None


@endpoint(
    "/v1/predict",
    plan="odds",
    summary="Each side's chance from the own rating, a fair price, the head to head",
    params=PredictParams,
    returns=Prediction,
    plan_for=predict_plan,
    description="The chance each side wins, from our own rating as on `date` (every result before that day): "
    "singles with player1 and player2, doubles with partner1 and partner2 too (a pair's rating is "
    "its players' mean). The chance is 1 / (1 + 10^(-d/400)) of the rating difference d, damped "
    "by both sides' deviations; `host` adds `meta.model.home_edge` to a side all from that "
    "country. `fair_price` is 1 / chance. With `games` (one game all) `deciding_game` gives the "
    "chance of the third game from the pre-match chance and the first two games' points, as "
    "fitted on past deciding games. `head_to_head` counts the sides' meetings in any discipline. "
    "`meta.model`: the model version, its settings, and its accuracy and log-loss on held-out "
    "seasons. A player without a rated match before the date is rated as a newcomer "
    "(`rated` false).",
)
async def predict(call: Call) -> Answer:
    p = call.p
    day = p.date or call.clock.today()
    side_ids = ([p.player1] + ([p.partner1] if p.partner1 else []), [p.player2] + ([p.partner2] if p.partner2 else []))
    found = {r["id"]: r for r in await call.db.fetch(Q.predict.players, ids=side_ids[0] + side_ids[1])}
    for name in ("player1", "partner1", "player2", "partner2"):
        pid = getattr(p, name)
        if pid is not None and pid not in found:
            raise not_found(f"no player with id {pid} (parameter `{name}`)")
    if p.host is not None and not await call.db.fetchval(Q.places.country_exists, code=p.host):
        raise invalid(f"parameter `host` ({p.host}) is not a known IOC country code", "host")
    discipline = _discipline(p.discipline, [found[x] for x in side_ids[0]], [found[x] for x in side_ids[1]])
    model = await served_model(call)
    if model is None:
        raise not_found("no rating has been computed for this world yet")
    ratings = Ratings(model.settings)
    ratings.load(await call.db.fetch(Q.ratings.standings, players=side_ids[0] + side_ids[1], day=day))
    rated_as = _rated_as(discipline, [found[x] for x in side_ids[0] + side_ids[1]])
    home = [p.host is not None and all(found[x]["country"] == p.host for x in ids) for ids in side_ids]
    edge = (model.settings.home_edge or 0.0) * (int(home[0]) - int(home[1]))
    # the deviation grows to `day` from the last day rated, as in the rating itself
    sides = [ratings.side(ids, rated_as, day) for ids in side_ids]
    chance1 = expected(sides[0][0] - sides[1][0] + edge, sides[0][1] + sides[1][1])
    # rounded once so that the two chances always sum to 1 (and p(a, b) = 1 - p(b, a) exactly)
    chance1 = round(chance1, 4)
    chances = (chance1, round(1 - chance1, 4))

    def side(i: int) -> PredictSide:
        ids = side_ids[i]
        return PredictSide(
            players=[PlayerRef(id=x, name=found[x]["name"], country=found[x]["country"]) for x in ids],
            rating=round(sides[i][0], 1),
            deviation=round(math.sqrt(sides[i][1]), 1),
            rated=all((x, rated_as) in ratings.players for x in ids),
            at_home=home[i],
            chance=round(chances[i], 4),
            fair_price=_price(chances[i]),
        )

    deciding = None
    if p.games is not None:
        a1, b1, a2, b2 = parse_games(p.games, day)
        d1 = round(decider_chance(model.settings, chance1, a1 + a2, b1 + b2), 4)
        deciding = DecidingGame(
            games=p.games, side1=d1, side2=round(1 - d1, 4), fair_price1=_price(d1), fair_price2=_price(1 - d1)
        )
    meetings = await call.db.fetch(Q.predict.meetings, side_a=side_ids[0], side_b=side_ids[1])
    wins1 = sum(1 for m in meetings if m["winner"] == m["side_of_a"])
    last = [
        Meeting(
            match=m["id"],
            day=m["day"],
            tournament=m["tournament"],
            discipline=m["discipline"],
            games=[f"{x}-{y}" if m["side_of_a"] == 1 else f"{y}-{x}" for x, y in zip(m["g1"], m["g2"])],
            winner=1 if m["winner"] == m["side_of_a"] else 2,
            outcome=m["outcome"],
        )
        for m in meetings[:5]
    ]
    data = Prediction(
        discipline=discipline,
        date=day,
        side1=side(0),
        side2=side(1),
        deciding_game=deciding,
        head_to_head=SidesHeadToHead(
            meetings=len(meetings), side1_wins=wins1, side2_wins=len(meetings) - wins1, last=last
        ),
    )
    return Answer(data, {"model": model_meta(model)})
