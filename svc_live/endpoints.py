"""The live hub's own endpoints: /v1/live (the matches in play) and /v1/live/stream (them as
Server-Sent Events, svc_live.stream)."""

from __future__ import annotations

import datetime as dt

import attrs

from svc.core.errors import ApiError
from svc.core.sqlfiles import Q
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.live_records import LiveMatch, live_from_row
from svc.web.params import discipline_param
from svc.web.responses import Streamed
from svc_live.components import hub_of
from svc_live.stream import open_stream

STREAM_DOC = (
    "Server-Sent Events (text/event-stream). On connect every match in play is sent; then each match again "
    "the moment its score, status or prices change; a heartbeat every 15 s; after about 5 minutes the "
    "connection ends (one call). Events: `match` (data: the match as /v1/live shows it; `id:` is the change's "
    'sequence number), `heartbeat` (data {"at"}), `end` (data {"reason": "time", "behind", "slot_lost" or '
    '"shutdown" (the server is stopping), "reconnect_after_ms"}). Reconnect with `Last-Event-ID` to receive '
    "first what changed since (kept for "
    "10 minutes; further behind, every match in play is sent afresh). At most two streams at a time per key: "
    "a third answers 429 too_many_streams with Retry-After while the first two keep flowing. A reader that "
    "falls 256 changes behind is dropped (event end, reason behind) and resumes by Last-Event-ID. In a "
    "browser, EventSource cannot send the key header: /live shows how a service worker (/live-worker.js) "
    "adds it, so the browser's own EventSource reconnects and resumes."
)


@attrs.frozen
class LiveParams:
    discipline: str | None = discipline_param("Only matches of this discipline.")


@endpoint(
    "/v1/live",
    plan="live",
    summary="Matches under way now with the score so far",
    params=LiveParams,
    returns=LiveMatch,
    many=True,
    description="Every match in play: its games so far (the last is the game in play), the game number "
    "and score in play, who serves next where known, and in-play prices. Status is live "
    "(the results feed's vocabulary). `meta.as_of` is the world's time as played (ahead of the "
    "clock when the demo world plays faster); `meta.next_start_at`, the start of the next match "
    "scheduled after it, and `meta.next_edition` (id, name, city, start_date), the next edition to "
    "begin (its draw is made on its first day): when nothing is in play, when play resumes.",
)
async def live(call: Call) -> Answer:
    rows = await call.db.fetch(Q.live.in_play, discipline=call.p.discipline)
    clock = await call.db.fetchrow(Q.live.clock, now=call.clock.now())
    assert clock is not None  # the statement is one row of aggregates, with nulls where none is
    edition = None
    if clock["next_edition"] is not None:
        edition = {
            "id": clock["next_edition"],
            "name": clock["next_edition_name"],
            "city": clock["next_edition_city"],
            "start_date": clock["next_edition_start"].isoformat(),
        }
    return Answer(
        [live_from_row(r) for r in rows],
        {
            "count": len(rows),
            "as_of": _utc(clock["at"]),
            "next_start_at": _utc(clock["next_start_at"]) if clock["next_start_at"] else None,
            "next_edition": edition,
        },
    )


def _utc(at: dt.datetime) -> str:
    return at.astimezone(dt.UTC).isoformat().replace("+00:00", "Z")


@endpoint(
    "/v1/live/stream",
    plan="live",
    summary="Live scores as Server-Sent Events",
    params=LiveParams,
    returns=LiveMatch,
    many=True,
    description=STREAM_DOC,
    media_type="text/event-stream",
)
async def live_stream(call: Call) -> Streamed:
    hub = hub_of(call.app)  # handed over by svc.assembly each time the hub starts
    if hub is None:  # this process runs without the hub (a test app, a tool)
        raise ApiError(
            "unavailable", "the live stream is not running in this process; retry shortly", headers={"Retry-After": "2"}
        )
    return await open_stream(
        hub, hub.slots, call.db, call.caller.key_id, call.p.discipline, _header(call, "Last-Event-ID")
    )


def _header(call: Call, name: str) -> str | None:
    values = call.headers.getlist(name) if call.headers is not None else []
    return values[0] if values else None
