"""The hall an edition is played in (HallPicker): a series' hall on record (series_halls.csv), else
the one it used the year before while that hall stands, else one of the host city's halls standing
that year; a hall carries its name of each year (venues.csv)."""

from __future__ import annotations

import attrs

from svc.world import facts
from svc.world.generate.ids import sub_rng


@attrs.frozen
class Hall:
    city: str
    hall: str
    periods: tuple[tuple[int | None, int | None, str], ...]  # (from year, to year, name), in order

    def stands(self, year: int) -> bool:
        return self.name_in(year) is not None

    def name_in(self, year: int) -> str | None:
        for first, last, name in self.periods:
            if (first is None or first <= year) and (last is None or year <= last):
                return name
        return None


def halls_by_city() -> dict[str, list[Hall]]:
    periods: dict[tuple[str, str], list[tuple[int | None, int | None, str]]] = {}
    for h in facts.HALL_NAMES:
        periods.setdefault((h.city, h.hall), []).append((h.from_year, h.to_year, h.name))
    out: dict[str, list[Hall]] = {}
    for (city, hall), ps in periods.items():
        out.setdefault(city, []).append(Hall(city, hall, tuple(ps)))
    return out


HALLS = halls_by_city()


class HallPicker:
    """Each series' hall, year by year (editions are asked for in order of year): its hall on
    record, else the one it had the year before while that hall stands (no flipping to another
    and back), else one of the city's halls standing that year."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.last: dict[tuple[str, str], Hall] = {}

    def pick(self, series: facts.Series, year: int, city: str) -> Hall | None:
        halls = HALLS.get(city, [])
        for sh in facts.SERIES_HALLS:
            if sh.series == series.slug and sh.city == city and sh.from_year <= year <= (sh.to_year or year):
                hall = next(h for h in halls if h.hall == sh.hall)
                self.last[(series.slug, city)] = hall
                return hall
        kept = self.last.get((series.slug, city))
        if kept is not None and kept.stands(year):
            return kept
        standing = [h for h in halls if h.stands(year)]
        if not standing:
            return None
        hall = standing[sub_rng(self.seed, "hall", series.slug, city, year).randrange(len(standing))]
        self.last[(series.slug, city)] = hall
        return hall
