"""ops/realism: how the loaded world's play compares with real badminton, and the faults a fan
would see through. One command:

    .venv/bin/python -m ops.realism [--years 2018-2020] [--ours-years 2018-2026]

Reads the world in DATABASE_URL (or the embedded server's default database) and the real BWF
World Tour 2018-2020 (built once into `svc_eval_bwf`, as ops/eval does). For World-Tour-level
matches (Super 100 to 1000 and the Finals) of the years asked, per discipline, side by side
with the real data and the difference (`--ours-years` takes this world's matches from other
years, e.g. every rally-point season, for a sample big enough that noise stays under a point;
the rally statistics come from this world's matches that carry rallies, in whichever years
those are):
- completed matches that went to three games, and how often the first game's winner won;
- games by margin (2, 3-5, 6-10, 11 or more points), games where the loser reached 20 (deuce);
- the server's share of rallies, the longest run of rallies per game, lead changes per game;
- retirements per 1,000 matches; each of the real top 12 nations' share of match appearances.
And over the whole world: player-days in two places (one player in two tournaments on one day),
invented players bearing the name of a real player (any order, case or accent), and pairs of
players of one nation sharing a full name in years both played.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from ops.eval.__main__ import _with_database, world_rows
from svc.core import pgserver
from svc.core.db import connect_asyncio
from svc.core.settings import Settings as ServiceSettings
from svc.world.naming import deny_keys

TOUR_TIERS = ("Super 100", "Super 300", "Super 500", "Super 750", "Super 1000", "World Tour Finals")
TOUR = "(" + ", ".join(f"'{tier}'" for tier in TOUR_TIERS) + ")"  # as an SQL list
DISCIPLINES = ("MS", "WS", "MD", "WD", "XD")

MATCHES = f"""
WITH m AS (
    SELECT m.* FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    WHERE t.tier IN {TOUR} AND t.year BETWEEN $1 AND $2 AND m.status = 'finished'
)
SELECT discipline,
       count(*) FILTER (WHERE outcome = 'played') AS played,
       count(*) FILTER (WHERE outcome = 'played' AND cardinality(g1) = 3) AS three,
       count(*) FILTER (WHERE outcome = 'played' AND ((g1[1] > g2[1]) = (winner = 1))) AS first_wins,
       count(*) FILTER (WHERE outcome = 'retired') AS retired,
       count(*) FILTER (WHERE outcome <> 'walkover') AS rated
FROM m GROUP BY discipline"""

GAMES = f"""
WITH g AS (
    SELECT m.discipline, a.p1, a.p2
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    CROSS JOIN LATERAL unnest(m.g1, m.g2) AS a(p1, p2)
    WHERE t.tier IN {TOUR} AND t.year BETWEEN $1 AND $2 AND m.status = 'finished' AND m.outcome = 'played'
)
SELECT discipline, count(*) AS games,
       count(*) FILTER (WHERE abs(p1 - p2) = 2) AS by2,
       count(*) FILTER (WHERE abs(p1 - p2) BETWEEN 3 AND 5) AS by3_5,
       count(*) FILTER (WHERE abs(p1 - p2) BETWEEN 6 AND 10) AS by6_10,
       count(*) FILTER (WHERE abs(p1 - p2) >= 11) AS by11,
       count(*) FILTER (WHERE least(p1, p2) >= 20) AS deuce
FROM g GROUP BY discipline"""

RALLIES = f"""
WITH r AS (
    SELECT m.discipline, r.match_id, r.game, r.rally, r.server, r.winner, r.score1, r.score2
    FROM rallies r JOIN matches m ON m.id = r.match_id JOIN tournaments t ON t.id = m.tournament_id
    WHERE t.tier IN {TOUR} AND t.year BETWEEN $1 AND $2 AND m.status = 'finished'
), runs AS (
    SELECT discipline, match_id, game, winner,
           rally - row_number() OVER (PARTITION BY match_id, game, winner ORDER BY rally) AS grp
    FROM r
), longest AS (
    SELECT discipline, match_id, game, max(n) AS longest
    FROM (SELECT discipline, match_id, game, grp, winner, count(*) AS n FROM runs
          GROUP BY discipline, match_id, game, grp, winner) x
    GROUP BY discipline, match_id, game
), leads AS (
    SELECT discipline, match_id, game, count(*) FILTER (WHERE prev IS NOT NULL AND lead <> prev) AS changes
    FROM (SELECT discipline, match_id, game, sign(score1 - score2) AS lead,
                 lag(sign(score1 - score2)) OVER (PARTITION BY match_id, game ORDER BY rally) AS prev
          FROM r WHERE score1 <> score2) x  -- level scores are skipped: a change is from one side ahead to the other
    GROUP BY discipline, match_id, game
)
SELECT d.discipline, d.rallies, d.server_won, l.games, l.longest_sum, c.changes_sum
FROM (SELECT discipline, count(*) AS rallies, count(*) FILTER (WHERE server = winner) AS server_won
      FROM r GROUP BY discipline) d
JOIN (SELECT discipline, count(*) AS games, sum(longest) AS longest_sum FROM longest GROUP BY discipline) l
  USING (discipline)
JOIN (SELECT discipline, sum(changes) AS changes_sum FROM leads GROUP BY discipline) c USING (discipline)"""

NATIONS = f"""
SELECT p.country, count(*) AS appearances
FROM matches m JOIN tournaments t ON t.id = m.tournament_id
CROSS JOIN LATERAL unnest(m.side1 || m.side2) AS s(pid)
JOIN players p ON p.id = s.pid
WHERE t.tier IN {TOUR} AND t.year BETWEEN $1 AND $2 AND m.status = 'finished'
GROUP BY p.country"""

TWO_PLACES = """
SELECT count(*) FROM (
    SELECT s.pid, m.day FROM matches m CROSS JOIN LATERAL unnest(m.side1 || m.side2) AS s(pid)
    WHERE m.day IS NOT NULL AND m.tie_id IS NULL
    GROUP BY s.pid, m.day HAVING count(DISTINCT m.tournament_id) > 1
) x"""

NAMESAKES = """
WITH played AS (
    SELECT s.pid, min(t.year) AS first, max(t.year) AS last
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    CROSS JOIN LATERAL unnest(m.side1 || m.side2) AS s(pid)
    GROUP BY s.pid
), span AS (
    SELECT p.id, p.country, lower(unaccent(p.name)) AS name, played.first, played.last
    FROM players p JOIN played ON played.pid = p.id
)
SELECT count(*) FROM span x JOIN span y
  ON x.country = y.country AND x.name = y.name AND x.id < y.id AND x.first <= y.last AND y.first <= x.last"""


async def statistics(
    conn, first: int, last: int, rally_years: tuple[int, int] | None = None
) -> dict[str, dict[str, float | None]]:
    out: dict[str, dict[str, float | None]] = {d: {} for d in DISCIPLINES}

    def share(a, b):
        return None if not b else 100.0 * a / b

    for r in await conn.fetch(MATCHES, first, last):
        d = out.setdefault(r["discipline"], {})
        d["three-game matches %"] = share(r["three"], r["played"])
        d["first-game winner wins %"] = share(r["first_wins"], r["played"])
        d["retirements per 1,000"] = None if not r["rated"] else 1000.0 * r["retired"] / r["rated"]
        d["matches"] = r["played"]
    for r in await conn.fetch(GAMES, first, last):
        d = out.setdefault(r["discipline"], {})
        for col, label in (
            ("by2", "games won by 2 %"),
            ("by3_5", "games won by 3-5 %"),
            ("by6_10", "games won by 6-10 %"),
            ("by11", "games won by 11+ %"),
            ("deuce", "deuce games (loser 20+) %"),
        ):
            d[label] = share(r[col], r["games"])
    for r in await conn.fetch(RALLIES, *(rally_years or (first, last))):
        d = out.setdefault(r["discipline"], {})
        d["server wins the rally %"] = share(r["server_won"], r["rallies"])
        d["longest run per game"] = r["longest_sum"] / r["games"] if r["games"] else None
        d["lead changes per game"] = r["changes_sum"] / r["games"] if r["games"] else None
    return out


async def nations(conn, first: int, last: int) -> dict[str, float]:
    rows = await conn.fetch(NATIONS, first, last)
    total = sum(r["appearances"] for r in rows) or 1
    return {r["country"]: 100.0 * r["appearances"] / total for r in rows}


RALLY_YEARS = f"""
SELECT min(t.year) AS first, max(t.year) AS last
FROM tournaments t WHERE t.tier IN {TOUR} AND t.year BETWEEN $1 AND $2
  AND EXISTS (SELECT 1 FROM matches m JOIN rallies r ON r.match_id = m.id WHERE m.tournament_id = t.id)"""


Statistics = dict[str, dict[str, float | None]]


async def compared(
    world, real, first: int, last: int, ours_years: tuple[int, int]
) -> tuple[Statistics, Statistics, tuple[int, int]]:
    """This world's statistics (of `ours_years`, rallies of the years that have them), the real
    ones of first-last, and the years this world's rallies came from."""
    got = await world.fetchrow(RALLY_YEARS, *ours_years)
    if got["first"] is None:
        got = await world.fetchrow(RALLY_YEARS, 2006, 9999)  # rally point (from Aug 2006) in any year
    rally_years = (got["first"], got["last"]) if got["first"] is not None else ours_years
    ours = await statistics(world, *ours_years, rally_years=rally_years)
    theirs = await statistics(real, first, last)
    return ours, theirs, rally_years


# The shares the match level is held to (within GAP_LIMIT points of the real World Tour): three
# games, comebacks (the first game's winner losing), margins, deuce and the server's share.
GAP_LIMIT = 2.0


def largest_gap(ours: Statistics, theirs: Statistics) -> tuple[int, int, float, str]:
    """(shares within GAP_LIMIT, shares compared, the largest gap in points, where it is)."""
    gaps = [
        (abs(a - b), f"{label}, {d}")
        for d in DISCIPLINES
        for label, b in theirs.get(d, {}).items()
        if label.endswith("%") and b is not None and (a := ours.get(d, {}).get(label)) is not None
    ]
    worst = max(gaps, default=(0.0, "-"))
    return sum(g <= GAP_LIMIT for g, _ in gaps), len(gaps), worst[0], worst[1]


async def report(world_url: str, real_url: str, first: int, last: int, ours_years: tuple[int, int]) -> str:
    world = await connect_asyncio(world_url)
    real = await connect_asyncio(real_url)
    try:
        ours, theirs, rally_years = await compared(world, real, first, last, ours_years)
        our_nations, real_nations = await nations(world, first, last), await nations(real, first, last)
        real_names = {k for r in await real.fetch("SELECT name FROM players") for k in deny_keys(r["name"])}
        invented = [
            r["name"]
            for r in await world.fetch("SELECT name FROM players")
            if not deny_keys(r["name"]).isdisjoint(real_names)
        ]
        source = await world.fetchval("SELECT value FROM world_meta WHERE key = 'source'")
        two_places = await world.fetchval(TWO_PLACES)
        namesakes = await world.fetchval(NAMESAKES)
    finally:
        await world.close()
        await real.close()
    lines = [
        f"# Realism: World-Tour-level matches, this world {ours_years[0]}-{ours_years[1]} (rallies "
        f"{rally_years[0]}-{rally_years[1]}) against the real one {first}-{last}",
        "",
    ]
    labels = [label for d in theirs.values() for label in d if label != "matches"]
    labels = list(dict.fromkeys(labels))
    lines += [
        "| statistic | " + " | ".join(f"{d} ours / real / diff" for d in DISCIPLINES) + " |",
        "|---|" + "---|" * len(DISCIPLINES),
    ]
    for label in ["matches", *labels]:
        cells = []
        for d in DISCIPLINES:
            a, b = ours.get(d, {}).get(label), theirs.get(d, {}).get(label)
            if a is None or b is None:
                cells.append(f"{'-' if a is None else f'{a:.1f}'} / {'-' if b is None else f'{b:.1f}'} / -")
            else:
                cells.append(f"{a:.1f} / {b:.1f} / {a - b:+.1f}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += ["", "| nation (real top 12) | ours % | real % | diff |", "|---|---:|---:|---:|"]
    for code, real_share in sorted(real_nations.items(), key=lambda kv: -kv[1])[:12]:
        mine = our_nations.get(code, 0.0)
        lines.append(f"| {code} | {mine:.1f} | {real_share:.1f} | {mine - real_share:+.1f} |")
    lines += ["", f"- player-days in two places (two tournaments on one day): {two_places}"]
    if source != "bwf":
        lines.append(
            f"- invented players bearing a real player's name: {len(invented)}"
            + (f" (e.g. {', '.join(invented[:8])})" if invented else "")
        )
    lines.append(f"- pairs of players of one nation sharing a full name in years both played: {namesakes}")
    return "\n".join(lines)


async def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m ops.realism", description=__doc__.split("\n\n")[0])
    ap.add_argument("--years", default="2018-2020", help="first-last year of the real matches compared")
    ap.add_argument("--ours-years", help="first-last year of this world's matches (default: --years)")
    args = ap.parse_args(argv)
    first, last = (int(x) for x in args.years.split("-"))
    a, b = (int(x) for x in (args.ours_years or args.years).split("-"))
    settings = ServiceSettings.from_env()
    server_url = pgserver.start(settings.home) if settings.database_url is None else None
    world_url = settings.database_url or server_url
    base = settings.database_url or server_url
    _rows, conn = await world_rows(base, "real")  # builds svc_eval_bwf once
    await conn.close()

    print(await report(world_url, _with_database(base, "svc_eval_bwf"), first, last, (a, b)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
