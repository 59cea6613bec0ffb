"""`python -m svc serve` as a separate process on a free port of 127.0.0.1, for tests that need
real sockets, real workers and the real supervisor."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def workers_of(pid: int) -> set[int]:
    """The worker processes of a `serve` supervisor (its children but multiprocessing's resource
    tracker)."""
    out = set()
    for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        if b"spawn_main" in cmdline:
            out.add(int(child))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve_process(
    db_url: str, home: Path, *args: str, port: int | None = None, **env: str
) -> Iterator[tuple[subprocess.Popen, str]]:
    """The process and its base URL; `args` are more `serve` options, `env` more variables (the
    log level is WARNING unless given). Its output goes to home/server-<port>.log. At the end it
    is asked to stop, and killed if it has not within 15 s."""
    port = port or free_port()
    variables = {**os.environ, "DATABASE_URL": db_url, "SVC_HOME": str(home), "SVC_LOG_LEVEL": "WARNING", **env}
    with open(home / f"server-{port}.log", "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "svc", "serve", "--port", str(port), *args],
            env=variables,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            yield proc, f"http://127.0.0.1:{port}"
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
