"""The live hub as a component of the app (svc.web.supervisor): one per worker, holding the
LISTEN connection, the fan-out, the stream slots and their leases; and where an app keeps the
running hub for its live endpoints, which svc.assembly hands it to each time it starts."""

from __future__ import annotations

from typing import Any

import trio

from svc.web.service import Service
from svc_live.hub import Hub
from svc_live.slots import Slots

HUB = "svc_live.hub"  # where an app keeps its running hub (app.extensions)


async def hub(service: Service, *, task_status=trio.TASK_STATUS_IGNORED) -> None:
    """Runs a new hub, with new slots, on the worker's pool and clock; its handle is the Hub."""
    slots = Slots(service.db, service.clock)
    await Hub(service.db, service.clock, slots).run(task_status=task_status)


def serve_hub(app: Any, running: Hub) -> None:
    """Gives `app`'s live endpoints the hub that just started (a restarted hub is a new one)."""
    app.extensions[HUB] = running


def hub_of(app: Any) -> Hub | None:
    """The hub `app`'s live endpoints use; None where the app runs none (a test app, a tool)."""
    return app.extensions.get(HUB)
