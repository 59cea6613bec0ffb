"""The ASGI application each Hypercorn worker process imports (`svc.asgi:app`).

`python -m svc serve` has put the database URL in DATABASE_URL before the workers start.
Each worker runs, beside the app, the components of svc.assembly.serving_components: the live
hub, the live feed (played by whichever worker holds its advisory lock; SVC_LIVE_FEED=0 turns
it off in this process) and the webhook scheduler (SVC_HOOKS=0 turns it off); and the tools
for AI assistants at /mcp (svc.tools).
"""

from __future__ import annotations

from svc.assembly import serving_app
from svc.core import heap
from svc.core.logs import setup_logging
from svc.core.settings import Settings

settings = Settings.from_env()
setup_logging(settings.log_level, settings.log_format, background=True)
if settings.database_url is None:
    raise SystemExit("svc.asgi needs DATABASE_URL (python -m svc serve sets it for its workers)")
app = serving_app(settings)

heap.settle()  # the collector set for many long-lived streams (svc/core/heap.py)
