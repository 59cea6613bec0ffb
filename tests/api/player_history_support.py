"""Helpers of the player sub-resources' tests (test_player_history, test_player_stats,
test_player_record, test_player_schedule): the busiest player of a world, and a match told from
one player's side."""

from __future__ import annotations

from tests.support import sql


def busiest_player(db_url: str) -> str:
    """The player with the most finished matches."""
    return sql(
        db_url,
        """
        SELECT p, count(*) AS n FROM matches m, unnest(m.side1 || m.side2) AS p
        WHERE m.status = 'finished' GROUP BY p ORDER BY count(*) DESC, p LIMIT 1""",
    )[0]["p"]


def side_of(match: dict, player: str) -> int:
    if player in [p["id"] for p in match["side1"]["players"]]:
        return 1
    assert player in [p["id"] for p in match["side2"]["players"]]
    return 2


def own_games(match: dict, side: int) -> list[list[int]]:
    return [g if side == 1 else [g[1], g[0]] for g in match["games"]]
