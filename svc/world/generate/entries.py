"""Who enters a draw: the strongest-looking entries willing to play (a season has room for so
many tournaments; the stars stay away from lower tiers more often; the great events, the season
finals and team events are always entered), within an event's entry rules (its region, the
nations' places, the Olympics' qualification), the record's champion nation always there; and
the pairs made for one event (juniors, para)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from svc.world import facts
from svc.world.generate.context import Context
from svc.world.generate.people import Player

if TYPE_CHECKING:  # the draw that asks (draws.py imports this module)
    from svc.world.generate.draws import Event

MINOR_SKEW = 1.4  # >1 skews minor events' entry windows toward the top of the field
# Editions every senior edition counts against (bookings.SEASON_EDITIONS) but these, which the best never miss.
UNCOUNTED_KINDS = ("worlds", "olympics", "finals", "team")
# The stars an event loses to the rest of the season (rest, injuries, the bigger events): the
# chance that one of the top half of its field stays away; the Super 100s and Grand Prix draw
# from deeper down, the Super 1000s and the great events lose nobody.
STAR_SKIP = {
    "Super 750": 0.15,
    "Superseries Premier": 0.15,
    "Super 500": 0.3,
    "Superseries": 0.3,
    "Super 300": 0.5,
    "Grand Prix Gold": 0.5,
    "Super 100": 0.7,
    "Grand Prix": 0.7,
}
STAR_SKIP_OTHER = 0.4  # any other open, continental championships, Games
NEVER_SKIPPED = ("Super 1000", "World Tour Finals", "Superseries Finals")
OLYMPIC_TWO_WITHIN = 16  # the Olympics: a nation's second entry only from the best 16 (qualification)
ADHOC_POOL = 240  # candidates considered when pairing juniors / para players per event


def entries_of(ctx: Context, ev: Event, size: int) -> list[tuple[Player, ...]]:
    """The `size` strongest-looking entries willing to play, strongest first."""
    ed, disc, rng = ev.ed, ev.disc, ev.rng
    year = ed.play_year
    kind = "para" if ed.series.para else "junior" if ed.series.level == "junior" else "senior"
    region = ed.series.region
    # the lower tiers draw from deeper in the field: the stars play elsewhere that week
    offset = 0
    if ed.series.kind == "minor":
        field_size = len(ctx.people.active(kind, "M" if disc in ("MS", "MD", "XD") else "W", year))
        if disc in ("MD", "WD", "XD"):
            field_size //= 3  # about a third of the field are doubles pairs
        # anywhere in the field, more often near its top: minor events are where most
        # players of the world play most of their matches
        offset = int(rng.random() ** MINOR_SKEW * max(0, field_size * 0.8 - size * 4))
    need = offset + size * 4

    people = ctx.people
    # a season has room for so many tournaments: the great events, the season finals and team
    # events are always entered, every other senior edition counts (bookings.SEASON_EDITIONS)
    counted = kind == "senior" and ed.series.kind not in UNCOUNTED_KINDS
    # who is playing another event that week, or has no room left in the season
    blocked = people.bookings.blocked(ed.id, ed.start, ed.end, year if counted else None)

    def in_region(p: Player) -> bool:
        if region == "CW":
            return p.country in facts.COMMONWEALTH
        return region is None or facts.COUNTRY_CONTINENT[p.country] == region

    def allowed(p: Player) -> bool:
        return p.idx not in blocked and in_region(p)

    per_nation_cap = {"olympics": 2, "worlds": 4}.get(ed.series.kind, 99)
    # the first `need` entries allowed, strongest first: thousands of players per draw are tried,
    # so the field is run down in slices by comprehensions, and the strengths are worked out
    # only for the window of it the draw takes
    if disc in ("MS", "WS"):
        if kind == "senior":
            field = people.playing(disc, year)
        else:
            gender = "M" if disc == "MS" else "W"
            field = [p for p in people.active(kind, gender, year) if kind != "para" or p.sport_class == ev.sport_class]
        cands = _first(need, field, blocked, None if region is None else in_region, singles=True)
    else:
        pool_pairs = people.pairs(disc, year) if kind == "senior" else adhoc_pairs(ctx, ev, kind, year)
        cands = _first(need, pool_pairs, blocked, None if region is None else in_region)
    if len(cands) - offset < size:
        offset = max(0, len(cands) - size * 2)
    window = [
        (e, e[0].strength(year) if len(e) == 1 else (e[0].strength(year) + e[1].strength(year)) / 2)
        for e in cands[offset : offset + size * 4]
    ]
    # interest: the big events draw the best; smaller ones lose some stars at random
    scored = []
    great = ed.series.kind in ("worlds", "olympics", "finals") or ed.tier in NEVER_SKIPPED
    skip = 0.0 if great else STAR_SKIP.get(ed.tier or "", STAR_SKIP_OTHER)
    for i, (entry, st) in enumerate(window):
        if i < size // 2 and skip and rng.random() < skip:
            continue
        scored.append((st + rng.gauss(0, 25), i, entry))
    scored.sort(key=lambda t: (-t[0], t[1]))
    per_nation: dict[str, int] = {}
    out: list[tuple[Player, ...]] = []
    for _score, _i, entry in scored:
        n = entry[0].country
        if per_nation.get(n, 0) >= per_nation_cap:
            continue
        if ed.series.kind == "olympics" and per_nation.get(n, 0) >= 1 and len(out) >= OLYMPIC_TWO_WITHIN:
            continue  # a nation's second place only for one qualified among the best
        per_nation[n] = per_nation.get(n, 0) + 1
        out.append(entry)
        if len(out) == size:
            break
    if ev.champion is not None and out and not any(e[0].country == ev.champion for e in out):
        # the record's champion nation was there: its best entry takes the last place
        best = next((e for e in cands if e[0].country == ev.champion and e not in out), None) or _nation_entry(
            ctx, ev, kind, year, allowed
        )
        if best is not None:
            out[-1] = best
    people.bookings.book([p for entry in out for p in entry], ed.id, ed.start, ed.end)
    if counted:
        people.bookings.count_draw([p for entry in out for p in entry], year, ed.id)
    return out


def _first(
    need: int, field: list, blocked: set[int], in_region: Callable[[Player], bool] | None, singles: bool = False
) -> list[tuple[Player, ...]]:
    """The first `need` entries of `field` (pairs of players, or players when `singles`) none of
    whose players is `blocked` (nor outside the region, `in_region`, when given), in the field's
    order, as tuples. Each slice runs down as many as are still wanted, so no entry past the
    last one taken is tried."""
    out: list[tuple[Player, ...]] = []
    at = 0
    while len(out) < need and at < len(field):
        step = need - len(out)
        part = field[at : at + step]
        at += step
        if in_region is None:
            if singles:
                out += [(p,) for p in part if p.idx not in blocked]
            else:
                out += [e for e in part if e[0].idx not in blocked and e[1].idx not in blocked]
        elif singles:
            out += [(p,) for p in part if p.idx not in blocked and in_region(p)]
        else:
            out += [e for e in part if all(p.idx not in blocked and in_region(p) for p in e)]
    return out


def _nation_entry(ctx: Context, ev: Event, kind: str, year: int, allowed) -> tuple[Player, ...] | None:
    """The strongest entry of the record's champion nation free to play this draw, if any."""
    if ev.disc in ("MS", "WS"):
        gender = "M" if ev.disc == "MS" else "W"
        return next(
            (
                (p,)
                for p in ctx.people.active(kind, gender, year)
                if p.country == ev.champion and ev.disc in p.events and allowed(p)
            ),
            None,
        )
    pair = next(
        ((a, b) for a, b in ctx.people.pairs(ev.disc, year) if a.country == ev.champion and allowed(a) and allowed(b)),
        None,
    )
    if pair is not None:
        return pair
    # no pair of the nation this year: its best two players of the discipline's genders, doubles
    # players first (one of them then plays a second doubles event, as doubles players may)
    genders = {"MD": ("M", "M"), "WD": ("W", "W"), "XD": ("M", "W")}[ev.disc]
    chosen: list[Player] = []
    for gender in genders:
        pool = [
            p
            for p in ctx.people.active(kind, gender, year)
            if p.country == ev.champion and allowed(p) and p not in chosen
        ]
        pool.sort(key=lambda p: (ev.disc not in p.events, p.events[0] in ("MS", "WS"), -p.strength(year), p.idx))
        if not pool:
            return None
        chosen.append(pool[0])
    return tuple(chosen)


def adhoc_pairs(ctx: Context, ev: Event, kind: str, year: int) -> list[tuple[Player, Player]]:
    """Pairs made for one event (juniors, para): of one nation, by strength."""
    g1, g2 = {"MD": ("M", "M"), "WD": ("W", "W"), "XD": ("M", "W")}[ev.disc]
    classes = tuple(ev.sport_class.split("-")) if ev.sport_class else None

    def fits(p: Player) -> bool:
        return classes is None or p.sport_class in classes

    # only the strongest few hundred can make a draw; the cap keeps the pairing loop short
    a_pool = [p for p in ctx.people.active(kind, g1, year) if fits(p)][:ADHOC_POOL]
    b_pool = a_pool if g1 == g2 else [p for p in ctx.people.active(kind, g2, year) if fits(p)][:ADHOC_POOL]
    used: set[int] = set()
    pairs = []
    for a in a_pool:
        if a.idx in used:
            continue
        for b in b_pool:
            if b.idx in used or b.idx == a.idx:
                continue
            # a class pair (WH1-WH2) takes one player of each class
            if classes and len(classes) == 2 and g1 == g2 and a.sport_class == b.sport_class:
                continue
            if b.country == a.country:  # pairs are of one nation, as seniors' are
                pairs.append((a, b))
                used.update((a.idx, b.idx))
                break
    return pairs
