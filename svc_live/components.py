"""The live hub as a component of the app (svc.web.app.Component): one per worker, holding
the LISTEN connection, the fan-out, the stream slots and their leases."""

from __future__ import annotations

import trio

from svc.web.service import Service
from svc_live.hub import Hub
from svc_live.slots import Slots


async def hub(service: Service, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    slots = Slots(service.db, service.clock)
    the_hub = Hub(service.db, service.clock, slots)
    service.slots = slots
    service.hub = the_hub
    await the_hub.run(task_status=task_status)
