"""A player's statistics over a range of years (/v1/players/{id}/stats): sums of the per-player,
per-discipline, per-year table built at import (svc/sql/derived/71_player_stats.sql)."""

from __future__ import annotations

from typing import Any

import attrs

from svc.api.players import PlayerPath, player_ref, rate, require_player
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import check_range, discipline_param, year_param
from svc.web.records import PlayerRef

# -- /v1/players/{id}/stats ------------------------------------------------------------------


@attrs.frozen
class StatsRate:
    played: int
    won: int
    rate: float | None = attrs.field(metadata=doc("won / played; null when none were played"))


@attrs.frozen
class StatsWonLost:
    won: int = attrs.field(metadata=doc("matches this player won that way (the opponent retired or gave a walkover)"))
    lost: int


@attrs.frozen
class StatsByDiscipline:
    matches: int
    wins: int
    win_rate: float | None
    game_win_rate: float | None
    point_share: float | None


@attrs.frozen
class StatsRow:
    player: PlayerRef
    filters: dict[str, str | int | None] = attrs.field(metadata=doc("discipline, from and to as applied (null: all)"))
    matches: int = attrs.field(metadata=doc("finished matches, walkovers and retirements included"))
    wins: int
    win_rate: float | None = attrs.field(metadata=doc("wins / matches"))
    game_win_rate: float | None = attrs.field(
        metadata=doc("games won / completed games (a retired match's unfinished game is left out)")
    )
    point_share: float | None = attrs.field(metadata=doc("points won / all points played"))
    deciding_games: StatsRate = attrs.field(metadata=doc("matches that went to a completed third game"))
    extended_games: StatsRate = attrs.field(
        metadata=doc("completed games in which the loser reached 20; 21-point rally scoring only (from 1 Aug 2006)")
    )
    after_losing_first_game: StatsRate = attrs.field(
        metadata=doc("matches in which this player lost the first game: how many they still won")
    )
    after_winning_first_game: StatsRate = attrs.field(
        metadata=doc("matches in which this player won the first game: how many they won")
    )
    retirements: StatsWonLost = attrs.field(metadata=doc("matches ended by a retirement"))
    walkovers: StatsWonLost = attrs.field(metadata=doc("matches given as walkovers"))
    by_discipline: dict[str, StatsByDiscipline] = attrs.field(
        metadata=doc("the headline figures per discipline played")
    )


@attrs.frozen
class StatsParams(PlayerPath):
    discipline: str | None = discipline_param()
    from_: int | None = year_param("First tournament year counted.", wire="from")
    to: int | None = year_param("Last tournament year counted.")


_SUMMED = (
    "matches",
    "wins",
    "games_won",
    "games_lost",
    "points_won",
    "points_lost",
    "deciding_played",
    "deciding_won",
    "extended_played",
    "extended_won",
    "after_losing_played",
    "after_losing_won",
    "after_winning_played",
    "after_winning_won",
    "retired_won",
    "retired_lost",
    "walkover_won",
    "walkover_lost",
)


def _headline(s: dict[str, int]) -> StatsByDiscipline:
    return StatsByDiscipline(
        matches=s["matches"],
        wins=s["wins"],
        win_rate=rate(s["wins"], s["matches"]),
        game_win_rate=rate(s["games_won"], s["games_won"] + s["games_lost"]),
        point_share=rate(s["points_won"], s["points_won"] + s["points_lost"]),
    )


def stats_row(player: PlayerRef, filters: dict[str, Any], per_discipline: list[Any]) -> StatsRow:
    total = {k: sum(r[k] for r in per_discipline) for k in _SUMMED}
    head = _headline(total)
    return StatsRow(
        player=player,
        filters=filters,
        matches=head.matches,
        wins=head.wins,
        win_rate=head.win_rate,
        game_win_rate=head.game_win_rate,
        point_share=head.point_share,
        deciding_games=StatsRate(
            total["deciding_played"], total["deciding_won"], rate(total["deciding_won"], total["deciding_played"])
        ),
        extended_games=StatsRate(
            total["extended_played"], total["extended_won"], rate(total["extended_won"], total["extended_played"])
        ),
        after_losing_first_game=StatsRate(
            total["after_losing_played"],
            total["after_losing_won"],
            rate(total["after_losing_won"], total["after_losing_played"]),
        ),
        after_winning_first_game=StatsRate(
            total["after_winning_played"],
            total["after_winning_won"],
            rate(total["after_winning_won"], total["after_winning_played"]),
        ),
        retirements=StatsWonLost(total["retired_won"], total["retired_lost"]),
        walkovers=StatsWonLost(total["walkover_won"], total["walkover_lost"]),
        by_discipline={r["discipline"]: _headline(r) for r in per_discipline},
    )


async def stats_plan(p: StatsParams, db: Any, clock: Any) -> str:
    # `from` after `to` is checked here, before the call is counted: a 422 is never counted.
    check_range(p)
    return "archive"


@endpoint(
    "/v1/players/{id}/stats",
    plan="archive",
    summary="A player's statistics over a range of years",
    params=StatsParams,
    returns=StatsRow,
    many=True,
    plan_for=stats_plan,
    description="One stats row for the player over tournament years `from` to `to` (both optional), in one "
    "discipline or all. Matches are finished draw matches, walkovers and retirements included "
    "(so wins equal the won matches of /v1/players/{id}/matches with the same filters); "
    "deciding_games are matches with a completed third game; extended_games are completed games "
    "the loser took to 20 or more under 21-point rally scoring (from 1 August 2006); "
    "after_losing/after_winning_first_game count matches whose first game was completed.",
)
async def player_stats(call: Call) -> Answer:
    p = call.p
    player = await require_player(call.db, p.id)
    rows = await call.db.fetch(Q.player_stats.stats, id=p.id, discipline=p.discipline, from_year=p.from_, to_year=p.to)
    filters = {"discipline": p.discipline, "from": p.from_, "to": p.to}
    return Answer([stats_row(player_ref(player), filters, rows)])
