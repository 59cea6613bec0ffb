"""Players: birth cohorts whose strength rises, peaks and falls with age, nations strong by
era, and doubles partnerships that persist and break; names by the nation's conventions
(svc.world.naming)."""

from __future__ import annotations

import datetime as dt
from typing import Callable

from svc.world import facts
from svc.world.generate.ids import make_id, slugify, sub_rng
from svc.world.generate.scales import Scale
from svc.world.naming import Namer

FIRST_SEASON = 1895        # partnerships are formed from here on
MIN_START_AGE = 16         # the youngest a player starts (start_age is drawn from 16 to 19)
JUNIOR_FROM_AGE = 14       # juniors play from 14 (People.active)
FIRST_BORN = FIRST_SEASON - 46  # the oldest cohort any season reaches (active: ages up to 46)
# the cohorts of one birth year, in the order they are made
COHORT_KINDS = (("senior", "M"), ("senior", "W"), ("para", "M"), ("para", "W"))
ONE_DAY = dt.timedelta(days=1)


class Player:
    __slots__ = ("idx", "id", "name", "gender", "country", "born_year", "born", "hand", "height", "coach",
                 "sport_class", "peak", "peak_age", "start_age", "end_age", "kind", "used")

    def strength(self, year: int) -> float:
        """Strength in `year`: rises to the player's peak (at 24 to 29), then falls."""
        age = year - self.born_year
        return self.peak - 1.6 * (age - self.peak_age) ** 2

    def row(self) -> tuple:
        """The players row (strength: the peak, as stored)."""
        return (self.id, self.name, slugify(self.name), self.country, self.gender, self.born, self.hand, self.height,
                self.coach, self.sport_class, round(self.peak, 1))


class People:
    """Birth cohorts of players, created lazily and deterministically per (kind, gender, year)."""

    def __init__(self, seed: int, scale: Scale):
        self.seed = seed
        self.scale = scale
        self.cohorts: dict[tuple[str, str, int], list[Player]] = {}
        self.all: list[Player] = []
        self.names = Namer()
        self._made_through = FIRST_BORN - 1  # cohorts are made year by year up to here
        self._active: dict[tuple[str, str, int], list[Player]] = {}
        self._pairs: dict[tuple[str, int], list[tuple[Player, Player]]] = {}
        # who plays where: player idx -> {each day of an edition entered, and the ISO week it starts
        # in: that edition's id}, so that nobody is in two places on one day or enters two events
        # starting in one week (looked up by day and week: players enter hundreds of editions)
        self.booked: dict[int, dict[object, str]] = {}

    def cohort(self, kind: str, gender: str, year: int) -> list[Player]:
        key = (kind, gender, year)
        got = self.cohorts.get(key)
        if got is not None:
            return got
        # Cohorts are made in one order (by birth year, then COHORT_KINDS) whatever order they
        # are asked for: a name is unique in its nation among the players active at the same
        # time, so a cohort's names depend on every earlier cohort, and the generator (which
        # asks as its calendar needs) and the live feed (which warms all) must agree.
        while self._made_through < year:
            self._made_through += 1
            for k, g in COHORT_KINDS:
                self._make(k, g, self._made_through)
        return self.cohorts.get(key) or self._make(kind, gender, year)

    def _make(self, kind: str, gender: str, year: int) -> list[Player]:
        key = (kind, gender, year)
        rng = sub_rng(self.seed, "cohort", kind, gender, year)
        base = self.scale.para_cohort if kind == "para" else self.scale.cohort
        # fewer players in the early decades, the full count once the sport spread (1960s on)
        size = max(2, round(base * (0.5 if year < 1930 else 0.7 if year < 1955 else 1.0)))
        if kind == "para" and year < 1950:
            size = 0
        # nations strong when the cohort peaks, and present by the time it starts playing (16)
        nations = tuple((c, st) for c, st in facts.nation_strengths(year + 22)
                        if facts.NATION_FROM.get(c, 0) <= year + MIN_START_AGE)
        weights = [0.25 + 2.0 * s for _c, s in nations]
        out = []
        for i in range(size):
            nation, nstrength = rng.choices(nations, weights)[0]
            p = Player()
            p.idx = len(self.all)
            p.id = make_id("pl_", self.seed, kind, gender, year, i)
            p.gender = gender
            p.country = nation
            p.born_year = year
            p.born = None if year < 1925 and rng.random() < 0.5 else dt.date(year, 1, 1) + dt.timedelta(days=rng.randrange(365))
            p.hand = None if year < 1935 and rng.random() < 0.4 else ("left" if rng.random() < 0.15 else "right")
            p.height = None if year < 1950 or rng.random() < 0.1 else round(rng.gauss(181 if gender == "M" else 168, 6))
            p.coach = None
            if year >= 1950 and rng.random() < 0.4:
                p.coach = ", ".join(self.names.other(rng, nation, "M", year - 30) for _ in range(rng.choice((1, 1, 2))))
            p.sport_class = rng.choice(facts.SPORT_CLASSES) if kind == "para" else None
            p.peak = 1000.0 + 260.0 * nstrength + rng.gauss(0, 55)
            p.start_age = rng.choice((16, 17, 17, 18, 19))
            # peaks from 24 to 29; careers end from 26 to 38, most around 30 (late peakers last longer)
            p.peak_age = rng.uniform(24.0, 29.0)
            p.end_age = min(38, max(26, round(rng.gauss(30.5, 2.6) + (p.peak_age - 26.5) * 0.5)))
            if kind == "para":
                p.start_age, p.end_age = 18, rng.choice((35, 40, 45))
            first = year + (p.start_age if kind == "para" else JUNIOR_FROM_AGE)
            p.name = self.names.player(rng, nation, gender, year, first, year + p.end_age)
            # speciality: singles, doubles or both (doubles players also play mixed)
            p.kind = kind if kind == "para" else rng.choices(("S", "D", "B"), (0.45, 0.4, 0.15))[0]
            p.used = False
            out.append(p)
            self.all.append(p)
        self.cohorts[key] = out
        return out

    def free_for(self, edition: str, start: dt.date | None, end: dt.date | None) -> Callable[[Player], bool]:
        """Whether a player may enter this edition: no other edition of theirs overlaps its days
        or starts in the same calendar week (editions without dates are never in the way). The
        edition's week and days are worked out once, for the many players an entry list tries."""
        if start is None or end is None:
            return lambda p: True
        keys = [start.isocalendar()[:2]] + [start + ONE_DAY * k for k in range((end - start).days + 1)]
        booked = self.booked

        def free(p: Player) -> bool:
            held = booked.get(p.idx)
            return not held or all(held.get(k, edition) == edition for k in keys)
        return free

    def book(self, players, edition: str, start: dt.date | None, end: dt.date | None) -> None:
        if start is None or end is None:
            return
        week = start.isocalendar()[:2]
        for p in players:
            held = self.booked.setdefault(p.idx, {})
            if held.get(week) == edition:
                continue  # booked already (another event of the same edition)
            held[week] = edition
            day = start
            while day <= end:
                held[day] = edition
                day += ONE_DAY

    def warm(self, last_year: int) -> None:
        """Creates every cohort that plays up to `last_year` (cohort() makes them oldest first,
        so players are numbered and named the same whichever is asked for first)."""
        self.cohort(*COHORT_KINDS[-1], last_year - 14)

    def active(self, kind: str, gender: str, year: int) -> list[Player]:
        """Players of `kind` (senior/para/junior) and gender playing in `year`, by strength."""
        key = (kind, gender, year)
        got = self._active.get(key)
        if got is not None:
            return got
        out = []
        if kind == "junior":
            for born in range(year - 18, year - 14):
                out.extend(self.cohort("senior", gender, born))
        else:
            ck = "para" if kind == "para" else "senior"
            for born in range(year - 46, year - 15):
                for p in self.cohort(ck, gender, born):
                    if p.start_age <= year - born <= p.end_age:
                        out.append(p)
        out.sort(key=lambda p: (-p.strength(year), p.idx))
        self._active[key] = out
        return out

    def pairs(self, disc: str, year: int) -> list[tuple[Player, Player]]:
        """The doubles partnerships of `year`: last year's persist (~75 %), the rest re-form."""
        key = (disc, year)
        got = self._pairs.get(key)
        if got is not None:
            return got
        rng = sub_rng(self.seed, "pairs", disc, year)
        g1, g2 = {"MD": ("M", "M"), "WD": ("W", "W"), "XD": ("M", "W")}[disc]
        pool1 = [p for p in self.active("senior", g1, year) if p.kind in "DB"]
        pool2 = pool1 if g1 == g2 else [p for p in self.active("senior", g2, year) if p.kind in "DB"]
        ok1 = {p.idx for p in pool1}
        ok2 = {p.idx for p in pool2}
        taken: set[int] = set()
        pairs = []
        # last year's partnerships first (computed on demand, back to the first season)
        prev = self.pairs(disc, year - 1) if year > FIRST_SEASON else []
        for a, b in prev:
            if a.idx in ok1 and b.idx in ok2 and a.idx not in taken and b.idx not in taken and rng.random() < 0.75:
                pairs.append((a, b))
                taken.update((a.idx, b.idx))
        # new partnerships inside each nation, strongest with strongest
        by_nation1: dict[str, list[Player]] = {}
        by_nation2: dict[str, list[Player]] = {}
        for p in pool1:
            if p.idx not in taken:
                by_nation1.setdefault(p.country, []).append(p)
        for p in pool2:
            if p.idx not in taken:
                by_nation2.setdefault(p.country, []).append(p)
        left1: list[Player] = []
        left2: list[Player] = []
        for nation in sorted(by_nation1):
            a_list = by_nation1[nation]
            if g1 == g2:
                for i in range(0, len(a_list) - 1, 2):
                    pairs.append((a_list[i], a_list[i + 1]))
                left1.extend(a_list[len(a_list) - len(a_list) % 2:])
            else:
                b_list = by_nation2.get(nation, [])
                pairs.extend(zip(a_list, b_list))
                left1.extend(a_list[len(b_list):])
                left2.extend(b_list[len(a_list):])
        for nation in sorted(set(by_nation2) - set(by_nation1)):
            left2.extend(by_nation2[nation])
        # players without a partner at home pair across nations (as many did in small nations)
        left1.sort(key=lambda p: p.idx)
        left2.sort(key=lambda p: p.idx)
        if g1 == g2:
            pairs.extend((left1[i], left1[i + 1]) for i in range(0, len(left1) - 1, 2))
        else:
            pairs.extend(zip(left1, left2))
        pairs.sort(key=lambda ab: (-(ab[0].strength(year) + ab[1].strength(year)), ab[0].idx))
        self._pairs[key] = pairs
        return pairs

