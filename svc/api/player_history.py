"""A player's history: their matches (/v1/players/{id}/matches), every draw match they stood in,
told from their side. The other sub-resources of /v1/players/{id} that read a player's past each
have their module: player_record (partners, opponents, titles, form), player_schedule and
player_stats."""

from __future__ import annotations

import attrs

from svc.api.players import require_player
from svc.core.sqlfiles import Q
from svc.web.endpoint import Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import discipline_param, path_id, year_param
from svc.web.records import DrawMatch, draw_match_from_row, told_from

# -- /v1/players/{id}/matches ------------------------------------------------------------


@attrs.frozen
class PlayerMatchesParams(Paging):
    id: str = path_id("pl_", "Player id (pl_...).")
    year: int | None = year_param("Tournament year (the edition's year label).")
    discipline: str | None = discipline_param()


@endpoint(
    "/v1/players/{id}/matches",
    plan="archive",
    summary="A player's draw matches, newest first",
    params=PlayerMatchesParams,
    returns=DrawMatch,
    many=True,
    description="Every draw match the player stood in (finished, under way or scheduled), newest first, "
    "shaped as /v1/matches/{id} but told from the player's side: the player's side is side 1, "
    "so games, winner and prices read from it first. Filters: `year` (the "
    "edition's year) and `discipline`. Walkovers and matches not finished are listed, so `meta.total` "
    "unfiltered is more than the profile's `matches` (played only) by those: the profile's "
    "`meta.match_list` gives the split.",
)
async def player_matches(call: Call) -> Page:
    p = call.p
    rows = await call.db.fetch(
        Q.player_history.matches, id=p.id, year=p.year, discipline=p.discipline, offset=call.offset, limit=call.limit
    )
    if not rows:
        await require_player(call.db, p.id)  # an empty list for a known player, 404 otherwise
    return call.page(
        rows, lambda r: told_from(draw_match_from_row(r, with_odds=call.sees_odds), 1 if call.p.id in r["side1"] else 2)
    )
