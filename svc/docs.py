"""Public pages that need no key: /v1/openapi.json, /docs (the error codes that every
error's `docs` URL points into), /live (the live stream in a browser) and /live-worker.js
(the service worker that lets that page's EventSource send the key in a header)."""

from __future__ import annotations

import html
from pathlib import Path

import orjson
from quart import Response

from .errors import ERRORS
from .plans import PLANS


LIVE_PAGE = Path(__file__).resolve().parent.parent / "svc_live" / "page.html"
LIVE_WORKER = LIVE_PAGE.with_name("live-worker.js")


def register_docs(app) -> None:
    spec_bytes: list[bytes] = []

    @app.route("/live", methods=["GET"], provide_automatic_options=False)
    async def live_page() -> Response:
        """A page that shows the live stream in a browser (the key is typed in, sent in a header)."""
        return Response(LIVE_PAGE.read_bytes(), content_type="text/html; charset=utf-8")

    @app.route("/live-worker.js", methods=["GET"], provide_automatic_options=False)
    async def live_worker() -> Response:
        """The service worker that adds the key header to a browser EventSource's stream requests."""
        return Response(LIVE_WORKER.read_bytes(), content_type="text/javascript; charset=utf-8",
                        headers={"Cache-Control": "no-cache"})

    @app.route("/v1/openapi.json", methods=["GET"], provide_automatic_options=False)
    async def openapi_json() -> Response:
        if not spec_bytes:  # built once per process, on first use (the registry is complete by then)
            from .openapi import build

            spec_bytes.append(orjson.dumps(build()))
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
