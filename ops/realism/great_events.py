"""The great events (World Championships, Olympics, Thomas, Uber and Sudirman Cups) as a fan knows
them: the world's best enter them, no World Tour event (or Grand Prix, Superseries before it) is
played in their days, and their champions are of the nations on record."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from ops.realism.__main__ import DISCIPLINES, TOUR_TIERS
from ops.realism.figures import Figure, Section, at_least, at_most, percent, shown
from ops.realism.record import FAMILIES, OLYMPICS, TEAM, TEAM_EVENTS, WORLDS, Champion, champions

GREAT_SERIES = [WORLDS, OLYMPICS, *TEAM_EVENTS]
# The circuits a top player plays between the great events, of every era that has tiers.
CIRCUIT_TIERS = [
    *TOUR_TIERS,
    "Grand Prix",
    "Grand Prix Gold",
    "Superseries",
    "Superseries Premier",
    "Superseries Finals",
]
TOP = 10
SINCE = 2008
RECORD_SHARE = 90.0  # per cent of the record's champions a world must match (the issue: every one, ideally)
# Malaya won the first three Thomas Cups; the record writes MAS, and a world that knows Malaya may
# name it so (the record's README). IOC wrote Malaya MAL.
SAME_NATION = {"MAS": {"MAS", "MAL"}}

# The world top TOP of each discipline in the list in force before each World Championships and
# Olympics from $1 (the latest week before the first day), and how many of them are in its draw (a
# pair counts when it plays together). An edition before the first list has no ranked row (week NULL).
TOP_AT_GREAT_EVENTS = """
WITH editions AS (
    SELECT t.id, t.series, t.year, t.start_date FROM tournaments t
    WHERE t.series IN ('world-championships', 'olympic-games') AND t.year >= $1 AND NOT t.cancelled AND NOT t.para
      AND EXISTS (SELECT 1 FROM matches m WHERE m.tournament_id = t.id AND m.status = 'finished')
), lists AS (
    SELECT e.id, e.series, e.year, d.discipline,
           (SELECT max(r.week) FROM rankings r WHERE r.discipline = d.discipline AND r.week < e.start_date) AS week
    FROM editions e CROSS JOIN unnest($2::text[]) AS d(discipline)
), top AS (
    SELECT l.*, r.rank, array_remove(ARRAY[r.player1, r.player2], NULL) AS ranked
    FROM lists l LEFT JOIN rankings r ON r.discipline = l.discipline AND r.week = l.week AND r.rank <= $3
)
SELECT series, year, discipline, week, count(rank) AS ranked,
       count(rank) FILTER (WHERE EXISTS (
           SELECT 1 FROM matches m WHERE m.tournament_id = top.id AND m.discipline = top.discipline
             AND m.sport_class IS NULL AND (m.side1 @> top.ranked OR m.side2 @> top.ranked))) AS present
FROM top GROUP BY series, year, discipline, week ORDER BY year, series, discipline"""

# Circuit editions sharing a day with a great event. The real calendar's series carry sponsors'
# names ("totalenergies-world-championships"), so its great events are told by their names; its
# "BWF Test Tournament" rows (March to December, graded) are placeholders, not events.
CLASHES = """
WITH great AS (
    SELECT id, name, start_date, end_date FROM tournaments
    WHERE NOT cancelled AND level = 'senior' AND NOT para AND start_date IS NOT NULL
      AND (series = ANY($1::text[])
           OR (name ~* '(world championships|olympic games|thomas|uber|sudirman)'
               AND name !~* '(senior|junior|university|para|test)'))
)
SELECT t.name, t.start_date, t.end_date, string_agg(DISTINCT g.name, ' & ') AS great
FROM tournaments t JOIN great g ON t.start_date <= g.end_date AND g.start_date <= t.end_date
WHERE t.tier = ANY($2::text[]) AND NOT t.cancelled AND t.name !~* 'test tournament'
GROUP BY t.id, t.name, t.start_date, t.end_date ORDER BY t.start_date"""

# The champion nation(s) of each edition of the five families: the final tie's winner, or the
# nations of the side that won the final.
CHAMPIONS = """
SELECT t.series, t.year, 'team' AS discipline, ARRAY[CASE ti.winner WHEN 1 THEN ti.team1 ELSE ti.team2 END] AS nations
FROM ties ti JOIN tournaments t ON t.id = ti.tournament_id
WHERE ti.round_code = 'F' AND ti.winner IS NOT NULL AND t.series = ANY($1::text[])
UNION ALL
SELECT t.series, t.year, m.discipline,
       ARRAY(SELECT p.country FROM players p
             WHERE p.id = ANY(CASE m.winner WHEN 1 THEN m.side1 ELSE m.side2 END) AND p.country IS NOT NULL)
FROM matches m JOIN tournaments t ON t.id = m.tournament_id
WHERE m.round_code = 'F' AND m.winner IS NOT NULL AND m.status = 'finished' AND m.tie_id IS NULL
  AND m.sport_class IS NULL AND NOT t.para AND t.series = ANY($2::text[])"""


async def top_at_great_events(conn) -> list:
    return list(await conn.fetch(TOP_AT_GREAT_EVENTS, SINCE, list(DISCIPLINES), TOP))


async def clashes(conn) -> list:
    return list(await conn.fetch(CLASHES, GREAT_SERIES, CIRCUIT_TIERS))


async def world_champions(conn) -> dict[tuple[str, int, str], set[str]]:
    """(series, label year, discipline or TEAM) -> the champion's nation(s)."""
    out: dict[tuple[str, int, str], set[str]] = defaultdict(set)
    for r in await conn.fetch(CHAMPIONS, list(TEAM_EVENTS), [OLYMPICS, WORLDS]):
        out[(r["series"], r["year"], r["discipline"])].update(r["nations"])
    return out


def agrees(champion: Champion, nations: set[str]) -> bool:
    return bool(SAME_NATION.get(champion.nation, {champion.nation}) & nations)


async def top_players_present(world) -> Section:
    rows = await top_at_great_events(world)
    listed = [r for r in rows if r["week"] is not None and r["ranked"]]
    unlisted = sorted({f"{r['series']} {r['year']}" for r in rows if r["week"] is None or not r["ranked"]})
    mean = sum(r["present"] for r in listed) / len(listed) if listed else None
    worst = min(listed, key=lambda r: (r["present"], r["year"], r["series"], r["discipline"]), default=None)
    worst_text = f"{worst['present']} ({worst['series']} {worst['year']} {worst['discipline']})" if worst else "-"
    missing = [f"{r['series']} {r['year']} {r['discipline']}: {r['present']}" for r in listed if r["present"] < 8]
    return Section(
        f"The world top {TOP} at each World Championships and Olympics since {SINCE}",
        (
            Figure(f"top {TOP} in the draw, mean per discipline", shown(mean, 2), "-", "≥ 8", at_least(mean, 8)),
            Figure(f"top {TOP} in the draw, worst", worst_text, "-", "-", None),
            Figure("editions x disciplines measured", shown(len(listed)), "-", "-", None),
        ),
        notes=(
            "- The list in force is the latest before the first day; a pair counts when it plays together. "
            "The real data holds no World Championships or Olympics.",
            f"- No list before them (not measured): {', '.join(unlisted) or 'none'}.",
            f"- Fewer than 8 of the top {TOP}: {'; '.join(missing) or 'none'}.",
        ),
    )


async def clash_section(world, real) -> Section:
    ours, theirs = await clashes(world), await clashes(real)
    listed = "; ".join(f"{r['name']} ({r['start_date']}) with {r['great']}" for r in ours[:12])
    more = f" and {len(ours) - 12} more" if len(ours) > 12 else ""
    return Section(
        "Circuit events in the great events' days",
        (
            Figure(
                "World Tour / Grand Prix / Superseries editions sharing a day with a great event",
                shown(len(ours)),
                shown(len(theirs)),
                "0",
                at_most(len(ours), 0),
            ),
        ),
        notes=(
            "- Great events: World Championships, Olympics, Thomas, Uber and Sudirman Cups. Real: the BWF "
            "calendar of 2022-2024 (the 2018-2020 match files hold no great event).",
            f"- This world's: {listed or 'none'}{more}.",
        ),
    )


async def record_section(world, record_folder: Path) -> Section:
    ours = await world_champions(world)
    figures, notes = [], []
    record = champions(record_folder)
    for family in FAMILIES:
        on_record = [c for c in record if c.event == family]
        wrong = [c for c in on_record if not agrees(c, ours.get((c.event, c.year, c.discipline), set()))]
        matched = len(on_record) - len(wrong)
        share = percent(matched, len(on_record))
        figures.append(
            Figure(
                f"{family}: champions' nations as on record",
                f"{matched} of {len(on_record)} ({shown(share, 0, ' %')})",
                f"{len(on_record)} on record",
                f"≥ {RECORD_SHARE:g} %",
                at_least(share, RECORD_SHARE),
            )
        )
        if wrong:
            notes.append(
                f"- {family} (record → this world): "
                + ", ".join(
                    f"{c.year}{'' if c.discipline == TEAM else ' ' + c.discipline} {c.nation}→"
                    f"{'/'.join(sorted(ours.get((c.event, c.year, c.discipline), ()))) or 'none'}"
                    for c in wrong
                )
            )
    return Section("Champions' nations against the public record", tuple(figures), notes=tuple(notes))
