"""/v1/h2h: every match two players stood on opposite sides, singles and doubles."""

from __future__ import annotations

from typing import Any

import attrs

from svc.core.errors import invalid, not_found
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import param
from svc.web.records import DrawMatch, draw_match_from_row, told_from


@attrs.frozen
class H2HPlayer:
    id: str
    name: str
    country: str | None
    wins: int = attrs.field(metadata=doc("meetings this player's side won"))


@attrs.frozen
class HeadToHead:
    player1: H2HPlayer
    player2: H2HPlayer
    meetings: int = attrs.field(metadata=doc("finished matches on opposite sides, walkovers included"))
    matches: list[DrawMatch] = attrs.field(metadata=doc("those matches, newest first, shaped as /v1/matches/{id}"))


@attrs.frozen
class H2HParams:
    player1: str = param("First player (pl_...).", required=True, prefix="pl_")
    player2: str = param("Second player (pl_...).", required=True, prefix="pl_")


async def h2h_plan(p: H2HParams, db: Any, clock: Any) -> str:
    # Checked before the call is counted: a 422 is never counted.
    if p.player1 == p.player2:
        raise invalid("parameter `player2` is the same player as `player1`; give two different players", "player2")
    return "archive"


@endpoint(
    "/v1/h2h",
    plan="archive",
    summary="Head to head of two players",
    params=H2HParams,
    returns=HeadToHead,
    plan_for=h2h_plan,
    description="Every finished draw match in which the two players stood on opposite sides, in singles and "
    "in doubles (whoever their partners were), newest first, with each player's wins. Each "
    "match is told from player1's side (player1's side is side 1; games, winner and prices "
    "read from it first). h2h(a, b) mirrors h2h(b, a).",
)
async def h2h(call: Call) -> Answer:
    p = call.p
    found = {r["id"]: r for r in await call.db.fetch(Q.players.two, player1=p.player1, player2=p.player2)}
    for name, pid in (("player1", p.player1), ("player2", p.player2)):
        if pid not in found:
            raise not_found(f"no player with id {pid} (parameter `{name}`)")
    rows = await call.db.fetch(Q.h2h.matches, player1=p.player1, player2=p.player2)
    wins1 = sum(1 for r in rows if r["winner"] == r["side_of_player1"])

    def side(pid: str, wins: int) -> H2HPlayer:
        r = found[pid]
        return H2HPlayer(id=r["id"], name=r["name"], country=r["country"], wins=wins)

    return Answer(
        HeadToHead(
            player1=side(p.player1, wins1),
            player2=side(p.player2, len(rows) - wins1),
            meetings=len(rows),
            matches=[told_from(draw_match_from_row(r, with_odds=call.sees_odds), r["side_of_player1"]) for r in rows],
        )
    )
