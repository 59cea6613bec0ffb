"""Players: birth cohorts whose strength rises, peaks and falls with age, nations strong by
era, and doubles partnerships that persist and break; names by the nation's conventions
(svc.world.naming)."""

from __future__ import annotations

import datetime as dt
import math
from functools import cache
from itertools import accumulate

import attrs

from svc.world import facts
from svc.world.factfiles.people import Star, stars
from svc.world.generate.bookings import Bookings
from svc.world.generate.ids import make_id, slugify, sub_rng
from svc.world.generate.scales import Scale
from svc.world.naming import Namer

FIRST_SEASON = 1895  # partnerships are formed from here on
JUNIOR_FROM_AGE = 14  # juniors play from 14 (People.active)
AGE_CURVE = 2.5  # strength lost per squared year from the peak (Player.strength)
PEAK_YEARS = 26  # a player is as strong as their nation was in their discipline at about this age
PAIR_KEPT = 0.7  # the chance a doubles partnership goes on into the next year
PEAK_TAIL = 1.0  # talent beyond 1.5 spreads above the nation's mean is cut there: the
# world's very best are its stars (STARS_BORN), two spreads up and more
FIRST_BORN = FIRST_SEASON - 46  # the oldest cohort any season reaches (active: ages up to 46)
# the cohorts of one birth year, in the order they are made
COHORT_KINDS = (("senior", "M"), ("senior", "W"), ("para", "M"), ("para", "W"))


# The events of a career (senior): a specialist in singles or in doubles, as the real game has
# them. A doubles player may play both doubles events, more often in earlier eras; before the
# 1990s some played singles and doubles. Shares by the era of the player's career (born + 25).
# A third of players in singles, two thirds in doubles: a nation has as many doubles pairs as
# singles players (weighed by the nation's strength in each), the mixed pairs a share of them.
SINGLES_SHARE = 0.34
MIXED_SHARE = 0.45  # of doubles players, mixed doubles first
TWO_DOUBLES = ((1970, 0.6), (1990, 0.4), (2005, 0.25), (9999, 0.12))  # (era before, share)
SINGLES_AND_DOUBLES = ((1965, 0.35), (1980, 0.2), (1990, 0.1), (9999, 0.0))
PARA_EVENTS = {"M": ("MS", "MD", "XD"), "W": ("WS", "WD", "XD")}


# a nation's strength in a discipline (facts), asked four times for every player made: kept
discipline_strength = cache(facts.discipline_strength)


def _share(table: tuple[tuple[int, float], ...], era: int) -> float:
    return next(share for before, share in table if era < before)


def career_events(rng, nation: str, gender: str, born: int, overall: float) -> tuple[str, ...]:
    """The disciplines a senior player plays, the first their own (the strength they are made
    with): singles or doubles, drawn by how strong their nation is in each, then maybe a second."""
    singles, doubles = ("MS", "MD") if gender == "M" else ("WS", "WD")
    at = born + PEAK_YEARS
    weights = [SINGLES_SHARE, (1 - SINGLES_SHARE) * (1 - MIXED_SHARE), (1 - SINGLES_SHARE) * MIXED_SHARE]
    options = (singles, doubles, "XD")
    weights = [w * (0.3 + discipline_strength(nation, d, at, overall)) for w, d in zip(weights, options)]
    first = rng.choices(options, weights)[0]
    era = born + 25
    if first == singles:
        return (singles, doubles) if rng.random() < _share(SINGLES_AND_DOUBLES, era) else (singles,)
    other = "XD" if first == doubles else doubles
    return (first, other) if rng.random() < _share(TWO_DOUBLES, era) else (first,)


@attrs.frozen
class StarCareer:
    """A great player of the record or the real World Tour (data/stars.csv), their disciplines
    together, the one they won most in first."""

    star: str
    nation: str
    gender: str
    events: tuple[str, ...]
    first_year: int
    last_year: int
    honours: int

    @property
    def born(self) -> int:
        """At their best (the middle of their honours) at 26, and 19 at the latest at the first."""
        return min(round((self.first_year + self.last_year) / 2) - 26, self.first_year - 19)


# A star of a bronze or two, or a title or three, is one of the world's many good players: the
# generated world has those already, from its nations' strengths; stars are the great.
STAR_FROM_HONOURS = 4


def _star_careers() -> dict[tuple[str, int], tuple[StarCareer, ...]]:
    """The stars by (gender, year born)."""
    rows: dict[str, list[Star]] = {}
    for row in stars():
        rows.setdefault(row.star, []).append(row)
    out: dict[tuple[str, int], list[StarCareer]] = {}
    for star, got in rows.items():
        got.sort(key=lambda r: (-r.honours, r.discipline))
        career = StarCareer(
            star,
            got[0].nation,
            got[0].gender,
            tuple(r.discipline for r in got),
            min(r.first_year for r in got),
            max(r.last_year for r in got),
            sum(r.honours for r in got),
        )
        if career.honours >= STAR_FROM_HONOURS:
            out.setdefault((career.gender, career.born), []).append(career)
    return {k: tuple(sorted(v, key=lambda c: c.star)) for k, v in out.items()}


STARS_BORN = _star_careers()
STAR_HONOURS_TOP = max(c.honours for careers in STARS_BORN.values() for c in careers)
STAR_NATION = 0.8  # a star is as good as a player of the strongest nation of a discipline (its
STAR_SPREADS = 1.0  # level 0.95) this many spreads above its mean (a star of one title: as good
# as the best of the strongest nation's others) ...
STAR_EDGE = 60.0  # ... and up to this much more, the more honours they won (sqrt of the share
# of the most honoured's: a star of a quarter of the honours, half of it)


class Player:
    """One invented player, made by People (_person, then _make or _star)."""

    # Annotations only (the values are set on each object): hundreds of thousands are made, so slots
    idx: int
    id: str
    name: str
    gender: str
    country: str
    born_year: int
    born: dt.date | None
    hand: str | None
    height: int | None
    coach: str | None
    sport_class: str | None
    peak: float
    peak_age: float
    start_age: int
    end_age: int
    kind: str
    events: tuple[str, ...]
    used: bool
    __slots__ = tuple(__annotations__)

    def strength(self, year: int) -> float:
        """Strength in `year`: rises to the player's peak (at 24 to 29), then falls: 40 points
        below it four years either side, so that a great player leads the world for some six
        seasons, as the real greats did."""
        age = year - self.born_year
        return self.peak - AGE_CURVE * (age - self.peak_age) ** 2

    def row(self) -> tuple:
        """The players row (strength: the peak, as stored)."""
        return (
            self.id,
            self.name,
            slugify(self.name),
            self.country,
            self.gender,
            self.born,
            self.hand,
            self.height,
            self.coach,
            self.sport_class,
            round(self.peak, 1),
        )


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
        self._playing: dict[tuple[str, int], list[Player]] = {}
        self.bookings = Bookings()  # who plays where, and how much of each season

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
        # nations strong when the cohort peaks and playing by then (People.active keeps a player out
        # until their nation joined international play)
        nations = facts.nation_strengths(year + PEAK_YEARS)
        # a strong nation has many more players than a weak one: the depth that fills the circuit's
        # draws with its players (real World Tour 2018-2020: twelve nations, 86 % of appearances)
        weights = [0.1 + 3.0 * s * s for _c, s in nations]
        cum_weights = list(accumulate(weights))  # summed once, as random.choices sums them each time
        out = []
        for i in range(size):
            nation, nstrength = rng.choices(nations, cum_weights=cum_weights)[0]
            p = self._person(make_id("pl_", self.seed, kind, gender, year, i), gender, nation, year, rng)
            p.sport_class = rng.choice(facts.SPORT_CLASSES) if kind == "para" else None
            p.kind = kind
            p.events = PARA_EVENTS[gender] if kind == "para" else career_events(rng, nation, gender, year, nstrength)
            # as strong as the nation is in the player's own discipline (the record's honours, by era)
            strength = (
                nstrength if kind == "para" else discipline_strength(nation, p.events[0], year + PEAK_YEARS, nstrength)
            )
            # talent beyond the nation's: a normal spread with its far tail cut (PEAK_TAIL), so that no
            # one stands so far above a strong field that they win all there is for a decade
            p.peak = 1000.0 + 260.0 * strength + 55.0 * min(PEAK_TAIL, rng.gauss(0, 1))
            p.start_age = rng.choice((16, 17, 17, 18, 19))
            # peaks from 24 to 29; careers end from 26 to 38, most around 30 (late peakers last longer)
            p.peak_age = rng.uniform(24.0, 29.0)
            p.end_age = min(38, max(26, round(rng.gauss(30.5, 2.6) + (p.peak_age - 26.5) * 0.5)))
            if kind == "para":
                p.start_age, p.end_age = 18, rng.choice((35, 40, 45))
            first = year + (p.start_age if kind == "para" else JUNIOR_FROM_AGE)
            p.name = self.names.player(rng, nation, gender, year, first, year + p.end_age)
            out.append(p)
        if kind == "senior":
            out.extend(self._star(star, gender, year) for star in STARS_BORN.get((gender, year), ()))
        self.cohorts[key] = out
        return out

    def _person(self, pid: str, gender: str, nation: str, year: int, rng) -> Player:
        """A new player of `nation` born in `year`: who they are, not yet how they play."""
        p = Player()
        p.idx = len(self.all)  # numbered in the order made
        self.all.append(p)
        p.id = pid
        p.gender = gender
        p.country = nation
        p.born_year = year
        p.born = (
            None if year < 1925 and rng.random() < 0.5 else dt.date(year, 1, 1) + dt.timedelta(days=rng.randrange(365))
        )
        p.hand = None if year < 1935 and rng.random() < 0.4 else ("left" if rng.random() < 0.15 else "right")
        p.height = None if year < 1950 or rng.random() < 0.1 else round(rng.gauss(181 if gender == "M" else 168, 6))
        p.coach = None
        if year >= 1950 and rng.random() < 0.4:
            p.coach = ", ".join(self.names.other(rng, nation, "M", year - 30) for _ in range(rng.choice((1, 1, 2))))
        p.used = False
        return p

    def _star(self, star: StarCareer, gender: str, year: int) -> Player:
        """The invented counterpart of a great player of the record (StarCareer): their nation and
        disciplines, at their best in the years of their honours, the best of their nation and a
        little more the more they won."""
        rng = sub_rng(self.seed, "star", star.star)
        p = self._person(make_id("pl_", self.seed, "star", star.star), gender, star.nation, year, rng)
        p.sport_class, p.kind, p.events = None, "senior", star.events
        best = (star.first_year + star.last_year) / 2
        # world class whatever their nation's depth: measured against the strongest nation's level,
        # and ranked among the stars by their honours
        p.peak = (
            1000.0 + 260.0 * STAR_NATION + 55.0 * STAR_SPREADS + STAR_EDGE * math.sqrt(star.honours / STAR_HONOURS_TOP)
        )
        p.start_age = 17
        p.peak_age = min(29.0, max(24.0, best - year))
        p.end_age = min(36, max(28, star.last_year - year + 1))
        p.name = self.names.player(rng, star.nation, gender, year, year + JUNIOR_FROM_AGE, year + p.end_age)
        return p

    @property
    def made_through(self) -> int:
        """The last birth year whose cohorts (every kind) are made."""
        return self._made_through

    def make_through(self, year: int) -> None:
        """Makes every cohort born up to `year` (in the one order: numbered and named as anywhere else)."""
        self.cohort(*COHORT_KINDS[-1], year)

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
                    # a nation's players appear from the year it joined international play (China's in
                    # 1981 at whatever age: they had played at home before)
                    if p.start_age <= year - born <= p.end_age and facts.NATION_FROM.get(p.country, 0) <= year:
                        out.append(p)
        out.sort(key=lambda p: (-p.strength(year), p.idx))
        self._active[key] = out
        return out

    def playing(self, disc: str, year: int) -> list[Player]:
        """Senior players of singles `disc` (MS, WS) among their events in `year`, by strength
        (active's order): the field an entry list runs down."""
        key = (disc, year)
        got = self._playing.get(key)
        if got is None:
            gender = "M" if disc == "MS" else "W"
            got = self._playing[key] = [p for p in self.active("senior", gender, year) if disc in p.events]
        return got

    def pairs(self, disc: str, year: int) -> list[tuple[Player, Player]]:
        """The doubles partnerships of `year`: last year's persist (PAIR_KEPT), the rest re-form."""
        key = (disc, year)
        got = self._pairs.get(key)
        if got is not None:
            return got
        rng = sub_rng(self.seed, "pairs", disc, year)
        g1, g2 = {"MD": ("M", "M"), "WD": ("W", "W"), "XD": ("M", "W")}[disc]
        pool1 = [p for p in self.active("senior", g1, year) if disc in p.events]
        pool2 = pool1 if g1 == g2 else [p for p in self.active("senior", g2, year) if disc in p.events]
        ok1 = {p.idx for p in pool1}
        ok2 = {p.idx for p in pool2}
        taken: set[int] = set()
        pairs = []
        # last year's partnerships first (computed on demand, back to the first season)
        prev = self.pairs(disc, year - 1) if year > FIRST_SEASON else []
        for a, b in prev:
            if a.idx in ok1 and b.idx in ok2 and a.idx not in taken and b.idx not in taken and rng.random() < PAIR_KEPT:
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
        for nation in sorted(by_nation1):
            a_list = by_nation1[nation]
            if g1 == g2:
                pairs.extend((a_list[i], a_list[i + 1]) for i in range(0, len(a_list) - 1, 2))
            else:
                pairs.extend(zip(a_list, by_nation2.get(nation, [])))
        # players without a partner at home sit the discipline out this year: pairs are of one nation,
        # as in every doubles title of the real World Tour (the record's rare exceptions are lower down)
        pairs.sort(key=lambda ab: (-(ab[0].strength(year) + ab[1].strength(year)), ab[0].idx))
        self._pairs[key] = pairs
        return pairs
