"""Server-Sent Events on the wire (https://html.spec.whatwg.org/multipage/server-sent-events.html).

Event names of /v1/live/stream (also in the endpoint's description):
  match      a match in play: on connect one per match, afterwards one per change of score,
             status or prices (the last one of a match has status finished); `id:` is the
             change's seq, for Last-Event-ID
  heartbeat  every 15 s; data {"at": time}; no id
  end        the connection is over; data {"reason", "reconnect_after_ms"}, reason one of
             time (its ~5 minutes are up), behind (the reader fell 256 changes behind),
             slot_lost (its slot lease expired, e.g. the worker was stalled), shutdown
             (the worker is stopping); reconnect with Last-Event-ID
"""

from __future__ import annotations

RETRY_MS = 1000  # browsers reconnect one second after a stream ends


def message(event: str, data: str, id: int | None = None) -> bytes:
    """One SSE message. `data` must be one line of JSON (ours always is)."""
    head = f"event: {event}\n" + (f"id: {id}\n" if id is not None else "")
    return (head + f"data: {data}\n\n").encode()


def preamble() -> bytes:
    """The first bytes of every stream: the reconnect delay and a comment (some proxies
    hold a response until the first bytes arrive)."""
    return f"retry: {RETRY_MS}\n: live stream\n\n".encode()
