"""The people's side: nations' strengths by era and discipline, the stars (without their names),
name pools and each nation's pools, and the champions' names."""

from __future__ import annotations

from functools import cache

import attrs

from svc.world.factfiles import reading
from svc.world.factfiles.places import countries


@attrs.frozen
class NationEra:
    first_year: int
    last_year: int
    strengths: dict[str, float]  # nation -> strength 0..1; a nation not listed has the default


@attrs.frozen
class Nations:
    commonwealth: frozenset[str]
    no_players: frozenset[str]
    other_strength: float
    plays_from: dict[str, int]
    eras: tuple[NationEra, ...]


@attrs.frozen
class Star:
    """A great player of the record or the real World Tour, without their name (data/stars.csv)."""

    star: str  # the person (a hash of their identity)
    discipline: str
    nation: str
    gender: str
    first_year: int  # of their honours
    last_year: int
    honours: int  # points: World Championships medals, World Tour titles


@attrs.frozen
class NamePool:
    men: tuple[str, ...]
    women: tuple[str, ...]
    families: tuple[str, ...]
    women_families: tuple[str, ...] | None = None  # explicit feminine family names (cs, gr)
    feminine: str | None = None  # "ova": IVANOV -> IVANOVA, "ska": KOWALSKI -> KOWALSKA
    family_first: bool = False  # written "WANG Zhi Yi"
    syllables: bool = False  # given names are one or two of these syllables ("Zhi Yi")
    always_two_syllables: bool = False  # Korean given names: never one syllable
    two_given: float = 0.0  # share with two given names ("Muhammad Haikal")
    double_family: float = 0.0  # share with two family names ("QUINTANA MAITIN")
    middle: tuple[tuple[str, ...], tuple[str, ...]] | None = None  # Vietnamese middle names (men, women)


@cache
def nations() -> Nations:
    known = {c.code for c in countries() if c.generated_world}
    rows = list(reading.table("nation_strengths.csv", "nation", more=True))
    eras = []
    for column in rows[0].columns[1:] if rows else ():  # "1899-1939": an era's first and last year
        first, _, last = column.partition("-")
        strengths = {r.member("nation", known): r.number(column) for r in rows if r.text(column, None)}
        eras.append(NationEra(int(first), int(last), strengths))
    with reading.toml("nations.toml") as data:
        plays_from = {code: int(year) for code, year in data["plays_from"].items()}
        return Nations(
            frozenset(reading.nations_of(data["commonwealth"], known)),
            frozenset(reading.nations_of(data["no_players"], known)),
            float(data["other_strength"]),
            {code: plays_from[code] for code in reading.nations_of(plays_from, known)},
            tuple(eras),
        )


@cache
def nation_disciplines() -> dict[tuple[str, str], tuple[tuple[int, int, float], ...]]:
    """(nation, discipline) -> (from year, to year, strength) of each era it is listed for."""
    known = {c.code for c in countries() if c.generated_world}
    out: dict[tuple[str, str], list[tuple[int, int, float]]] = {}
    rows = reading.table("nation_disciplines.csv", "nation", "discipline", "from_year", "to_year", "strength")
    for r in reading.unique(rows, "nation", "discipline", "from_year"):
        key = (r.member("nation", known), r.member("discipline", {"MS", "WS", "MD", "WD", "XD"}))
        out.setdefault(key, []).append((r.integer("from_year"), r.integer("to_year"), r.number("strength")))
    return {k: tuple(v) for k, v in out.items()}


@cache
def stars() -> tuple[Star, ...]:
    known = {c.code for c in countries() if c.generated_world}
    rows = reading.table("stars.csv", "star", "discipline", "nation", "gender", "first_year", "last_year", "honours")
    return tuple(
        Star(
            r.text("star"),
            r.member("discipline", {"MS", "WS", "MD", "WD", "XD"}),
            r.member("nation", known),
            r.member("gender", {"M", "W"}),
            r.integer("first_year"),
            r.integer("last_year"),
            r.integer("honours"),
        )
        for r in reading.unique(rows, "star", "discipline")
    )


@cache
def name_pools() -> dict[str, NamePool]:
    """Pools by key, in the file's order. `given_names_of` takes another pool's given names (East
    Africa's); `families_are_fathers_names`: family names are men's given names in capitals (an
    Ethiopian's second name is their father's given name)."""
    out: dict[str, NamePool] = {}
    with reading.toml("name_pools.toml") as data:
        for key, p in data["pools"].items():
            reading.known_keys(f"pools.{key}", p, _POOL_KEYS)
            given = out[p["given_names_of"]] if "given_names_of" in p else None
            men = given.men if given else tuple(p["men"])
            women = given.women if given else tuple(p["women"])
            families = tuple(n.upper() for n in men) if p.get("families_are_fathers_names") else tuple(p["families"])
            middle = (tuple(p["middle_men"]), tuple(p["middle_women"])) if "middle_men" in p else None
            women_families = tuple(p["women_families"]) if "women_families" in p else None
            out[key] = NamePool(
                men,
                women,
                families,
                women_families,
                p.get("feminine"),
                p.get("family_first", False),
                p.get("syllables", False),
                p.get("always_two_syllables", False),
                p.get("two_given", 0.0),
                p.get("double_family", 0.0),
                middle,
            )
    return out


_POOL_KEYS = {
    "men",
    "women",
    "families",
    "given_names_of",
    "families_are_fathers_names",
    "women_families",
    "feminine",
    "family_first",
    "syllables",
    "always_two_syllables",
    "two_given",
    "double_family",
    "middle_men",
    "middle_women",
}


@cache
def nation_name_pools() -> dict[str, tuple[tuple[str, float, int], ...]]:
    """Each nation's pools: (pool, weight, born from), in the file's order."""
    known = set(name_pools())
    out: dict[str, list[tuple[str, float, int]]] = {}
    rows = reading.table("nation_name_pools.csv", "nation", "pool", "weight", "born_from")
    for r in reading.unique(rows, "nation", "pool"):
        out.setdefault(r.text("nation"), []).append(
            (r.member("pool", known), r.number("weight"), r.integer("born_from"))
        )
    return {n: tuple(p) for n, p in out.items()}


@cache
def champions() -> tuple[str, ...]:
    return tuple(r.text("name") for r in reading.table("champions.csv", "name"))
