"""What every request of one worker process shares: the pool, the clock, the answer cache, the
key cache and blocks of calls (svc.access.allowances), the take-backs it owes and the world's note on what it lacks.

Nothing else: the components that run beside the app (the live hub, the feed, the webhook
scheduler) are started by svc.assembly, which hands each one's handle to whoever uses it
(svc.web.supervisor); a request never reaches them through here.
"""

from __future__ import annotations

import attrs

from svc.access.allowances import Allowances
from svc.access.take_backs import TakeBacks
from svc.core.clock import Clock
from svc.core.db import Database
from svc.web.cache import AnswerCache


@attrs.define(eq=False)
class Service:
    db: Database
    clock: Clock
    cache: AnswerCache | None = None
    # calls refused after they were counted, to take back once the database answers again
    take_backs: TakeBacks = attrs.field(default=attrs.Factory(lambda self: TakeBacks(self.db), takes_self=True))
    # the key cache, the data version and the blocks of calls this worker holds
    allowances: Allowances = attrs.field(
        default=attrs.Factory(lambda self: Allowances(self.db, self.clock), takes_self=True)
    )
    coverage: tuple[str, str | None] | None = None  # (data version, the world's note on what it lacks)
