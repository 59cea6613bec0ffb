"""The ASGI application each Hypercorn worker process imports (`svc.asgi:app`).

`python -m svc serve` has put the database URL in DATABASE_URL before the workers start.
Each worker runs, beside the app, the background components: the live hub (streams, slots,
fan-out), the live feed (played by whichever worker holds its advisory lock; SVC_LIVE_FEED=0
turns it off in this process) and the webhook scheduler (SVC_HOOKS=0 turns it off).
"""

from __future__ import annotations

import os

from svc_hooks.scheduler import component as hooks_component
from svc_live.components import feed as live_feed
from svc_live.components import hub as live_hub

from . import heap
from .app import create_app
from .config import Settings
from .logs import setup_logging


def _on(name: str) -> bool:
    return os.environ.get(name, "1") != "0"


setup_logging()
components = [live_hub]
if _on("SVC_LIVE_FEED"):
    components.append(live_feed)
if _on("SVC_HOOKS"):
    components.append(hooks_component)

app = create_app(os.environ["DATABASE_URL"], pool_size=Settings.from_env().pool_size,
                 cache=_on("SVC_CACHE"), components=components)

heap.settle()  # the collector set for many long-lived streams (svc/heap.py)
