"""Names of invented people, by the conventions of their nation.

Each nation draws from one or more pools (Malaysia: Chinese-Malaysian, Malay and Indian
Malaysian names; the United States: from the 1970s on also the names of its Asian
diaspora). The pools, which nation draws from which and the champions are data
(svc/world/data/name_pools.toml, nation_name_pools.csv, champions.csv); this module puts
names together from them. A pool gives the given names and family names, the order the BWF writes them in
(family name first in capitals for Chinese, Korean and Vietnamese names: "WANG Zhi Yi";
given name first otherwise: "Mads NIELSEN"), the romanisation (pinyin for China,
Wade-Giles-style for Chinese Taipei, Cantonese for Hong Kong, Hokkien/Cantonese spellings for
Malaysia and Singapore), and the feminine form of family names where a language has one
(IVANOV / IVANOVA, KOWALSKI / KOWALSKA, NOVÁK / NOVÁKOVÁ).

Two rules keep invented people apart from real ones and from each other (`Namer`): no
invented person bears the name of a real player (the names of the shipped BWF data, any
order, case or accent, and the champions in CHAMPIONS), and no two players of one nation
share a full name while both are active.
"""

from __future__ import annotations

import csv
import gzip
import random
import re
from functools import lru_cache
from importlib.resources import files
from itertools import accumulate
from pathlib import Path

from svc.world.factfiles.people import NamePool, champions, name_pools, nation_name_pools
from svc.world.generate.ids import fold

# package data (the wheel and the zipapp carry them); `denied-names` rewrites the first in a checkout
DENIED_FILE = files("svc.world") / "denied_names.txt"
REAL_DATA = files("svc.world") / "sources" / "data"


# The pools and which nation draws from which (data/name_pools.toml, data/nation_name_pools.csv).
POOLS: dict[str, NamePool] = name_pools()
# Each nation's pools: (pool, weight, born from). A pool with a later "born from" joins the
# mix for players born from that year (the Asian diaspora of North America and Oceania).
NATION_POOLS: dict[str, tuple[tuple[str, float, int], ...]] = nation_name_pools()

# Champions of the years before the shipped data (2018 on): invented people never bear these
# names either (data/champions.csv). Written as the BWF writes them; any order, case or accent matches.
CHAMPIONS: tuple[str, ...] = champions()


def deny_keys(name: str) -> set[str]:
    """The keys a name is denied by: its family name folded, and the letters of its given names
    folded and sorted, so that any order, case, accent, spacing or hyphenation of the same name
    matches ("SHI Yu Qi", "Yuqi SHI", "Shi Yu-Qi"). The family name is the words in capitals
    where the name marks it ("LEONG Jun Hao"); otherwise the first or the last word may be it
    (match files write "Jun Hao Leong"), and both keys are given."""
    words = [w for w in re.split(r"[\s\-.,']+", name) if w]
    caps = [w for w in words if w.isupper() and len(w) > 1]
    if caps and len(caps) < len(words):
        splits = [(caps, [w for w in words if w not in caps])]
    else:
        splits = [(words[:1], words[1:]), (words[-1:], words[:-1])]
    return {
        fold("".join(family)) + "|" + "".join(sorted(c for c in fold("".join(given)) if c.isalpha()))
        for family, given in splits
    }


@lru_cache(maxsize=1 << 16)  # a composed name often comes again (a nation's common names): kept
def is_denied(name: str) -> bool:
    return not deny_keys(name).isdisjoint(denied())


@lru_cache(maxsize=1)
def denied() -> frozenset[str]:
    """The keys of every real player's name (the shipped data, built by `python -m
    svc.world.naming`) and of CHAMPIONS."""
    keys = set(DENIED_FILE.read_text(encoding="utf-8").splitlines())
    for n in CHAMPIONS:
        keys.update(deny_keys(n))
    return frozenset(keys)


def real_names(root: Path = REAL_DATA) -> set[str]:
    """Every player's name in the BWF data under `root` (plain or gzip-compressed CSV)."""
    out: set[str] = set()
    for path in sorted(root.glob("bwf-world-ranking/*/*.csv*")) + sorted(root.glob("bwf-world-tour/*.csv*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8", newline="") as fh:
            reader = csv.reader(fh)
            header = next(reader, [])
            cols = [
                i
                for i, h in enumerate(header)
                if h in ("name", "name_one", "name_two", "team_one_players", "team_two_players")
                or (h.startswith("team_") and (h.endswith("_player_one") or h.endswith("_player_two")))
            ]
            for row in reader:
                out.update(row[i] for i in cols if i < len(row) and row[i].strip())
    return out


def compose(rng: random.Random, nation: str, gender: str, born: int, extra_given: bool = False) -> str:
    """A name by the conventions of `nation` for a person born in `born`."""
    pools, cum_weights = _pools_of(nation, born)
    pool = POOLS[rng.choices(pools, cum_weights=cum_weights)[0]]
    givens = pool.men if gender == "M" else pool.women
    if pool.syllables:
        # two syllables mostly (Korean names always: no number is drawn for them, and the world's
        # random stream depends on that); the pools give thousands of given names, so a second
        # given name is never needed to keep names apart
        count = 2 if pool.always_two_syllables or rng.random() < 0.75 else 1
        given = " ".join(rng.sample(givens, count))
    else:
        count = 2 if extra_given or rng.random() < pool.two_given else 1
        given = " ".join(rng.sample(givens, count))
    if pool.middle is not None:
        given = rng.choice(pool.middle[0 if gender == "M" else 1]) + " " + given
    family = _family(rng, pool, gender)
    if pool.double_family and rng.random() < pool.double_family:
        second = _family(rng, pool, gender)
        if second != family:
            family = f"{family} {second}"
    return f"{family} {given}" if pool.family_first else f"{given} {family}"


@lru_cache(maxsize=4096)
def _pools_of(nation: str, born: int) -> tuple[list[str], list[float]]:
    """The pools a name of `nation` is drawn from for someone born in `born`, and their weights
    summed as random.choices sums them (the same draw, without summing for every name)."""
    choices = [(p, w) for p, w, since in NATION_POOLS[nation] if born >= since]
    return [p for p, _w in choices], list(accumulate(w for _p, w in choices))


def _family(rng: random.Random, pool: NamePool, gender: str) -> str:
    if gender == "W" and pool.women_families is not None:
        return rng.choice(pool.women_families)
    family = rng.choice(pool.families)
    if gender == "W" and pool.feminine == "ova":
        if family.endswith("SKY"):
            return family[:-3] + "SKAYA"
        if family.endswith(("OV", "EV", "YOV", "IN")):
            return family + "A"
    if gender == "W" and pool.feminine == "ska" and family.endswith(("SKI", "CKI", "DZKI")):
        return family[:-1] + "A"
    return family


class Namer:
    """Names for one world: never a real player's name, and unique within a nation among the
    people active at the same time (each name keeps the years it is in use)."""

    TRIES = 40  # after half of them a second given name widens the choice a hundredfold

    def __init__(self) -> None:
        self._in_use: dict[tuple[str, str], list[tuple[int, int]]] = {}

    def player(self, rng: random.Random, nation: str, gender: str, born: int, first: int, last: int) -> str:
        """A name for a player of `nation` active from `first` to `last` (years)."""
        name = ""
        key: tuple[str, str] = (nation, "")
        for attempt in range(self.TRIES):
            name = compose(rng, nation, gender, born, extra_given=attempt >= self.TRIES // 2)
            key = (nation, fold(name))
            spans = self._in_use.get(key)
            if spans and any(a <= last and first <= b for a, b in spans):
                continue  # (tested first: cheaper than is_denied, and either refuses the name)
            if is_denied(name):
                continue
            break
        self._in_use.setdefault(key, []).append((first, last))
        return name

    def other(self, rng: random.Random, nation: str, gender: str, born: int) -> str:
        """A name for someone who is not a player (a coach): never a real player's name."""
        name = compose(rng, nation, gender, born)
        while is_denied(name):
            name = compose(rng, nation, gender, born)
        return name


def write_denied() -> int:
    """Writes the keys of the shipped data's names to DENIED_FILE (`python -m svc denied-names`,
    run after the shipped data changes); returns how many."""
    keys = sorted({k for n in real_names() for k in deny_keys(n)})
    DENIED_FILE.write_text("\n".join(keys) + "\n", encoding="utf-8")
    return len(keys)
