"""Venues as real series keep them: an open stays in a hall for runs of years, and a hall is used
only in the years it stood under that name. Counts, for each great open, the editions that move to
another venue than the previous edition's and go back to one used within the ten years before (a
flip and back, which real series rarely do), and the editions played in a venue outside its years
where the world's facts give venues years."""

from __future__ import annotations

import csv
from pathlib import Path

from ops.realism.figures import Figure, Section, at_most, percent, shown

VENUE_FACTS = Path(__file__).resolve().parents[2] / "svc" / "world" / "data" / "venues.csv"
RETURN_WITHIN = 10  # years
RARE = 2.0  # per cent of consecutive editions: this tool's reading of the "rare"

# The great opens: the series that were Grand Prix or Superseries events (the open era's circuit),
# with the venue of every edition that has one, oldest first.
GREAT_OPEN_VENUES = """
WITH opens AS (
    SELECT DISTINCT series FROM tournaments
    WHERE tier IN ('Grand Prix', 'Grand Prix Gold', 'Superseries', 'Superseries Premier')
)
SELECT t.series, t.year, v.name AS venue, c.name AS city
FROM tournaments t JOIN opens USING (series) JOIN venues v ON v.id = t.venue_id JOIN cities c ON c.id = v.city_id
WHERE NOT t.cancelled ORDER BY t.series, t.year"""

# The year columns venues.csv gives a hall's name (first and last year whose editions carry it).
FIRST_YEAR_COLUMNS, LAST_YEAR_COLUMNS = (
    ("from_year", "from", "opened", "first_year"),
    ("to_year", "until", "closed", "last_year"),
)


def returns(years_and_venues: list[tuple[int, str]]) -> int:
    """Editions whose venue differs from the previous edition's and was used within RETURN_WITHIN
    years before that (a flip away and back)."""
    count = 0
    for i in range(1, len(years_and_venues)):
        year, venue = years_and_venues[i]
        if venue == years_and_venues[i - 1][1]:
            continue
        count += any(v == venue and year - y <= RETURN_WITHIN for y, v in years_and_venues[: i - 1])
    return count


def venue_years(path: Path = VENUE_FACTS) -> dict[tuple[str, str], list[tuple[int | None, int | None]]] | None:
    """(city, venue) -> the (first year, last year) periods of that name (a hall may carry one name
    twice: K.B. Hallen before its fire and after its rebuilding); None when the file gives venues
    no years."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    columns = set(rows[0]) if rows else set()
    first = next((c for c in FIRST_YEAR_COLUMNS if c in columns), None)
    last = next((c for c in LAST_YEAR_COLUMNS if c in columns), None)
    if first is None and last is None:
        return None

    def year(r, column):
        return int(r[column]) if column and (r.get(column) or "").strip() else None

    out: dict[tuple[str, str], list[tuple[int | None, int | None]]] = {}
    for r in rows:
        out.setdefault((r["city"], r["name"]), []).append((year(r, first), year(r, last)))
    return out


def outside_years(rows: list, years: dict[tuple[str, str], list[tuple[int | None, int | None]]]) -> list[str]:
    out = []
    for r in rows:
        periods = years.get((r["city"], r["venue"]), [(None, None)])
        if not any(
            (first is None or r["year"] >= first) and (last is None or r["year"] <= last) for first, last in periods
        ):
            shown_periods = ", ".join(f"{first or ''}-{last or ''}" for first, last in periods)
            out.append(f"{r['series']} {r['year']} in {r['venue']} ({shown_periods})")
    return out


async def venue_runs(world) -> Section:
    rows = await world.fetch(GREAT_OPEN_VENUES)
    by_series: dict[str, list[tuple[int, str]]] = {}
    for r in rows:
        by_series.setdefault(r["series"], []).append((r["year"], f"{r['venue']}, {r['city']}"))
    flips = {s: returns(v) for s, v in by_series.items()}
    pairs = sum(len(v) - 1 for v in by_series.values())
    share = percent(sum(flips.values()), pairs)
    years = venue_years()
    outside = outside_years(rows, years) if years is not None else None
    return Section(
        "Venue runs of the great opens",
        (
            Figure(
                f"editions flipping to another venue and back within {RETURN_WITHIN} years",
                f"{sum(flips.values())} of {pairs} ({shown(share, unit=' %')})",
                "-",
                f"rare (≤ {RARE:g} %)",
                at_most(share, RARE),
            ),
            Figure(
                "editions in a venue outside its years",
                "n/a" if outside is None else shown(len(outside)),
                "-",
                "0",
                None if outside is None else at_most(len(outside), 0),
            ),
        ),
        notes=(
            f"- Great opens: the series that were Grand Prix or Superseries events ({len(by_series)}). "
            "Flips by series: " + (", ".join(f"{s} {n}" for s, n in sorted(flips.items()) if n) or "none") + ".",
            "- Venues' years: "
            + (
                "svc/world/data/venues.csv gives venues no years (n/a)."
                if outside is None
                else "; ".join(outside[:12]) or "every edition within its venue's years."
            )
            + " The real data holds no venues.",
        ),
    )
