"""The ASGI application each Hypercorn worker process imports (`svc.asgi:app`).

`python -m svc serve` has put the database URL in DATABASE_URL before the workers start.
"""

from __future__ import annotations

import os

from .app import create_app
from .config import Settings
from .logs import setup_logging

setup_logging()
app = create_app(os.environ["DATABASE_URL"], pool_size=Settings.from_env().pool_size,
                 cache=os.environ.get("SVC_CACHE", "1") != "0")
