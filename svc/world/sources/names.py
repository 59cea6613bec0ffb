"""People's names as the public files write them, and one identity per person.

The match files write names given name first ("Viktor Axelsen", "Jun Hao Leong"), the
ranking files with the FAMILY name in capitals ("Viktor AXELSEN", "LEONG Jun Hao"), and the
same person may be spelt with other case, accents, hyphens or order across events. A
person's key is their name's parts folded (accents, case, hyphens) and sorted, with their
country: the same parts in any order and case are one person, and the same parts for two
countries are two people. Ids derive from the key, so they stay the same on every import; the
key people are matched by is folded by ids.fold (anyascii: "Łukasz" and "Lukasz" are one
person), the key an id is made from by ids.id_fold, as ids were first made, so that no id
changes ("ŁUkasz CHUDZINSKI" of the shipped lists keeps the id of "ukasz chudzinski|POL").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache

from svc.world.generate.ids import fold, id_fold, make_id

# Nations whose players' names are written family name first in BWF lists.
FAMILY_FIRST = {"CHN", "TPE", "HKG", "MAC", "KOR", "PRK", "VIE"}


def parts(name: str, folding: Callable[[str], str] | None = None) -> tuple[str, ...]:
    """The folded parts of a name (by fold(), or `folding`), sorted: the same for any order, case,
    accent or hyphen."""
    return tuple(sorted(p for p in re.split(r"[\s\-.,']+", (folding or fold)(name)) if p))


# Names repeat (27 weekly lists of ~6,900 rows, 14,000 matches): each spelling is folded once.
@cache
def person_key(name: str, country: str | None) -> str:
    return " ".join(parts(name)) + "|" + (country or "")


@cache
def id_key(name: str, country: str | None) -> str:
    """person_key with the fold ids are made with (ids.id_fold): the key a person's id comes from."""
    return " ".join(parts(name, id_fold)) + "|" + (country or "")


@cache
def joined_key(name: str, country: str | None) -> str:
    """The family name and the given names run together: "Yu Qi Shi", "Yuqi Shi" and "SHI Yu Qi"
    are one person. The family name is the words in capitals where a list marks it ("SHI Yu
    Qi"), else the last word (the match files write given names first)."""
    words = [w for w in re.split(r"[\s\-.,']+", name) if w]
    family = family_of(name) if any(w.isupper() for w in words) and not all(w.isupper() for w in words) else []
    if not family:
        family = words[-1:]
    given = [w for w in words if w not in family]
    return fold("".join(family)) + "|" + fold("".join(given)) + "|" + (country or "")


class Identities:
    """One identity per person over every spelling seen: spellings whose parts are the same in
    any order (person_key) or whose family and given names run together are the same
    (joined_key) are one person. The id comes from the smallest id_key of the group's spellings
    (what the smallest person_key was before fold() took anyascii: the same id), so it depends on
    which spellings exist, never on the order rows come in."""

    def __init__(self) -> None:
        self._parent: dict[str, str] = {}
        self._id_key: dict[str, str] = {}  # a group's leader -> the smallest id_key of its spellings

    def _find(self, k: str) -> str:
        root = k
        while self._parent.setdefault(root, root) != root:
            root = self._parent[root]
        while self._parent[k] != root:
            self._parent[k], k = root, self._parent[k]
        return root

    def add(self, name: str, country: str | None) -> None:
        a, b = self._find(person_key(name, country)), self._find("joined:" + joined_key(name, country))
        keys = [id_key(name, country), *(self._id_key.pop(k) for k in {a, b} if k in self._id_key)]
        if a != b:
            # the smaller person_key leads the group (joined keys never lead)
            lo, hi = sorted((a, b), key=lambda k: (k.startswith("joined:"), k))
            self._parent[hi] = lo
        self._id_key[self._find(a)] = min(keys)

    def key(self, name: str, country: str | None) -> str:
        """The group's key for a spelling already added."""
        return self._find(person_key(name, country))

    def id_of(self, name: str, country: str | None) -> str:
        """The player id of the group of a spelling already added."""
        return player_id(self._id_key[self.key(name, country)])

    def known(self, name: str, country: str | None) -> str | None:
        """The group's key of a person already seen under this spelling or one that is the same
        person (the same parts, or the family and given names run together), without adding
        the spelling; None for a person not seen. Looking up never merges two groups, so a
        later source (the public record) links to the people of the files without moving
        their ids."""
        for k in (person_key(name, country), "joined:" + joined_key(name, country)):
            if k in self._parent:
                return self._find(k)
        return None


def player_id(key: str) -> str:
    return make_id("pl_", "bwf-person", key)


def family_of(ranking_name: str) -> list[str]:
    """The family name's words in a ranking list's name: those written in capitals."""
    return [w for w in ranking_name.split() if w.isupper() and any(c.isalpha() for c in w) and len(w) > 1]


def initials_fit(written: str, other: str) -> bool:
    """Whether a name written with initials ("P. V. Sindhu", as the public record writes some
    Indian names) is another spelling of `other` ("PUSARLA V. Sindhu"): as many parts, each full
    word of the one a part of the other, and each initial the first letter of one of the rest."""
    mine, theirs = list(parts(written)), list(parts(other))
    initials = sorted(w for w in mine if len(w) == 1)
    if not initials or len(mine) != len(theirs):
        return False
    for word in (w for w in mine if len(w) > 1):
        if word not in theirs:
            return False
        theirs.remove(word)
    return sorted(w[0] for w in theirs) == initials


def family_marked(written: str, country: str | None) -> str:
    """A name as the public record writes it (Wikipedia: the family name first for the nations
    of FAMILY_FIRST, "Lin Dan", "Lee Yong-dae"; last otherwise, "Viktor Axelsen") with its family
    name in capitals, as ranking lists write it ("LIN Dan", "Viktor AXELSEN"): the capitals tell
    joined_key the family name, so "Shi Yuqi" is the "SHI Yu Qi" of the lists."""
    words = written.split()
    if len(words) < 2:
        return written.upper()
    if country in FAMILY_FIRST:
        return " ".join([words[0].upper(), *words[1:]])
    return " ".join([*words[:-1], words[-1].upper()])


def list_name(given_first: str, country: str | None) -> str:
    """A match file's name written as lists write it: the last word is taken for the family
    name, in capitals, first for nations that put it first ("LEONG Jun Hao" is only known from
    a ranking list; a match file alone gives "Jun Hao LEONG" for MAS)."""
    words = given_first.split()
    if len(words) < 2:
        return given_first.upper()
    family, given = words[-1].upper(), " ".join(words[:-1])
    return f"{family} {given}" if country in FAMILY_FIRST else f"{given} {family}"
