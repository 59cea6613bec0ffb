"""Draws: one Event per discipline (and sport class) of an edition, its entries (entries.py), knockout
brackets with seeds, the season finals' groups then knockout, and each match decided by the
match engine (walkover, retirement or a result, rally by rally when recent); a great final won
by the record's champion nation as it is played (champions.py)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from svc.world import engine, record
from svc.world.generate.calendar import Edition
from svc.world.generate.champions import champion_of, final_winner
from svc.world.generate.context import Context
from svc.world.generate.entries import entries_of
from svc.world.generate.ids import digest, id_text, sub_rng
from svc.world.generate.people import Player

WALKOVER_RATE = 0.012
# Retirements per match by discipline, as on the World Tour of 2018-2020 (per 1,000: MS 19.1,
# WS 14.6, MD 9.1, WD 14.3, XD 7.1): singles players retire most, mixed pairs least.
RETIRE_RATE = {"MS": 0.019, "WS": 0.0146, "MD": 0.0091, "WD": 0.0143, "XD": 0.0071}
SEEDING_FROM = 1932  # seeding from 1932 at All England (and, here, everywhere)
ROUND_NAMES = {
    "R128": "Round of 128",
    "R64": "Round of 64",
    "R32": "Round of 32",
    "R16": "Round of 16",
    "QF": "Quarter-finals",
    "SF": "Semi-finals",
    "F": "Final",
    "3P": "Bronze medal match",
}
ROUND_OF_SIZE = {128: "R128", 64: "R64", 32: "R32", 16: "R16", 8: "QF", 4: "SF", 2: "F"}


class Match:
    """One match of a draw, filled in as the generator goes (Event.new_match, play, the timetable)."""

    # Annotations only (the values are set on each object): many thousands are made, so slots
    id: str
    event_id: str
    tid: str
    disc: str
    sport_class: str | None
    round_code: str | None
    round_name: str
    position: int
    tie_id: str | None
    tie_order: int | None
    side1: tuple[Player, ...]
    side2: tuple[Player, ...]
    seed1: int | None
    seed2: int | None
    g1: list[int]
    g2: list[int]
    winner: int | None  # 1 or 2; None until the match is over
    outcome: str | None
    status: str
    day: dt.date | None
    start_at: dt.datetime | None
    end_at: dt.datetime | None
    p1: float
    rules: engine.Rules
    rallies: list[engine.Rally] | None
    feeders: tuple[Match, ...]
    day_index: int
    s1: float
    s2: float
    __slots__ = tuple(__annotations__)

    def row(self) -> tuple:
        return (
            self.id,
            self.event_id,
            self.tid,
            self.disc,
            self.sport_class,
            self.round_code,
            self.round_name,
            self.position,
            self.tie_id,
            self.tie_order,
            [p.id for p in self.side1],
            [p.id for p in self.side2],
            self.seed1,
            self.seed2,
            self.g1,
            self.g2,
            self.winner,
            self.outcome,
            self.status,
            self.day,
            self.start_at,
            self.end_at,
        )


def side_strength(side: tuple[Player, ...], year: int) -> float:
    return sum(p.strength(year) for p in side) / len(side)


def standard_order(n: int) -> list[int]:
    """Seed ranks slot by slot in a perfectly seeded bracket of n (1 top, 2 bottom ...)."""
    order = [1]
    while len(order) < n:
        m = len(order) * 2
        order = [x for r in order for x in (r, m + 1 - r)]
    return order


class Event:
    """One draw (a discipline, maybe a sport class) of one edition, played as matches."""

    def __init__(self, ctx: Context, ed: Edition, disc: str, sport_class: str | None):
        self.ctx = ctx
        self.ed = ed
        self.disc = disc
        self.sport_class = sport_class
        self.rng = sub_rng(ctx.seed, ed.id, disc, sport_class)
        # the nation the record says won this title (record.py), and the form of its sides on the
        # day, when playing it out afresh needed more than luck (champion_of)
        self.champion = None if sport_class else record.champion_nation(ed.series.slug, ed.year, disc)
        self.champion_form = 0.0

    def new_match(
        self,
        round_code: str | None,
        round_name: str,
        position: int,
        side1,
        side2,
        tie_id: str | None = None,
        tie_order: int | None = None,
    ) -> Match:
        m = Match()
        # the match's and its event's ids are made from one hash of the same inputs (make_id)
        d = digest(self.ed.id, self.disc, self.sport_class, round_code or round_name, position, tie_id, tie_order)
        m.id = "mt_" + id_text(d)
        m.event_id = "ev_" + id_text(d)
        m.tid = self.ed.id
        m.disc = self.disc
        m.sport_class = self.sport_class
        m.round_code = round_code
        m.round_name = round_name
        m.position = position
        m.tie_id = tie_id
        m.tie_order = tie_order
        m.side1, m.side2 = side1, side2
        m.seed1 = m.seed2 = None
        m.feeders = ()
        m.rallies = None
        m.day = m.start_at = m.end_at = None
        m.day_index = 0
        return m

    def form_of(self, side: tuple[Player, ...]) -> float:
        return self.champion_form if self.champion_form and side[0].country == self.champion else 0.0

    def play(self, m: Match, day_index: int) -> Match:
        """Decide the match: walkover, retirement or a played result (rally by rally when the
        match is recent enough to carry rallies). The current week's split into finished,
        live and scheduled comes later (split_current) and hides what lies after now."""
        ed = self.ed
        year = ed.play_year
        m.day_index = day_index
        day = ed.start + dt.timedelta(days=day_index) if ed.start else dt.date(year, 6, 30)
        if ed.start:
            m.day = day
        m.rules = engine.era_rules(self.disc, day)
        m.s1, m.s2 = side_strength(m.side1, year), side_strength(m.side2, year)
        m.p1 = engine.rally_chance(m.s1, m.s2)
        for p in m.side1 + m.side2:
            p.used = True
        rng = self.rng
        m.status, m.outcome = "finished", "played"
        u = rng.random()
        retire = WALKOVER_RATE + RETIRE_RATE.get(self.disc, 0.015)
        # the chance in play: the strengths shifted by the form on the day (m.p1 stays the
        # chance from the strengths alone, as the walkover's and everyone else's view of it)
        form = engine.form(rng, self.disc) + self.form_of(m.side1) - self.form_of(m.side2)
        p_day = engine.rally_chance(m.s1 + form, m.s2)
        bias = engine.bias(self.disc, m.rules)
        want_rallies = ed.state == "current" or (
            ed.end is not None and self.ctx.rally_from <= ed.end and rng.random() < self.ctx.scale.rally_share
        )
        if u < WALKOVER_RATE:
            m.g1, m.g2, m.outcome = [], [], "walkover"
            m.winner = 1 if rng.random() < 0.5 + (m.p1 - 0.5) * 2 else 2
            return m
        if want_rallies:
            rallies = list(engine.play_rallies(rng, p_day, m.rules, first_server=rng.choice((1, 2)), bias=bias))
            if u < retire:
                cut = rng.randrange(1, len(rallies))
                rallies = rallies[:cut]
            m.rallies = rallies
            m.g1, m.g2 = engine.games_of(rallies)
            if u < retire:
                m.outcome = "retired"
                m.winner = rng.choice((1, 2))  # either side may be the one who could not go on
            else:
                won1 = sum(1 for a, b in zip(m.g1, m.g2) if a > b)
                m.winner = 1 if won1 == engine.GAMES_TO_WIN else 2
            return m
        g1, g2, winner = engine.sample_match(rng, p_day, m.rules, bias)
        if u < retire:
            k = rng.randrange(len(g1))
            a, b = engine.partial_game(rng, engine.point_share(p_day, m.rules), m.rules)
            g1, g2 = g1[:k] + [a], g2[:k] + [b]
            m.outcome = "retired"
            winner = rng.choice((1, 2))
        m.g1, m.g2, m.winner = g1, g2, winner
        return m


def rounds_of(size: int) -> list[str]:
    """Round codes of a knockout draw of `size`, first round to final."""
    rounds = []
    while size >= 2:
        rounds.append(ROUND_OF_SIZE[size])
        size //= 2
    return rounds


def edition_days(ed: Edition) -> int:
    """The days of play of an edition: its own dates (the early editions were shorter than their
    series is today), else the series' usual length."""
    return (ed.end - ed.start).days + 1 if ed.start is not None and ed.end is not None else ed.series.days


def round_days(rounds: list[str], days: int) -> list[int]:
    """Day index of each round: the final on the last day, one round a day backwards from it."""
    out = []
    n = len(rounds)
    for i in range(n):
        back = n - 1 - i
        out.append(max(0, days - 1 - back))
    return out  # a bronze play-off takes the final's day


def knockout_draw(ctx: Context, ev: Event) -> tuple[list[tuple[tuple, int | None]], list[str], list[tuple]] | None:
    """The draw of one knockout event: its slots (entry, seed) in draw order, its rounds
    (first to final) and its entries; None when too few entered."""
    ed = ev.ed
    size = ed.draw_size or 32
    if ev.disc in ("MD", "WD", "XD") and not ed.series.para and size > 32:
        size //= 2  # doubles draws are half the singles draw in big events
    if ed.tier == "Super 100" and ev.disc != "MS":
        size = min(size, 32)  # a Super 100's men's singles is the only draw of 64
    if ed.series.kind == "olympics" and ev.disc in ("MD", "WD", "XD"):
        size = max(8, size // 2)
    entries = entries_of(ctx, ev, size)
    while size > len(entries) and size > 4:
        size //= 2
    entries = entries[:size]
    if len(entries) < 4:
        return None
    n_seeds = 0 if ed.year < SEEDING_FROM else {128: 16, 64: 16, 32: 8, 16: 4, 8: 2, 4: 2}[size]
    slots = place(entries, size, n_seeds, ev.rng)
    return slots, rounds_of(size), entries


def knockout(ctx: Context, ev: Event) -> tuple[list[Match], list[tuple]]:
    """The matches of a knockout event, and its entries (none when too few entered); its champion
    of the record's nation where the record names one (champion_of)."""
    drawn = knockout_draw(ctx, ev)
    if drawn is None:
        return [], []
    slots, rounds, entries = drawn
    return champion_of(ctx, ev, lambda: played_out(ev, slots, rounds), final_winner), entries


def played_out(ev: Event, slots, rounds: list[str]) -> list[Match]:
    """Every match of a knockout draw, round by round from its slots."""
    ed = ev.ed
    day_of = round_days(rounds, edition_days(ed) if ed.start else 1)
    matches: list[Match] = []
    current = slots  # list of (entry, seed) in draw order
    prev_matches: list[Match] = []
    sf_losers = []
    for r, code in enumerate(rounds):
        nxt = []
        this_round = []
        for p in range(1, len(current) // 2 + 1):
            (e1, s1), (e2, s2) = current[2 * p - 2], current[2 * p - 1]
            m = ev.new_match(code, ROUND_NAMES[code], p, e1, e2)
            m.seed1, m.seed2 = s1, s2
            if prev_matches:
                m.feeders = (prev_matches[2 * p - 2], prev_matches[2 * p - 1])
            ev.play(m, day_of[r])
            this_round.append(m)
            nxt.append((e1, s1) if m.winner == 1 else (e2, s2))
            if code == "SF":
                sf_losers.append(((e2, s2) if m.winner == 1 else (e1, s1), m))
        matches.extend(this_round)
        prev_matches = this_round
        current = nxt
        if code == "SF" and ed.series.bronze_match and len(sf_losers) == 2:
            (l1, ls1), m1 = sf_losers[0]
            (l2, ls2), m2 = sf_losers[1]
            m = ev.new_match("3P", ROUND_NAMES["3P"], 1, l1, l2)
            m.seed1, m.seed2 = ls1, ls2
            m.feeders = (m1, m2)
            ev.play(m, day_of[r + 1])
            matches.append(m)
    return matches


def place(entries, size: int, n_seeds: int, rng: random.Random) -> list[tuple[tuple, int | None]]:
    """Slots of the draw: seeds at their standard places (3-4, 5-8, 9-16 drawn by lot), others by lot."""
    order = standard_order(size)
    slot_of_rank = {rank: i for i, rank in enumerate(order)}
    slots: list[Any] = [None] * size
    groups = [(1, 1), (2, 2), (3, 4), (5, 8), (9, 16)]
    for lo, hi in groups:
        if lo > n_seeds:
            break
        hi = min(hi, n_seeds)
        places = [slot_of_rank[r] for r in range(lo, hi + 1)]
        rng.shuffle(places)
        for seed_no, place in zip(range(lo, hi + 1), places):
            slots[place] = (entries[seed_no - 1], seed_no)
    rest = list(entries[n_seeds:])
    rng.shuffle(rest)
    it = iter(rest)
    for i in range(size):
        if slots[i] is None:
            slots[i] = (next(it), None)
    return slots


def finals_event(ctx: Context, ev: Event) -> tuple[list[Match], list[tuple]]:
    """The season finals' event: two groups of four, then semi-finals and the final."""
    entries = entries_of(ctx, ev, 8)
    if len(entries) < 8:
        return [], []
    rng = ev.rng
    groups = {
        "A": [entries[0], entries[3], entries[4], entries[7]],
        "B": [entries[1], entries[2], entries[5], entries[6]],
    }
    seeds = {e: i + 1 for i, e in enumerate(entries[:4])}
    matches = []
    standings = {}
    for g in ("A", "B"):
        members = groups[g]
        wins: dict[tuple[Player, ...], list[float]] = {e: [0, 0] for e in members}  # wins, tie-break
        pos = 0
        for i in range(4):
            for j in range(i + 1, 4):
                pos += 1
                m = ev.new_match(None, f"Group {g}", pos, members[i], members[j])
                m.seed1, m.seed2 = seeds.get(members[i]), seeds.get(members[j])
                ev.play(m, (pos - 1) // 2)
                matches.append(m)
                w = members[i] if m.winner == 1 else members[j]
                wins[w][0] += 1
                wins[w][1] += rng.random()  # game difference stands in as a tie-break
        standings[g] = sorted(members, key=lambda e: (-wins[e][0], -wins[e][1]))
    sf = []
    for p, (e1, e2) in enumerate(((standings["A"][0], standings["B"][1]), (standings["B"][0], standings["A"][1])), 1):
        m = ev.new_match("SF", ROUND_NAMES["SF"], p, e1, e2)
        m.seed1, m.seed2 = seeds.get(e1), seeds.get(e2)
        ev.play(m, 3)
        sf.append(m)
    w1 = sf[0].side1 if sf[0].winner == 1 else sf[0].side2
    w2 = sf[1].side1 if sf[1].winner == 1 else sf[1].side2
    f = ev.new_match("F", ROUND_NAMES["F"], 1, w1, w2)
    f.seed1, f.seed2 = seeds.get(w1), seeds.get(w2)
    f.feeders = tuple(sf)
    ev.play(f, 4)
    matches += sf + [f]
    return matches, entries
