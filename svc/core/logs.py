"""Log format: one line per request on stderr (svc.access), warnings from the rest.

Plain text by default; with SVC_LOG_FORMAT=json every record is one JSON object per line (for
log shippers): time, level, logger, process, message, and for a request line its fields apart
(method, path, status, ms, key: the key's public prefix, never the key; request_id: the answer's
Request-Id), and a traceback in `exception`, never inside `message`.

A record is one line whatever it holds: a path or a name comes from the client, and a decoded
`%0A` in it must not start a forged line, nor a `%00` put a NUL into the log. In text, the
message's control characters are escaped (a newline as `\\n`, a NUL as `\\x00`, a backslash
doubled so that an escape cannot be forged either); a traceback follows on lines of its own, each
indented, so that none can pass for a record. JSON escapes them by its own rules.
"""

from __future__ import annotations

import atexit
import copy
import datetime as dt
import logging
import logging.handlers
import queue
import re

import orjson

REQUEST_FIELDS = ("method", "path", "status", "ms", "key", "request_id")
TEXT_FORMAT = "%(asctime)s %(process)d %(name)s %(levelname)s %(message)s"
TRACEBACK_INDENT = "    "

# C0 and C1 controls, DEL, and the Unicode line and paragraph separators (line breaks to many
# readers), plus the backslash that starts an escape.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\\\\]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}


def _escape_one(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"


def escape(text: str) -> str:
    """`text` on one line, every control character visible as an escape."""
    return _UNSAFE.sub(_escape_one, text)


class TextLines(logging.Formatter):
    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        safe = copy.copy(record)  # the record may go to other handlers too: it is left as it came
        safe.message = escape(record.getMessage())
        safe.asctime = self.formatTime(record, self.datefmt)
        line = self.formatMessage(safe)
        trace = record.exc_text or (self.formatException(record.exc_info) if record.exc_info else "")
        for extra in (trace, record.stack_info):
            if extra:
                line += "\n" + _indented(extra)
        return line


def _indented(text: str) -> str:
    return "\n".join(TRACEBACK_INDENT + escape(line) for line in text.splitlines())


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "process": record.process,
            "message": record.getMessage(),
        }
        for field in REQUEST_FIELDS:
            if hasattr(record, field):
                out[field] = getattr(record, field)
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            out["exception"] = record.exc_text
        return orjson.dumps(out).decode()


class _Queued(logging.handlers.QueueHandler):
    """Queues a record with its message made (its arguments may change once the call returns)
    and its traceback as text in exc_text, apart from the message: the writing thread's formatter
    puts it where its format wants it (the standard QueueHandler merges it into the message)."""

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        queued = copy.copy(record)
        queued.message = queued.msg = record.getMessage()
        queued.args = None
        if record.exc_info and not record.exc_text:
            queued.exc_text = logging.Formatter().formatException(record.exc_info)
        queued.exc_info = None  # the traceback's frames are not kept alive in the queue
        return queued


def setup_logging(level: str = "INFO", form: str = "text", *, background: bool = False) -> None:
    """Logs to stderr. `background` (a serving worker): a record is only queued on the request's
    path; a thread formats and writes it, so a slow stderr (a pipe to a log shipper) never holds
    up an answer."""
    handler: logging.Handler = logging.StreamHandler()
    handler.setFormatter(JsonLines() if form == "json" else TextLines())
    if background:
        records: queue.SimpleQueue[logging.LogRecord] = queue.SimpleQueue()
        listener = logging.handlers.QueueListener(records, handler, respect_handler_level=True)
        listener.start()
        atexit.register(listener.stop)  # what is queued is written before the process ends
        handler = _Queued(records)
    logging.basicConfig(level=level, handlers=[handler])
    logging.getLogger("hypercorn.access").disabled = True  # our own access line replaces it


def hypercorn_error_log() -> logging.Logger:
    """The logger to give Hypercorn as its error log (Config.errorlog): its records then go through
    the handler above, escaped and in the chosen format, rather than a handler of its own."""
    return logging.getLogger("hypercorn.error")
