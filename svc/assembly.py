"""The one place that puts the service together -- with svc.asgi and the command line, the
only modules that import every layer (docs/architecture.md).

It registers every endpoint (the read API and the live hub's own two), adds the live pages
and the webhooks section of the OpenAPI description, and starts the components a worker runs
beside the app (through the app's supervisor, svc.web.supervisor), giving each the options it
takes from the worker's settings and handing its handle to whoever uses it: the live hub to
the live endpoints; the tools, for their part, are handed the app.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import attrs
from quart_trio import QuartTrio

import svc.api  # noqa: F401  (registers the read endpoints)
import svc_live.endpoints  # noqa: F401  (registers /v1/live and /v1/live/stream)
from svc.core.clock import Clock
from svc.core.db import Database
from svc.core.settings import Settings
from svc.tools.server import Mounted, serve_stdio
from svc.web import app as web_app
from svc.web.endpoint import REGISTRY
from svc.web.supervisor import Run, supervisor_of
from svc.world.feed import feed
from svc_hooks import openapi as hooks_openapi
from svc_hooks import scheduler
from svc_hooks.addresses import Policy
from svc_hooks.notify import Mailer
from svc_live import components as live
from svc_live.pages import register_pages

VERSION = "1.45"  # the interface's version (45 endpoints), reported to MCP clients


def _no_options(settings: Settings) -> dict[str, Any]:
    return {}


@attrs.frozen
class Part:
    """A component as this service runs it: the name /healthz shows, what runs (`async def
    run(service, *, task_status, **options)`, calling task_status.started(handle)), the options
    it takes from the worker's settings, and who is handed its handle each time it starts (given
    the app and the handle)."""

    name: str
    run: Run
    options: Callable[[Settings], dict[str, Any]] = _no_options
    hand: Callable[[QuartTrio, Any], None] | None = None


# every worker: streams, slots, fan-out; its live endpoints are handed the hub
hub_component = Part("hub", live.hub, hand=live.serve_hub)
# every worker tries; the lock holder plays the world (no one needs its handle but tests)
feed_component = Part("feed", feed.component, options=lambda settings: {"speed": settings.live_speed})
# every worker: webhook deliveries
hooks_component = Part(
    "scheduler",
    scheduler.component,
    options=lambda settings: {
        "policy": Policy(allow_local=settings.hooks_allow_local),
        "mailer": Mailer.from_url(settings.smtp_url, settings.smtp_from),
        "lease_s": settings.hooks_claim_s,
    },
)


def create_app(
    database_url: str,
    *,
    clock: Clock | None = None,
    pool_size: int = 8,
    db: Database | None = None,
    components: Sequence[Part | Run] = (),
    cache: bool = False,
    settings: Settings | None = None,
) -> QuartTrio:
    """The whole service's app; `components` run beside it (none: a plain read API). A bare `run`
    (a test's own component) is named by its function and hands its handle to no one."""
    settings = settings or Settings(database_url=database_url, pool_size=pool_size, cache=cache)
    app = web_app.create_app(
        database_url,
        endpoints=REGISTRY,
        clock=clock,
        pool_size=pool_size,
        db=db,
        cache=cache,
        pages=[register_pages],
        webhooks=hooks_openapi.webhooks,
        replica_urls=settings.replica_urls,
    )
    for component in components:
        start_beside(app, component if isinstance(component, Part) else Part(component.__name__, component), settings)
    return app


def start_beside(app: QuartTrio, part: Part, settings: Settings) -> None:
    """Has `app` start `part` when it starts serving (before serving only)."""
    hand = partial(part.hand, app) if part.hand is not None else None
    supervisor_of(app).add(partial(part.run, **part.options(settings)), name=part.name, hand=hand)


def serving_app(settings: Settings) -> Mounted:
    """What a worker of `serve` runs: the whole service's app with its components, and the
    tools for AI assistants (MCP's streamable HTTP) at /mcp beside it, calling that app."""
    api = create_app(
        settings.database_url,
        pool_size=settings.pool_size,
        cache=settings.cache,
        settings=settings,
        components=serving_components(settings),
    )
    tools = Mounted(api, openapi_description, version=VERSION)
    start_beside(api, Part("mcp", tools.component), settings)  # its sessions start and stop with the app
    return tools


async def serve_tools_stdio(database_url: str, settings: Settings, key: str | None) -> None:
    """`python -m svc mcp`: the tools over stdin and stdout, each call through the app's request
    path in this process, with the live hub running for the live stream's tool."""
    import trio

    app = create_app(database_url, pool_size=2, settings=settings, components=[hub_component])
    async with trio.open_nursery() as nursery:
        app.nursery = nursery  # what Quart-Trio's lifespan sets when a server runs the app
        await app.startup()
        try:
            await serve_stdio(app, openapi_description(), key, settings.public_url, VERSION)
        finally:
            await app.shutdown()
            nursery.cancel_scope.cancel()


async def before_stop(app: Mounted, *, within_s: float) -> None:
    """A serving worker is about to stop: its live streams end with their goodbye first (within
    `within_s`), while the server still runs to send them."""
    hub = live.hub_of(app.api)
    if hub is not None:
        await hub.end_streams(within_s)


def serving_components(settings: Settings) -> list[Part]:
    """What a worker of `serve` runs: the hub always, the feed and the scheduler unless turned off."""
    components = [hub_component]
    if settings.live_feed:
        components.append(feed_component)
    if settings.hooks:
        components.append(hooks_component)
    return components


def openapi_description() -> dict:
    """The OpenAPI description as served at /v1/openapi.json."""
    from svc.web.openapi import build

    return build(REGISTRY, hooks_openapi.webhooks)
