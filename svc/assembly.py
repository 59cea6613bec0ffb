"""The one place that puts the service together -- with svc.asgi and the command line, the
only modules that import every layer (docs/architecture.md).

It registers every endpoint (the read API and the live hub's own two), adds the live pages
and the webhooks section of the OpenAPI description, and names the components a serving
worker runs beside the app.
"""

from __future__ import annotations

from typing import Sequence

import svc.api  # noqa: F401  (registers the read endpoints)
import svc_live.endpoints  # noqa: F401  (registers /v1/live and /v1/live/stream)
from svc.core.clock import Clock
from svc.core.db import Database
from svc.core.settings import Settings
from svc.tools.server import Mounted, serve_stdio
from svc.web import app as web_app
from svc.web.endpoint import REGISTRY
from svc.world.feed import feed
from svc_hooks import openapi as hooks_openapi
from svc_hooks import scheduler
from svc_live import components as live
from svc_live.pages import register_pages

Component = web_app.Component
VERSION = "1.45"  # the interface's version (45 endpoints), reported to MCP clients
hub_component: Component = live.hub  # every worker: streams, slots, fan-out
feed_component: Component = feed.component  # every worker tries; the lock holder plays the world
hooks_component: Component = scheduler.component  # every worker: webhook deliveries


def create_app(database_url: str, *, clock: Clock | None = None, pool_size: int = 8, db: Database | None = None,
               components: Sequence[Component] = (), cache: bool = False, settings: Settings | None = None):
    """The whole service's app; `components` run beside it (none: a plain read API)."""
    return web_app.create_app(database_url, endpoints=REGISTRY, clock=clock, pool_size=pool_size, db=db,
                              components=components, cache=cache, settings=settings, pages=[register_pages],
                              webhooks=hooks_openapi.webhooks)


def serving_app(settings: Settings):
    """What a worker of `serve` runs: the whole service's app with its components, and the
    tools for AI assistants (MCP's streamable HTTP) at /mcp beside it."""
    tools = Mounted(None, openapi_description, version=VERSION)
    api = create_app(settings.database_url, pool_size=settings.pool_size, cache=settings.cache, settings=settings,
                     components=[*serving_components(settings), tools.component])
    tools.api = api
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
            await serve_stdio(app, openapi_description(), key, VERSION)
        finally:
            await app.shutdown()
            nursery.cancel_scope.cancel()


async def before_stop(app: Mounted, *, within_s: float) -> None:
    """A serving worker is about to stop: its live streams end with their goodbye first (within
    `within_s`), while the server still runs to send them."""
    hub = web_app.service_of(app.api).hub
    if hub is not None:
        await hub.end_streams(within_s)


def serving_components(settings: Settings) -> list[Component]:
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
