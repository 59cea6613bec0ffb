"""How a serving worker's garbage collector is set (svc/asgi.py; the stream benchmark too).

Every open live stream keeps ~250 objects alive (Hypercorn's connection, Quart's request and
response, a few Trio tasks), so 10,000 streams are ~2.5 M objects, and a full collection walks
them all with the whole worker stopped: 760-840 ms at 10,000 streams, measured
(ops/bench/gclog.py). Two settings keep every pause short:

- A young generation of YOUNG allocations. With CPython's 700 a young collection runs every few
  hundred microseconds under load, so even the objects of one message in flight (alive for a
  millisecond) are promoted, and full collections follow each other. What the larger one costs
  is a longer young collection (a few ms).
- Survivors frozen (`gc.freeze`: moved where no collection walks them). Once at start-up (modules,
  routes, the OpenAPI description live as long as the process), and again whenever the live hub
  has seen FREEZE_AFTER streams open since the last time (`survivors_opened`): a full collection
  then walks only what came after the last freeze, a few hundred streams at most, whatever the
  number open. A frozen object is still freed by its reference count; what freezing costs is the
  frozen objects that die in a reference cycle: no collection frees them again. So every freeze
  first collects the young generations (the old one is left alone: walking it is the pause this
  avoids; what reaches it lived through two young collections, a stream or a module, rarely a
  cycle about to die), and a stream leaves no cycle behind when it ends (svc_live.stream drops
  its subscriber; Hypercorn's connection drops its protocol, below). Measured with 1,000 streams
  opened and closed: no garbage in cycles left, frozen objects back to 6.5 per stream above the
  start (the per-key caches, as many as without freezing), against 38 objects in cycles left per
  closed stream before.
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Coroutine
from typing import Any

YOUNG = 50_000  # allocations between young collections (CPython's default: 700)
FREEZE_AFTER = 100  # streams opened between freezes: ~25,000 objects, what a full collection walks at most

_settled = False  # settle() ran: this process serves (tests and tools keep CPython's collector)
_opened = 0  # streams opened since the last freeze


def settle() -> None:
    """Call once the app is built, before serving."""
    global _settled
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG, older, oldest)
    _drop_connection_cycles()
    _settled = True


def survivors_opened(streams: int) -> None:
    """`streams` long-lived streams were opened: freeze what survives once FREEZE_AFTER have been
    since the last freeze (a no-op where settle() never ran)."""
    global _opened
    if not _settled:
        return
    _opened += streams
    if _opened >= FREEZE_AFTER:
        _opened = 0
        gc.collect(1)  # the young garbage in cycles goes first: frozen, nothing would free it
        gc.freeze()


def _drop_connection_cycles() -> None:
    """Hypercorn's connection (`TCPServer`) and its protocol refer to each other (the protocol sends
    through a bound method of the connection), so a closed connection, with its socket, h11 state
    and buffers (35 objects), waits for a full collection, and forever once frozen. Once its `run`
    returns nothing of it is used again: it drops its protocol and task group then."""
    try:
        from hypercorn.trio.tcp_server import TCPServer
    except ImportError:  # not served by Hypercorn's Trio worker: nothing to do
        return
    run: Callable[[Any], Coroutine[Any, Any, None]] = TCPServer.run
    if getattr(run, "drops_cycles", False):
        return

    @functools.wraps(run)
    async def run_and_drop(self: Any) -> None:
        try:
            await run(self)
        finally:
            self.__dict__.pop("protocol", None)
            self.__dict__.pop("_task_group", None)

    run_and_drop.drops_cycles = True  # type: ignore[attr-defined]
    TCPServer.run = run_and_drop  # type: ignore[method-assign]
