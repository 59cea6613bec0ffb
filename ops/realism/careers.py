"""Careers as a fan reads them: the most titles in a career and in a season, the most matches in a
year, and how many players today's top 20s share between disciplines.

A title is a final won in an individual senior event: team ties, juniors and para are not titles
(`TITLES`, shared with ops/realism.winners). The real data holds the World Tour of 2018-2020 only,
so its career and season figures are those of three seasons of one tier: a floor for the real
game, beside the real greats' figures the targets come from (66-69 career titles, about 11 in a
season, about 96 matches in a year)."""

from __future__ import annotations

from ops.realism.figures import Figure, Section, at_most, shown

SINGLES, DOUBLES = ("MS", "WS"), ("MD", "WD", "XD")

# Every title of a world: the winning side of each final of an individual senior event.
TITLES = """
SELECT m.id, t.year, t.series, t.tier, m.discipline, m.day,
       CASE m.winner WHEN 1 THEN m.side1 ELSE m.side2 END AS side
FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE m.round_code = 'F' AND m.winner IS NOT NULL AND m.status = 'finished' AND m.tie_id IS NULL
  AND t.level = 'senior' AND NOT t.para AND NOT t.team AND m.sport_class IS NULL"""

MOST_TITLES = f"""
WITH titles AS ({TITLES}), won AS (
    SELECT s.pid, count(*) AS titles FROM titles CROSS JOIN LATERAL unnest(titles.side) AS s(pid) GROUP BY s.pid
)
SELECT p.name, p.country, won.titles FROM won JOIN players p ON p.id = won.pid
ORDER BY won.titles DESC, p.name LIMIT 1"""

MOST_TITLES_IN_A_SEASON = f"""
WITH titles AS ({TITLES}), won AS (
    SELECT s.pid, titles.year, count(*) AS titles
    FROM titles CROSS JOIN LATERAL unnest(titles.side) AS s(pid) GROUP BY s.pid, titles.year
)
SELECT p.name, p.country, won.year, won.titles FROM won JOIN players p ON p.id = won.pid
ORDER BY won.titles DESC, won.year, p.name LIMIT 1"""

# Matches played (a walkover is not played), team ties included, by the calendar year of the day
# played (an edition played late, as Tokyo 2020 in 2021, counts in the year it was played).
MOST_MATCHES_IN_A_YEAR = """
WITH played AS (
    SELECT s.pid, coalesce(extract(year FROM m.day)::int, t.year) AS year, count(*) AS matches
    FROM matches m JOIN tournaments t ON t.id = m.tournament_id
    CROSS JOIN LATERAL unnest(m.side1 || m.side2) AS s(pid)
    WHERE m.status = 'finished' AND m.outcome <> 'walkover'
    GROUP BY 1, 2
)
SELECT p.name, p.country, played.year, played.matches FROM played JOIN players p ON p.id = played.pid
ORDER BY played.matches DESC, played.year, p.name LIMIT 1"""

# Today's top 20 of each discipline: the latest list of each (ties at 20 included).
TOP_20_TODAY = """
WITH latest AS (SELECT discipline, max(week) AS week FROM rankings GROUP BY discipline)
SELECT r.discipline, r.week, s.pid
FROM rankings r JOIN latest USING (discipline, week)
CROSS JOIN LATERAL unnest(array_remove(ARRAY[r.player1, r.player2], NULL)) AS s(pid)
WHERE r.rank <= 20"""


def _who(row) -> str:
    return f"{row['name']} ({row['country']})"


async def most_titles(conn) -> tuple[int | None, str]:
    row = await conn.fetchrow(MOST_TITLES)
    return (row["titles"], _who(row)) if row else (None, "-")


async def most_titles_in_a_season(conn) -> tuple[int | None, str]:
    row = await conn.fetchrow(MOST_TITLES_IN_A_SEASON)
    return (row["titles"], f"{_who(row)}, {row['year']}") if row else (None, "-")


async def most_matches_in_a_year(conn) -> tuple[int | None, str]:
    row = await conn.fetchrow(MOST_MATCHES_IN_A_YEAR)
    return (row["matches"], f"{_who(row)}, {row['year']}") if row else (None, "-")


async def top_20_overlaps(conn) -> tuple[int, int, str]:
    """(players in a singles and a doubles top 20, players in two doubles top 20s, the week)."""
    events: dict[str, set[str]] = {}
    weeks = set()
    for r in await conn.fetch(TOP_20_TODAY):
        events.setdefault(r["pid"], set()).add(r["discipline"])
        weeks.add(r["week"])
    singles_and_doubles = sum(bool(e & set(SINGLES)) and bool(e & set(DOUBLES)) for e in events.values())
    two_doubles = sum(len(e & set(DOUBLES)) >= 2 for e in events.values())
    week = ", ".join(str(w) for w in sorted(weeks)) or "-"
    return singles_and_doubles, two_doubles, week


async def careers(world, real) -> Section:
    titles, who = await most_titles(world)
    real_titles, real_who = await most_titles(real)
    season, season_who = await most_titles_in_a_season(world)
    real_season, real_season_who = await most_titles_in_a_season(real)
    matches, matches_who = await most_matches_in_a_year(world)
    real_matches, real_matches_who = await most_matches_in_a_year(real)
    return Section(
        "Careers: titles and workloads",
        (
            Figure("most career titles", shown(titles), shown(real_titles), "≤ 75", at_most(titles, 75)),
            Figure("most titles in one season", shown(season), shown(real_season), "≤ 12", at_most(season, 12)),
            Figure(
                "most matches played in one year", shown(matches), shown(real_matches), "≤ 100", at_most(matches, 100)
            ),
        ),
        notes=(
            f"- Titles: finals won in individual senior events (no team ties, juniors or para). "
            f"This world's most: {who}; in a season: {season_who}; matches: {matches_who}.",
            f"- Real: the World Tour 2018-2020 only (three seasons, one tier): {real_who}; "
            f"in a season: {real_season_who}; matches: {real_matches_who}.",
        ),
    )


async def top_20s(world, real) -> Section:
    both, two_doubles, week = await top_20_overlaps(world)
    real_both, real_two_doubles, real_week = await top_20_overlaps(real)
    return Section(
        "Today's top 20s: players in more than one discipline",
        (
            Figure("players in a singles and a doubles top 20", shown(both), shown(real_both), "0", at_most(both, 0)),
            Figure(
                "players in two doubles top 20s",
                shown(two_doubles),
                shown(real_two_doubles),
                "≤ 6",
                at_most(two_doubles, 6),
            ),
        ),
        notes=(f"- The latest list of each discipline: this world {week}; real {real_week}.",),
    )
