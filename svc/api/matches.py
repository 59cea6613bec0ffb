"""Draw matches of the Archive plan: /v1/matches and /v1/matches/{id}."""

from __future__ import annotations

import attrs

from svc.api.reference import SLUG, check_series
from svc.core.errors import invalid, not_found
from svc.core.sqlfiles import Q
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import ROUND_CODES, discipline_param, param, path_id, year_param
from svc.web.records import DrawMatch, draw_match_from_row

# Up to this many editions (a year's, a tournament's) a page is taken by sorting their matches
# (a few thousand at most); a series spanning a century is better read down the newest-first
# index, where its matches turn up every few hundred rows.
SORT_EDITIONS = 60


@attrs.frozen
class MatchesParams(Paging):
    player: str | None = param(
        "Only matches of this player (pl_...), on either side, singles and doubles.", prefix="pl_"
    )
    tournament: str | None = param("Only matches of this edition (tr_...).", prefix="tr_")
    series: str | None = param("Only matches of editions of this series (slug, as listed by /v1/series).", pattern=SLUG)
    year: int | None = year_param("Only matches of editions with this year label.")
    discipline: str | None = discipline_param()
    round: str | None = param(
        "Only matches of this round: R128, R64, R32, R16, QF, SF, 3P (bronze medal match) or F.",
        enum=ROUND_CODES,
        upper=True,
    )
    with_odds: bool = param(
        "true: only finished matches with match-winner closing prices (from 2005, senior "
        "individual events). false (default): every match. The prices themselves are shown "
        "to Odds keys and above.",
        default=False,
    )


@endpoint(
    "/v1/matches",
    plan="archive",
    summary="Draw matches, newest first, by player, edition, series, year, discipline and round",
    params=MatchesParams,
    returns=DrawMatch,
    many=True,
    cache_seconds=2,  # matches in play come first and their scores move with every rally
    description="Draw matches (every status: finished, live and scheduled), newest first: by day, latest "
    "first (so this week's scheduled matches come first), matches of the same day by id, the few "
    "very old matches without a day last. Filters combine. An unknown `player`, `tournament` or "
    "`series` answers 422. `odds` is filled for Odds keys and above.",
)
async def matches(call: Call) -> Page:
    p = call.p
    scoped = p.tournament is not None or p.series is not None or p.year is not None
    # The editions asked for become a list of ids first: matched through the matches_tournament
    # index, where an OR-ed subquery would be checked against every match (~40 ms at demo scale).
    tids = None
    if p.series is not None or p.year is not None:
        tids = list(await call.db.fetchval(Q.matches.editions, tournament=p.tournament, series=p.series, year=p.year))
    elif p.tournament is not None:
        tids = [p.tournament]
    fast_total = p.player is None and not scoped
    sort_page = tids is not None and len(tids) <= SORT_EDITIONS
    rows = await call.db.fetch(
        Q.matches.list,
        player=p.player,
        tids=tids,
        discipline=p.discipline,
        round=p.round,
        with_odds=p.with_odds,
        fast_total=fast_total,
        sort_page=sort_page,
        offset=call.offset,
        limit=call.limit,
    )
    if not rows:
        if p.player and not await call.db.fetchval(Q.players.exists, id=p.player):
            raise invalid(f"parameter `player`: no player with id {p.player}", "player")
        if p.tournament and not await call.db.fetchval(Q.tournaments.exists, id=p.tournament):
            raise invalid(f"parameter `tournament`: no edition with id {p.tournament}", "tournament")
        await check_series(call, p.series)
    return call.page(rows, lambda r: draw_match_from_row(r, with_odds=call.sees_odds))


@attrs.frozen
class MatchParams:
    id: str = path_id("mt_", "Draw match id (mt_...).")


@endpoint(
    "/v1/matches/{id}",
    plan="archive",
    summary="One draw match",
    params=MatchParams,
    returns=DrawMatch,
    cache_seconds=2,  # a match in play changes with every rally
    description="One draw match; `event` is the same match in the results feed. `odds` is filled for Odds "
    "keys and above. Unknown id: 404.",
)
async def match(call: Call) -> Answer:
    row = await call.db.fetchrow(Q.matches.one, id=call.p.id)
    if row is None:
        raise not_found(f"no match with id {call.p.id}")
    return Answer(draw_match_from_row(row, with_odds=call.sees_odds))
