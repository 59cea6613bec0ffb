"""The probes: no key, never counted, never stored by a cache.

/livez: 200 whenever the process's event loop runs (answering proves it), touching nothing else --
a liveness probe that read the database would have every pod restarted during a database outage,
which a restart cannot mend. /readyz (and /healthz, its older name): 200 when the database answers
within a second and every component runs; 503 otherwise (a load balancer stops sending work here)."""

from __future__ import annotations

import orjson
import trio
from quart import Response

from svc.core.db import DatabaseUnavailable
from svc.core.sqlfiles import Q
from svc.web.responses import json_reply
from svc.web.service import Service
from svc.web.supervisor import Supervisor

DATABASE_WITHIN_S = 1.0  # a database slower than this to answer one small statement counts as unreachable


def live() -> Response:
    return json_reply(b'{"status":"ok"}', 200, {"Cache-Control": "no-store"}).response()


async def ready(service: Service, supervisor: Supervisor) -> Response:
    database = "unreachable"
    with trio.move_on_after(DATABASE_WITHIN_S):
        try:
            await service.db.fetchval(Q.world.has_matches)
            database = "ok"
        except DatabaseUnavailable:
            pass
    ready = database == "ok" and all(state == "running" for state in supervisor.health.values())
    body = {"status": "ok" if ready else "not_ready", "database": database, "components": dict(supervisor.health)}
    return json_reply(orjson.dumps(body), 200 if ready else 503, {"Cache-Control": "no-store"}).response()
