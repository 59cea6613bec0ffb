"""Who wins: the share of doubles titles won by a pair of two nations, and on the World Tour of
2018-2020 per discipline how much of the titles the ten most winning players (or pairs) take and
each nation's share of the titles, this world beside the real one."""

from __future__ import annotations

from collections import Counter

from ops.realism.__main__ import DISCIPLINES, TOUR_TIERS
from ops.realism.careers import DOUBLES, SINGLES, TITLES
from ops.realism.figures import Figure, Section, at_most, percent, shown

TITLES_WITH_NATIONS = f"""
WITH titles AS ({TITLES})
SELECT titles.year, titles.series, titles.tier, titles.discipline, titles.side,
       ARRAY(SELECT p.country FROM players p WHERE p.id = ANY(titles.side) AND p.country IS NOT NULL
             ORDER BY p.country) AS nations
FROM titles"""

WORLD_TOUR_YEARS = (2018, 2020)
TOP = 10
SHARE_GAP = 12.0  # points: the issue asks for concentration and nations' shares within 10-12 points of real
SHOWN_SHARE = 5.0  # a nation is listed where it holds at least this share of a discipline's titles in either world


async def titles_with_nations(conn) -> list:
    return list(await conn.fetch(TITLES_WITH_NATIONS))


def two_nation_pairs(titles: list, since: int, series: str | None = None) -> tuple[int, int]:
    """(doubles titles won by a pair of two nations, doubles titles whose pair is known) from `since`."""
    pairs = [
        t
        for t in titles
        if t["discipline"] in DOUBLES
        and t["year"] >= since
        and len(t["side"]) == 2
        and (series is None or t["series"] == series)
    ]
    return sum(len(set(t["nations"])) > 1 for t in pairs), len(pairs)


def world_tour(titles: list) -> list:
    first, last = WORLD_TOUR_YEARS
    return [t for t in titles if t["tier"] in TOUR_TIERS and first <= t["year"] <= last]


def top_share(titles: list, discipline: str) -> float | None:
    """The share of a discipline's titles the TOP most winning sides took: players in singles,
    pairs in doubles (a doubles title is a pair's; a fan's top ten of doubles are pairs)."""
    won = Counter(frozenset(t["side"]) for t in titles if t["discipline"] == discipline)
    return percent(sum(n for _, n in won.most_common(TOP)), sum(won.values()))


def nation_of(nations: list[str]) -> str:
    """A side's nation; a pair of two nations is named by both ("ENG/SCO")."""
    return "/".join(sorted(set(nations))) or "?"


def nation_shares(titles: list, discipline: str) -> dict[str, float]:
    won = Counter(nation_of(t["nations"]) for t in titles if t["discipline"] == discipline)
    total = sum(won.values())
    return {nation: 100.0 * n / total for nation, n in won.items()}


def largest_nation_gap(ours: dict[str, float], theirs: dict[str, float]) -> tuple[float, str]:
    gaps = [(ours.get(n, 0.0) - theirs.get(n, 0.0), n) for n in ours.keys() | theirs.keys()]
    gap, nation = max(gaps, key=lambda g: (abs(g[0]), g[1]), default=(0.0, "-"))
    return gap, nation


async def two_nations(world, real) -> Section:
    ours, theirs = await titles_with_nations(world), await titles_with_nations(real)
    mixed, known = two_nation_pairs(ours, 1990)
    real_mixed, real_known = two_nation_pairs(theirs, 1990)
    olympic_mixed, olympic_known = two_nation_pairs(ours, 1990, "olympic-games")
    share, real_share = percent(mixed, known), percent(real_mixed, real_known)
    return Section(
        "Pairs of two nations",
        (
            Figure(
                "doubles titles since 1990 won by a two-nation pair",
                f"{shown(share, unit=' %')} ({mixed} of {known})",
                f"{shown(real_share, unit=' %')} ({real_mixed} of {real_known})",
                "≤ 1 %",
                at_most(share, 1.0),
            ),
            Figure("of them, Olympic doubles golds", f"{olympic_mixed} of {olympic_known}", "-", "-", None),
        ),
        notes=(
            "- Real: the World Tour 2018-2020's finals (pairs whose partner the importer could not rebuild left out).",
        ),
    )


async def world_tour_titles(world, real) -> Section:
    ours, theirs = world_tour(await titles_with_nations(world)), world_tour(await titles_with_nations(real))
    figures, shares = [], {}
    for d in DISCIPLINES:
        mine, real_top = top_share(ours, d), top_share(theirs, d)
        gap = None if mine is None or real_top is None else mine - real_top
        figures.append(
            Figure(
                f"{d}: the top {TOP} {'players' if d in SINGLES else 'pairs'}' share of titles",
                f"{shown(mine, unit=' %')} ({sum(t['discipline'] == d for t in ours)} titles)",
                f"{shown(real_top, unit=' %')} ({sum(t['discipline'] == d for t in theirs)} titles)",
                f"within {SHARE_GAP:g} points",
                None if gap is None else abs(gap) <= SHARE_GAP,
            )
        )
        shares[d] = (nation_shares(ours, d), nation_shares(theirs, d))
        nation_gap, nation = largest_nation_gap(*shares[d])
        figures.append(
            Figure(
                f"{d}: largest gap in a nation's share of titles",
                f"{nation_gap:+.1f} points ({nation})",
                "-",
                f"within {SHARE_GAP:g} points",
                abs(nation_gap) <= SHARE_GAP,
            )
        )
    first, last = WORLD_TOUR_YEARS
    return Section(
        f"World Tour titles {first}-{last}: concentration and nations",
        tuple(figures),
        notes=(
            "- The top 10 are the ten players (singles) or pairs (doubles) with the most titles of the "
            "discipline. Real: the finals of the real World Tour files as the importer reads them "
            "(a retirement's winner from the draw, side two's partner rebuilt: every final's "
            "winning pair is known).",
            "",
            *nation_table(shares),
        ),
    )


def nation_table(shares: dict[str, tuple[dict[str, float], dict[str, float]]]) -> list[str]:
    """Each nation's share of titles, this world / real, where either holds SHOWN_SHARE or more."""
    nations = sorted(
        {n for ours, theirs in shares.values() for n, s in (*ours.items(), *theirs.items()) if s >= SHOWN_SHARE}
    )
    lines = ["| nation | " + " | ".join(f"{d} ours / real" for d in shares) + " |", "|---|" + "---:|" * len(shares)]
    for n in nations:
        cells = [f"{ours.get(n, 0.0):.0f} / {theirs.get(n, 0.0):.0f}" for ours, theirs in shares.values()]
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return lines
