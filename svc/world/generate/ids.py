"""Determinism: every random stream is a `random.Random` seeded from a sha256 of a descriptive
string (never Python's hash()), and every id is a hash of stable inputs, so the same seed,
scale and as-of give byte-identical bundles."""

from __future__ import annotations

import hashlib
import random
import unicodedata

from anyascii import anyascii


def digest(*parts: object) -> bytes:
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()


def sub_rng(*parts: object) -> random.Random:
    """An independent random stream named by `parts` (e.g. seed, series, year)."""
    return random.Random(int.from_bytes(digest(*parts)[:8], "big"))


def make_id(prefix: str, *parts: object) -> str:
    """prefix + 12 lowercase base32 characters of a hash of stable inputs (60 bits)."""
    return prefix + id_text(digest(*parts))


# base32 (RFC 4648, lower case) two characters at a time: ids are made for every match (twice)
# and player, and base64.b32encode is written in Python
_B32 = "abcdefghijklmnopqrstuvwxyz234567"
_B32_PAIRS = [a + b for a in _B32 for b in _B32]


def id_text(d: bytes) -> str:
    """The 12 characters of an id from its digest: what base64.b32encode(d[:10]).lower()[:12]
    gives, the first 60 bits of the digest five at a time."""
    n = int.from_bytes(d[:8], "big") >> 4
    pairs = _B32_PAIRS
    return (
        pairs[n >> 50]
        + pairs[(n >> 40) & 1023]
        + pairs[(n >> 30) & 1023]
        + pairs[(n >> 20) & 1023]
        + pairs[(n >> 10) & 1023]
        + pairs[n & 1023]
    )


def fold(text: str) -> str:
    """ASCII, lower case, as names are matched: every character transliterated by anyascii (é -> e,
    Ł -> l, đ and ð -> d, þ -> th, œ -> oe, ø -> o, ß -> ss, ’ -> '), so that a name written with or
    without its letters' marks folds the same. The database's fold() (unaccent,
    svc/sql/schema/002_world.sql) gives the same for Latin letters (tests/world/test_folding.py)."""
    return anyascii(text).lower()


def id_fold(text: str) -> str:
    """The fold ids and slugs are made with, kept as it was first written so that none ever changes
    (an id is a hash of it): NFKD, marks and whatever has no ASCII form dropped, a few letters
    spelt out. It loses Ł, đ, ð, þ and œ ("ŁUkasz" gives "ukasz"), which fold() does not, so names
    are matched by fold() and only ids and slugs come from this."""
    s = text.replace("ø", "o").replace("Ø", "O").replace("æ", "ae").replace("Æ", "AE").replace("ß", "ss")
    s = s.replace("ı", "i")
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()


def slugify(name: str) -> str:
    """A name's slug: the letters and digits of its id_fold, words joined by hyphens (a slug names
    a series or a player in URLs, so it never changes)."""
    return "-".join("".join(c if c.isalnum() else " " for c in id_fold(name)).split())
