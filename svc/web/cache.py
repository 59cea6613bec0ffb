"""Ready-made answers: JSON bytes keyed by (endpoint, parameters, plan), valid while the
data version is unchanged and for at most a few seconds on live-affected endpoints. An answer is
kept in both its forms (svc.web.encoding): plain and, when big enough, gzipped -- compressed once,
as it is stored, since most HTTP clients ask for gzip.

The data version moves on every import (svc/world/derived.py); each worker keeps it in memory,
told of every move by NOTIFY and from every claim of calls (svc.access.allowances), so a hit on a
key whose calls the worker holds costs no database round trip at all. Times are read from the
service clock (Trio's), so tests can move them.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable

from svc.core.clock import Clock
from svc.web.encoding import Encoded

MAX_BYTES = 64 * 1024 * 1024  # a worker's whole cache; least recently used answers go first
MAX_ENTRY = 2 * 1024 * 1024  # bigger answers are rare and cheap to rebuild relative to their size


class AnswerCache:
    def __init__(self, clock: Clock, max_bytes: int = MAX_BYTES) -> None:
        self._clock = clock
        self._max_bytes = max_bytes
        self._bytes = 0
        self._entries: OrderedDict[Hashable, tuple[str, float, Encoded]] = OrderedDict()

    def get(self, key: Hashable, version: str) -> Encoded | None:
        entry = self._entries.get(key)
        if entry is None or entry[0] != version or entry[1] <= self._clock.timestamp():
            return None
        self._entries.move_to_end(key)
        return entry[2]

    def put(self, key: Hashable, version: str, answer: Encoded, ttl: float) -> None:
        if ttl <= 0 or len(answer.plain) > MAX_ENTRY:
            return
        if answer.compressible:
            answer.gzipped()  # now, so that the bytes counted are all the entry will hold
        old = self._entries.pop(key, None)
        if old is not None:
            self._bytes -= old[2].size
        self._entries[key] = (version, self._clock.timestamp() + ttl, answer)
        self._bytes += answer.size
        while self._bytes > self._max_bytes:
            _, (_, _, dropped) = self._entries.popitem(last=False)
            self._bytes -= dropped.size
