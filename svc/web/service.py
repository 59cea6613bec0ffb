"""What one worker process shares among all its requests: the pool, the clock, the answer
cache, the settings, the take-backs it owes, and the background components that run beside the app (each sets its
own field when it starts; None where this process does not run it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from svc.access.take_backs import TakeBacks
from svc.core.clock import Clock
from svc.core.db import Database
from svc.core.settings import Settings
from svc.web.cache import AnswerCache

if TYPE_CHECKING:  # types only: the components live in higher layers and import this module
    from svc.world.feed.feed import Feed
    from svc_hooks.scheduler import Scheduler
    from svc_live.hub import Hub
    from svc_live.slots import Slots


@attrs.define(eq=False)
class Service:
    db: Database
    clock: Clock
    settings: Settings
    cache: AnswerCache | None = None
    # calls refused after they were counted, to take back once the database answers again
    take_backs: TakeBacks = attrs.field(default=attrs.Factory(lambda self: TakeBacks(self.db), takes_self=True))
    hub: Hub | None = None  # svc_live: this worker's streams and their fan-out
    slots: Slots | None = None  # svc_live: the per-key stream slots the hub renews
    feed: Feed | None = None  # svc.world.feed: tries to play the world forward (one worker wins the lock)
    hooks: Scheduler | None = None  # svc_hooks: webhook deliveries
    coverage: tuple[str, str | None] | None = None  # (data version, the world's note on what it lacks)
    # each component's state for /healthz: starting, running, restarting (after a failure), stopped
    health: dict[str, str] = attrs.field(factory=dict)
