"""Log format: one line per request on stderr (svc.access), warnings from the rest.

Plain text by default; with SVC_LOG_FORMAT=json every record is one JSON object per line (for
log shippers): time, level, logger, process, message, and for a request line its fields apart
(method, path, status, ms, key: the key's public prefix, never the key).
"""

from __future__ import annotations

import atexit
import datetime as dt
import logging
import logging.handlers
import queue

import orjson

REQUEST_FIELDS = ("method", "path", "status", "ms", "key")


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {"time": dt.datetime.fromtimestamp(record.created, dt.timezone.utc).isoformat(timespec="milliseconds"),
               "level": record.levelname, "logger": record.name, "process": record.process,
               "message": record.getMessage()}
        for field in REQUEST_FIELDS:
            if hasattr(record, field):
                out[field] = getattr(record, field)
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return orjson.dumps(out).decode()


def setup_logging(level: str = "INFO", form: str = "text", *, background: bool = False) -> None:
    """Logs to stderr. `background` (a serving worker): a record is only queued on the request's
    path; a thread formats and writes it, so a slow stderr (a pipe to a log shipper) never holds
    up an answer."""
    handler: logging.Handler = logging.StreamHandler()
    if form == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(name)s %(levelname)s %(message)s"))
    if background:
        records: queue.SimpleQueue = queue.SimpleQueue()
        listener = logging.handlers.QueueListener(records, handler, respect_handler_level=True)
        listener.start()
        atexit.register(listener.stop)  # what is queued is written before the process ends
        handler = logging.handlers.QueueHandler(records)
        handler.setFormatter(logging.Formatter("%(message)s"))  # queued as the message alone; formatted there
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger("hypercorn.access").disabled = True  # our own access line replaces it
    logging.getLogger("hypercorn.error").propagate = False  # it has its own handler; once is enough
