"""Public pages that need no key: /v1/openapi.json and /docs (the error codes that every
error's `docs` URL points into)."""

from __future__ import annotations

import html
from typing import Any, Callable

import orjson
from quart import Response

from svc.access.plans import PLANS
from svc.core.errors import ERRORS


def register_docs(app, spec: Callable[[], dict[str, Any]]) -> None:
    """`spec()` makes the OpenAPI description (built once, on first use)."""
    spec_bytes: list[bytes] = []

    @app.route("/v1/openapi.json", methods=["GET"], provide_automatic_options=False)
    async def openapi_json() -> Response:
        if not spec_bytes:  # built once per process, on first use (the registry is complete by then)
            spec_bytes.append(orjson.dumps(spec()))
        return Response(spec_bytes[0], content_type="application/json")

    @app.route("/docs", methods=["GET"], provide_automatic_options=False)
    async def docs_page() -> Response:
        rows = "".join(
            f'<tr id="{k.code}"><td>{k.status}</td><td><code>{k.code}</code></td><td>{html.escape(k.when)}</td></tr>'
            for k in ERRORS.values()
        )
        plans = "".join(f"<tr><td>{p.title}</td><td>{p.per_minute}</td><td>{p.per_day:,}</td></tr>" for p in PLANS.values())
        page = (
            "<!doctype html><meta charset=utf-8><title>Badminton data service</title>"
            "<h1>Badminton data service</h1><p>The full description: <a href='/v1/openapi.json'>/v1/openapi.json</a>.</p>"
            f"<h2>Errors</h2><table><tr><th>status</th><th>code</th><th>when</th></tr>{rows}</table>"
            f"<h2>Plans</h2><table><tr><th>plan</th><th>calls a minute</th><th>calls a day</th></tr>{plans}</table>"
        )
        return Response(page, content_type="text/html; charset=utf-8")
