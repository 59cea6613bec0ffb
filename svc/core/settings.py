"""Settings read from the environment, once, in one place: every variable the service reads
is a field here (README, "Environment"). Everything else takes a Settings or the values in it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import attrs


def _on(env: Mapping[str, str], name: str) -> bool:
    return env.get(name, "1") != "0"


def _seconds(text: str, default: float) -> float:
    """A positive number of seconds; anything else is the default (a typo never turns a limit off)."""
    try:
        value = float(text)
    except ValueError:
        return default
    return value if value > 0 else default


def _speed(text: str) -> float:
    try:
        speed = float(text or 1)
    except ValueError:
        return 1.0
    return speed if speed > 0 else 1.0


@attrs.frozen
class Settings:
    database_url: str | None = None  # DATABASE_URL; None: start or reuse the embedded PostgreSQL
    # DATABASE_REPLICA_URL: streaming standbys of DATABASE_URL (comma-separated URLs) for the archive
    # reads that tolerate lag (svc.core.replicas); none: every read on the primary
    replica_urls: tuple[str, ...] = ()
    home: Path = Path("./var").resolve()  # SVC_HOME: where the embedded PostgreSQL keeps its files
    # SVC_POOL_SIZE: 2 cores: a few connections per worker keep PostgreSQL busy without queueing in it
    pool_size: int = 8
    log_level: str = "INFO"  # SVC_LOG_LEVEL
    log_format: str = "text"  # SVC_LOG_FORMAT: text, or json (one JSON object per line)
    cache: bool = True  # SVC_CACHE=0: every answer from SQL
    live_feed: bool = True  # SVC_LIVE_FEED=0: this process never plays the world forward
    live_speed: float = 1.0  # SVC_LIVE_SPEED (serve --live-speed): seconds of play per second
    hooks: bool = True  # SVC_HOOKS=0: no webhook scheduler in this process
    hooks_allow_local: bool = False  # SVC_HOOKS_ALLOW_LOCAL=1: http and loopback targets (development only)
    # SVC_HOOKS_CLAIM_S: how long a claimed delivery is a worker's before another may send it again (a
    # worker that died mid-send); the scheduler raises a value too short to outlive one send
    hooks_claim_s: float = 60.0
    smtp_url: str = ""  # SVC_SMTP_URL: smtp://host:port for the notice that an endpoint was paused
    smtp_from: str = "webhooks@localhost"  # SVC_SMTP_FROM
    scale: str = "demo"  # SVC_SCALE: the world `serve` generates into an empty database
    # SVC_KEEP_ALIVE_S: an idle connection (no request in progress) is closed after this long, also
    # after its last answer; Hypercorn's default, long enough for a client's next call in a burst
    keep_alive_s: float = 5.0
    # SVC_PUBLIC_URL: where people reach the service (scheme://host[:port]), for links made without a
    # request to take the host from: the docs links of the tools over stdio (`python -m svc mcp`)
    public_url: str = "http://localhost:8000"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if env is None else env
        return cls(
            database_url=env.get("DATABASE_URL") or None,
            replica_urls=tuple(url.strip() for url in env.get("DATABASE_REPLICA_URL", "").split(",") if url.strip()),
            home=Path(env.get("SVC_HOME", "./var")).resolve(),
            pool_size=int(env.get("SVC_POOL_SIZE", "8")),
            log_level=env.get("SVC_LOG_LEVEL", "INFO").upper(),
            log_format="json" if env.get("SVC_LOG_FORMAT", "").lower() == "json" else "text",
            cache=_on(env, "SVC_CACHE"),
            live_feed=_on(env, "SVC_LIVE_FEED"),
            live_speed=_speed(env.get("SVC_LIVE_SPEED", "1")),
            hooks=_on(env, "SVC_HOOKS"),
            hooks_allow_local=env.get("SVC_HOOKS_ALLOW_LOCAL", "") == "1",
            hooks_claim_s=_seconds(env.get("SVC_HOOKS_CLAIM_S", ""), 60.0),
            smtp_url=env.get("SVC_SMTP_URL", ""),
            smtp_from=env.get("SVC_SMTP_FROM", "webhooks@localhost"),
            scale=env.get("SVC_SCALE", "demo"),
            keep_alive_s=_seconds(env.get("SVC_KEEP_ALIVE_S", ""), 5.0),
            public_url=env.get("SVC_PUBLIC_URL", "").rstrip("/") or "http://localhost:8000",
        )
