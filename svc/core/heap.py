"""How a serving worker's garbage collector is set (svc/asgi.py; the stream benchmark too).

Every open live stream keeps ~300 objects alive (Hypercorn's connection, Quart's request and
response, a few Trio tasks), so 5,000 streams are ~1.5 M objects, and a full collection walks
them all with the whole worker stopped: 1.5 s at 5,000 streams, measured (ops/bench/gclog.py).
Full collections come when enough objects were promoted to the old generation since the last
one. With the default young threshold (700 allocations) a young collection runs every few
hundred microseconds under load, so even the objects of one message in flight (alive for a
millisecond) are promoted, and full collections follow each other. A young generation of
YOUNG allocations lets such objects die young; what it costs is a longer young collection
(a few ms). The objects made while starting (modules, routes, the OpenAPI description) live
as long as the process: frozen, no collection walks them again.
"""

from __future__ import annotations

import gc

YOUNG = 50_000  # allocations between young collections (CPython's default: 700)


def settle() -> None:
    """Call once the app is built, before serving."""
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG, older, oldest)
