"""A player's stats on the tiny world (/v1/players/{id}/stats), recomputed from the player's
matches the way a user would, and filtered by discipline and years."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from tests.api.player_history_support import own_games, side_of
from tests.support import sql, walk

RALLY_POINT_FROM = dt.date(2006, 4, 28)  # 21-point rally scoring (svc.world.engine); extended games count from here


def expected_stats(matches: list[dict], player: str) -> dict:
    """Stats recomputed from /players/{id}/matches items, the way a user would."""
    out = Counter()
    for m in matches:
        if m["status"] != "finished":
            continue
        side = side_of(m, player)
        won = m["winner"] == side
        games = own_games(m, side)
        complete = games[:-1] if m["outcome"] == "retired" else games
        out["matches"] += 1
        out["wins"] += won
        out["games_won"] += sum(a > b for a, b in complete)
        out["games"] += len(complete)
        out["points_won"] += sum(a for a, _ in games)
        out["points"] += sum(a + b for a, b in games)
        if len(complete) == 3:
            out["deciding"] += 1
            out["deciding_won"] += won
        if m["date"] and dt.date.fromisoformat(m["date"]) >= RALLY_POINT_FROM:
            ext = [(a, b) for a, b in complete if min(a, b) >= 20]
            out["ext"] += len(ext)
            out["ext_won"] += sum(a > b for a, b in ext)
        if complete:
            first_won = complete[0][0] > complete[0][1]
            key = "awf" if first_won else "alf"
            out[key] += 1
            out[key + "_won"] += won
        if m["outcome"] in ("retired", "walkover"):
            out[f"{m['outcome']}_{'won' if won else 'lost'}"] += 1
    return out


def rate(won, played):
    return round(won / played, 4) if played else None


@pytest.mark.parametrize("who", ["busiest", "walkover", "retired"])
async def test_stats_agree_with_the_players_matches(client, db_url, busiest, key, who):
    if who != "busiest":  # the busiest player among those with a walkover (or retirement) on either side
        busiest = sql(
            db_url,
            """
            SELECT p FROM matches m, unnest(m.side1 || m.side2) AS p WHERE m.status = 'finished'
            GROUP BY p HAVING bool_or(m.outcome = $1) ORDER BY count(*) DESC, p LIMIT 1""",
            who,
        )[0]["p"]
    matches = (await walk(client, key, f"/v1/players/{busiest}/matches", 200))[0]
    e = expected_stats(matches, busiest)
    r = await client.get(f"/v1/players/{busiest}/stats", key)
    assert r.status_code == 200
    [s] = r.json_body["data"]
    assert s["player"]["id"] == busiest
    assert s["filters"] == {"discipline": None, "from": None, "to": None}
    assert (s["matches"], s["wins"]) == (e["matches"], e["wins"]) and s["wins"] > 0
    assert s["win_rate"] == rate(e["wins"], e["matches"])
    assert s["game_win_rate"] == rate(e["games_won"], e["games"])
    assert s["point_share"] == rate(e["points_won"], e["points"])
    assert s["deciding_games"] == {
        "played": e["deciding"],
        "won": e["deciding_won"],
        "rate": rate(e["deciding_won"], e["deciding"]),
    }
    assert s["extended_games"] == {"played": e["ext"], "won": e["ext_won"], "rate": rate(e["ext_won"], e["ext"])}
    assert s["after_losing_first_game"] == {
        "played": e["alf"],
        "won": e["alf_won"],
        "rate": rate(e["alf_won"], e["alf"]),
    }
    assert s["after_winning_first_game"] == {
        "played": e["awf"],
        "won": e["awf_won"],
        "rate": rate(e["awf_won"], e["awf"]),
    }
    assert s["retirements"] == {"won": e["retired_won"], "lost": e["retired_lost"]}
    assert s["walkovers"] == {"won": e["walkover_won"], "lost": e["walkover_lost"]}
    if who != "busiest":
        assert sum(s["retirements" if who == "retired" else "walkovers"].values()) > 0
    assert sum(d["matches"] for d in s["by_discipline"].values()) == s["matches"]
    assert sum(d["wins"] for d in s["by_discipline"].values()) == s["wins"]


async def test_stats_wins_equal_won_matches_for_the_same_filters(client, db_url, key):
    # Every (player, year, discipline) with finished matches of three well-travelled players.
    combos = sql(
        db_url,
        """
        WITH top AS (SELECT p FROM matches m, unnest(m.side1 || m.side2) p WHERE m.status = 'finished'
                     GROUP BY p ORDER BY count(*) DESC, p LIMIT 3)
        SELECT DISTINCT top.p, t.year, m.discipline FROM top JOIN matches m ON top.p = ANY(m.side1 || m.side2)
        JOIN tournaments t ON t.id = m.tournament_id WHERE m.status = 'finished' ORDER BY 1, 2, 3 LIMIT 12""",
    )
    assert combos
    for c in combos:
        items = (
            await walk(client, key, f"/v1/players/{c['p']}/matches", 200, year=c["year"], discipline=c["discipline"])
        )[0]
        won = sum(1 for m in items if m["winner"] == side_of(m, c["p"]))
        finished = sum(1 for m in items if m["status"] == "finished")
        r = await client.get(
            f"/v1/players/{c['p']}/stats", key, discipline=c["discipline"], from_=c["year"], to=c["year"]
        )
        [s] = r.json_body["data"]
        assert (s["wins"], s["matches"]) == (won, finished), c
        assert s["filters"] == {"discipline": c["discipline"], "from": c["year"], "to": c["year"]}
        assert list(s["by_discipline"]) == [c["discipline"]]


async def test_stats_of_a_range_add_up_and_an_empty_range_has_no_rates(client, busiest, key):
    years = [m["tournament"]["year"] for m in (await walk(client, key, f"/v1/players/{busiest}/matches", 200))[0]]
    cut = sorted(set(years))[len(set(years)) // 2]
    whole = (await client.get(f"/v1/players/{busiest}/stats", key)).json_body["data"][0]
    early = (await client.get(f"/v1/players/{busiest}/stats", key, to=cut - 1)).json_body["data"][0]
    late = (await client.get(f"/v1/players/{busiest}/stats", key, from_=cut)).json_body["data"][0]
    for field in ("matches", "wins"):
        assert early[field] + late[field] == whole[field]
    empty = (await client.get(f"/v1/players/{busiest}/stats", key, from_=1899, to=1899, discipline="XD")).json_body[
        "data"
    ][0]
    assert empty["matches"] == 0 and empty["win_rate"] is None and empty["deciding_games"]["rate"] is None
    assert empty["by_discipline"] == {}
