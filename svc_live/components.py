"""What `serve` starts in each worker's app nursery (svc.app.create_app(components=...)).

    hub   every worker: the LISTEN connection, fan-out, stream sessions, stream slots
    feed  every worker tries; the one holding the feed's advisory lock plays the world
"""

from __future__ import annotations

import os

import trio

from .hub import Hub
from .slots import Slots

HUB = "live_hub"
SLOTS = "live_slots"


async def hub(service, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    slots = Slots(service.db, service.clock)
    the_hub = Hub(service.db, service.clock, slots)
    service.parts[SLOTS] = slots
    service.parts[HUB] = the_hub
    await the_hub.run(task_status=task_status)


def feed_speed() -> float:
    """SVC_LIVE_SPEED (set by `serve --live-speed`): how many seconds of play per second."""
    try:
        speed = float(os.environ.get("SVC_LIVE_SPEED", "1") or 1)
    except ValueError:
        return 1.0
    return speed if speed > 0 else 1.0


async def feed(service, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    from .feed import Feed

    the_feed = Feed(service.db, service.clock, speed=feed_speed())
    service.parts["live_feed"] = the_feed
    await the_feed.run(task_status=task_status)


ALL = (hub, feed)
