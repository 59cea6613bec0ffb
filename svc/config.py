"""Settings read from the environment, once, in one place."""

from __future__ import annotations

import os
from pathlib import Path

import attrs


@attrs.frozen
class Settings:
    database_url: str | None  # None: start or reuse the embedded PostgreSQL
    home: Path  # where the embedded PostgreSQL keeps its files
    pool_size: int

    @classmethod
    def from_env(cls) -> "Settings":
        return cls(
            database_url=os.environ.get("DATABASE_URL") or None,
            home=Path(os.environ.get("SVC_HOME", "./var")).resolve(),
            # 2 cores: a few connections per worker keep PostgreSQL busy without queueing in it
            pool_size=int(os.environ.get("SVC_POOL_SIZE", "8")),
        )
