"""The components that run beside the app for its lifetime (the live hub, the feed, the webhook
scheduler, the tools' sessions), and the app-lifetime tasks beside them (the take-backs).

A component is `async def run(service, *, task_status=trio.TASK_STATUS_IGNORED)`: it runs on the
worker's pool and clock (`service`) and calls `task_status.started(handle)` once ready, its
handle being what others use it through (the Hub, the Feed, the Scheduler). svc.assembly names
each component and says who is handed its handle (`hand`); this module runs them:

- each in the app's nursery, started before the app serves (trio's `nursery.start`): a failure
  before the first start fails the app's start-up;
- one that fails after it started is logged loudly and started again after a back-off, so a
  worker never goes on serving with a dead hub, feed or scheduler; every start hands its new
  handle over again (a restarted hub is a new hub);
- at shutdown each is cancelled first (else the lifespan nursery would wait on it forever) and
  given CLEANUP_S to finish its cleanup (stream slots released) before the pool closes;
- each one's state for /healthz: starting, running, restarting (after a failure), stopped.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import attrs
import trio
from quart_trio import QuartTrio

from svc.web.service import Service

log = logging.getLogger("svc.web.supervisor")

CLEANUP_S = 5  # at shutdown: time for components to release what they hold
BACKOFF_S = (1.0, 30.0)  # a failed component starts again after 1 s, doubling up to 30 s
GOOD_RUN_S = 60.0  # ... and after this long running well, its back-off starts afresh

Run = Callable[..., Awaitable[None]]  # async def run(service, *, task_status=trio.TASK_STATUS_IGNORED)
Hand = Callable[[Any], None]  # given a component's handle each time it starts


@attrs.define(eq=False)
class Supervised:
    """One component as the supervisor runs it, with the handle it gave when it last started."""

    name: str
    run: Run
    hand: Hand | None = None
    handle: Any = None


class Supervisor:
    def __init__(self, service: Service) -> None:
        self._service = service
        self._components: dict[str, Supervised] = {}
        self._running: list[tuple[trio.CancelScope, trio.Event]] = []  # what stop() cancels and waits for
        # each started component's state, as /healthz shows it
        self.health: dict[str, str] = {}

    def add(self, run: Run, *, name: str | None = None, hand: Hand | None = None) -> None:
        """A component to start with the app: named `name` on /healthz (by default its function's
        name), its handle given to `hand` each time it starts. Before the app serves only."""
        name = name or run.__name__
        if name in self._components:
            raise ValueError(f"two components named {name!r}")
        self._components[name] = Supervised(name, run, hand)

    def handle(self, name: str) -> Any:
        """The handle the component `name` gave when it last started (None before it started)."""
        return self._components[name].handle

    async def start(self, nursery: trio.Nursery, *tasks: Run) -> None:
        """Starts `tasks` (run once, never restarted: `async def task(*, task_status)`), then every
        component; returns once all have started."""
        for task in tasks:
            await nursery.start(self._in_scope, task)
        for component in self._components.values():
            await nursery.start(self._in_scope, partial(self._keep_running, component))

    async def stop(self) -> None:
        """Cancels every task and component, and waits up to CLEANUP_S for their cleanup."""
        for scope, _ in self._running:
            scope.cancel()
        with trio.move_on_after(CLEANUP_S):
            for _, done in self._running:
                await done.wait()

    async def _in_scope(self, run: Run, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        done = trio.Event()
        try:
            with trio.CancelScope() as scope:
                self._running.append((scope, done))
                await run(task_status=task_status)
        finally:
            done.set()

    async def _keep_running(self, component: Supervised, *, task_status: Any) -> None:
        """Runs a component for the app's lifetime: started again after a failure (1 s doubling to
        30 s; back to 1 s after a minute of good running), unless it never started."""
        status = _Started(self, component, task_status)
        backoff = BACKOFF_S[0]
        while True:
            self.health[component.name] = "starting"
            began = trio.current_time()
            try:
                await component.run(self._service, task_status=status)
                self.health[component.name] = "stopped"
                return
            except Exception:
                if status.outer is not None:
                    raise  # never started: the app must not serve without it
                if trio.current_time() - began > GOOD_RUN_S:
                    backoff = BACKOFF_S[0]
                self.health[component.name] = "restarting"
                log.exception("component %s failed; starting it again in %.0f s", component.name, backoff)
            await trio.sleep(backoff)
            backoff = min(BACKOFF_S[1], backoff * 2)


class _Started:
    """The task_status a component is given: marks it running, hands its handle over, and tells
    the app it may serve the first time only (a restarted component starts again into an app
    already serving)."""

    def __init__(self, supervisor: Supervisor, component: Supervised, outer: Any) -> None:
        self.supervisor, self.component, self.outer = supervisor, component, outer

    def started(self, handle: Any = None) -> None:
        self.supervisor.health[self.component.name] = "running"
        self.component.handle = handle
        if self.component.hand is not None:
            self.component.hand(handle)
        if self.outer is not None:
            outer, self.outer = self.outer, None
            outer.started(handle)


SUPERVISOR = "svc.supervisor"  # where an app made by svc.web.app.create_app keeps its supervisor


def supervisor_of(app: QuartTrio) -> Supervisor:
    """The supervisor of an app made by svc.web.app.create_app."""
    supervisor: Supervisor = app.extensions[SUPERVISOR]  # extensions holds Any; create_app put it there
    return supervisor
