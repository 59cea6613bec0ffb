"""The Quart-Trio application: its parts put together.

Each endpoint is routed to the request pipeline (svc.web.pipeline); what no endpoint serves is
refused as the API refuses (svc.web.refusals); any origin may call (svc.web.cors); every answer
carries a Request-Id (svc.web.request_id); the probes /livez, /readyz and /healthz (svc.web.health),
/v1/openapi.json and /docs (svc.web.docs) need no key. The components beside
the app run under its supervisor (svc.web.supervisor), to which svc.assembly adds them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from quart import Response
from quart_trio import QuartTrio

from svc.core.clock import Clock
from svc.core.db import Database
from svc.web import openapi
from svc.web.cache import AnswerCache
from svc.web.connection import ServiceApp
from svc.web.cors import allow_any_origin
from svc.web.direct import DirectAnswers
from svc.web.docs import register_docs
from svc.web.endpoint import Endpoint
from svc.web.health import live, ready
from svc.web.pipeline import view
from svc.web.refusals import refuse_what_no_endpoint_serves
from svc.web.request_id import tag_every_answer
from svc.web.service import Service
from svc.web.supervisor import SUPERVISOR, Supervisor

SERVICE = "svc"  # where the app keeps its Service (app.extensions)
Pages = Callable[[QuartTrio], None]  # adds routes that need no key (e.g. the live page)
Webhooks = Callable[[dict[str, Any]], dict[str, Any]]  # the OpenAPI `webhooks` section


def create_app(
    database_url: str,
    *,
    endpoints: Sequence[Endpoint],
    clock: Clock | None = None,
    pool_size: int = 8,
    db: Database | None = None,
    cache: bool = False,
    pages: Sequence[Pages] = (),
    webhooks: Webhooks | None = None,
    replica_urls: Sequence[str] = (),
) -> QuartTrio:
    """The app serving `endpoints` (svc.assembly puts the service together, calls this and adds
    the components to its supervisor)."""
    app = ServiceApp(__name__)
    app.config["PROVIDE_AUTOMATIC_OPTIONS"] = False
    # No redirects: `/v1/players//matches` is a 404 like any other unknown path, not a 308 to a
    # merged path answered before the key is checked.
    app.url_map.merge_slashes = False
    app.url_map.strict_slashes = False
    own_db = db is None
    clock = clock or Clock()
    db = db or Database(database_url, pool_size=pool_size, replica_urls=replica_urls)
    service = Service(db=db, clock=clock, cache=AnswerCache(clock) if cache else None)
    supervisor = Supervisor(service)
    app.extensions[SERVICE] = service
    app.extensions[SUPERVISOR] = supervisor

    @app.before_serving
    async def start_parts() -> None:
        if own_db:
            await service.db.open()
        await supervisor.start(app.nursery, service.take_backs.run, service.allowances.run)

    @app.after_serving
    async def stop_parts() -> None:
        await supervisor.stop()
        await service.allowances.give_back_all()
        if own_db:
            await service.db.close()

    for ep in endpoints:
        app.add_url_rule(
            ep.rule, endpoint=ep.path, view_func=view(ep, service), methods=["GET"], provide_automatic_options=False
        )
    register_docs(app, lambda: openapi.build(endpoints, webhooks))

    async def livez() -> Response:
        return live()

    async def readyz() -> Response:
        return await ready(service, supervisor)

    for rule, probe in (("/livez", livez), ("/readyz", readyz), ("/healthz", readyz)):  # /healthz: /readyz's old name
        app.add_url_rule(rule, endpoint=rule[1:], view_func=probe, methods=["GET"], provide_automatic_options=False)
    for add_pages in pages:
        add_pages(app)
    refuse_what_no_endpoint_serves(app, service)
    allow_any_origin(app)  # after the refusals: a preflight to a path refused there is refused
    tag_every_answer(app)
    app.answered_ahead = DirectAnswers(app, service, endpoints).answer
    return app


def service_of(app: QuartTrio) -> Service:
    """The per-process state of an app made by create_app."""
    service: Service = app.extensions[SERVICE]  # extensions holds Any; create_app put it there
    return service
