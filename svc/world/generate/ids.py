"""Determinism: every random stream is a `random.Random` seeded from a sha256 of a descriptive
string (never Python's hash()), and every id is a hash of stable inputs, so the same seed,
scale and as-of give byte-identical bundles."""

from __future__ import annotations

import base64
import hashlib
import random
import unicodedata


def digest(*parts: object) -> bytes:
    return hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()


def sub_rng(*parts: object) -> random.Random:
    """An independent random stream named by `parts` (e.g. seed, series, year)."""
    return random.Random(int.from_bytes(digest(*parts)[:8], "big"))


def make_id(prefix: str, *parts: object) -> str:
    """prefix + 12 lowercase base32 characters of a hash of stable inputs (60 bits)."""
    return prefix + base64.b32encode(digest(*parts)[:10]).decode().lower()[:12]


def fold(text: str) -> str:
    """ASCII, lower case, accents dropped; letters without a decomposition spelt out (ø, æ, ß, ı)."""
    s = text.replace("ø", "o").replace("Ø", "O").replace("æ", "ae").replace("Æ", "AE").replace("ß", "ss")
    s = s.replace("ı", "i")
    return unicodedata.normalize("NFKD", s).encode("ascii", "ignore").decode().lower()


def slugify(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in fold(name)).split())
