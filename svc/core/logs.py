"""Log format: one line per request on stderr (svc.access), warnings from the rest."""

from __future__ import annotations

import logging


def setup_logging(level: str = "INFO") -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(process)d %(name)s %(levelname)s %(message)s")
    logging.getLogger("hypercorn.access").disabled = True  # our own access line replaces it
    logging.getLogger("hypercorn.error").propagate = False  # it has its own handler; once is enough
