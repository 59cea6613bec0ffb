"""Country names and codes as the BWF's public files write them, turned into IOC codes.

The match files carry three-letter codes (mostly IOC already); the ranking files carry a
country NAME, sometimes with a federation's name around it ("National Olympic Committee
KENYA"). NAMES maps every spelling seen in those files: the English names of the service's one
country table (svc/world/data/countries.csv, which the generated world reads too) and the
other spellings of data/country_spellings.csv. `code_of` tries the name, then the name with a
leading three-letter code ("TUN Tunisia"), and returns None for anything else, which the
importer reports. `nationality_code` reads a match file's nationality the same way.
Neither ever makes a code up: what the mapping does not know is an unknown country, never a
new one.
"""

from __future__ import annotations

from functools import cache

from svc.world.factfiles import places
from svc.world.generate.ids import fold

# IOC code -> English name, for every nation in the public BWF files: the rows of the one country
# table (data/countries.csv) marked as theirs.
IOC = {c.code: c.name for c in places.countries() if c.bwf_files}


def _fold(text: str) -> str:
    return " ".join(fold(text).replace("&", " and ").replace(".", " ").split())


# Folded spelling -> IOC code: the English names, then the ranking files' other spellings.
NAMES = {_fold(name): code for code, name in IOC.items()} | places.country_spellings()


# 163 spellings in the shipped files, asked some 860,000 times by a full import: each is read once.
@cache
def code_of(name: str) -> str | None:
    """The IOC code of a country as the BWF's files write it; None when unknown."""
    folded = _fold(name)
    if folded in NAMES:
        return NAMES[folded]
    head, _, rest = name.strip().partition(" ")
    if len(head) == 3 and head.isupper() and head in IOC:  # "TUN Tunisia", "FGU FRENCH GUIANA" ...
        return head
    if rest and _fold(rest) in NAMES:
        return NAMES[_fold(rest)]
    return None


def nationality_code(written: str) -> str | None:
    """The IOC code of a player's nationality as a match file writes it: a code IOC holds
    ("THA"), else a country name the ranking files' mapping knows ("Thailand"); None when
    unknown ("XYZ") or empty."""
    written = written.strip()
    if written in IOC:
        return written
    return code_of(written) if written else None
