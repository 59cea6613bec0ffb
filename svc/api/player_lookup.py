"""What the player sub-resources (/v1/players/{id}/...) and /v1/h2h share: the path
parameter, the 404 for an unknown player, player references and games turned to the
asked player's side. No endpoints here."""

from __future__ import annotations

from typing import Any, Literal

import attrs

from svc.core.db import Database
from svc.core.errors import not_found
from svc.web.params import path_id
from svc.web.records import PlayerRef
from svc.core.sqlfiles import Q

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
