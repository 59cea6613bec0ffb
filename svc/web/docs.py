"""Public pages that need no key: /v1/openapi.json and /docs.

/docs is the interactive reference (Swagger UI, rendered in the browser from
/v1/openapi.json; its files ship with the `openapi-ui-bundles` package from PyPI and are served
from /docs/assets/, so the page works offline), its operations grouped by resource (the
description's tags, in their order) with the plan each needs (x-plan), where a key pasted into
"Authorize" stays in the page (never stored) and "Try it out" calls the API; and below it the
error codes, one row per code with the code as its anchor (every error's `docs` URL points
there), and the plans.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openapi_ui_bundles
import orjson
from quart import Response
from quart_trio import QuartTrio

from svc.access.plans import PLANS
from svc.core.errors import ERRORS
from svc.web.encoding import Encoded
from svc.web.incoming import Incoming
from svc.web.responses import PUBLIC, answered


def register_docs(app: QuartTrio, spec: Callable[[], dict[str, Any]]) -> None:
    """`spec()` makes the OpenAPI description (built once, on first use)."""
    spec_bytes: list[Encoded] = []

    @app.route("/v1/openapi.json", methods=["GET"], provide_automatic_options=False)
    async def openapi_json() -> Response:
        if not spec_bytes:  # built once per process, on first use (the registry is complete by then)
            spec_bytes.append(Encoded(orjson.dumps(spec())))
        # the same for everyone: public, gzipped when asked (689 KB -> 36 KB), with its ETag
        return answered(spec_bytes[0], {}, Incoming.from_quart(), caching=PUBLIC, vary="Accept-Encoding").response()

    @app.route("/docs", methods=["GET"], provide_automatic_options=False)
    async def docs_page() -> Response:
        return Response(_page(), content_type="text/html; charset=utf-8", headers={"Cache-Control": PUBLIC})

    @app.route("/docs/assets/<name>", methods=["GET"], provide_automatic_options=False)
    async def docs_asset(name: str) -> Response:
        if name not in ASSETS:
            return Response(
                b'{"error": {"code": "not_found", "message": "no such file of the reference"}}',
                status=404,
                content_type="application/json",
            )
        if name not in _assets:  # read once per process
            _assets[name] = (Path(openapi_ui_bundles.swagger_ui.static_path) / name).read_bytes()
        return Response(_assets[name], content_type=ASSETS[name], headers={"Cache-Control": "public, max-age=86400"})


# The reference's files (Swagger UI's own build, as the package ships it) and their types.
ASSETS = {
    "swagger-ui.css": "text/css; charset=utf-8",
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "favicon-32x32.png": "image/png",
    "favicon-16x16.png": "image/png",
}
_assets: dict[str, bytes] = {}

STYLE = """
body { margin: 0; font-family: system-ui, sans-serif; }
header { padding: 12px 24px; background: #1b3a4b; color: #fff; }
header a { color: #cfe8ff; margin-right: 16px; }
section.tables { max-width: 1100px; margin: 0 auto 48px; padding: 0 24px; }
section.tables table { border-collapse: collapse; width: 100%; }
section.tables td, section.tables th {
  border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top;
}
section.tables tr:target { background: #fff3c4; }
"""

# Swagger UI without its top bar (no box to load another description) and without deep links
# (the page's anchors are the error codes); "Authorize" keeps the key in the page only.
INIT = """
window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/v1/openapi.json", dom_id: "#reference", deepLinking: false, persistAuthorization: false,
    displayRequestDuration: true, docExpansion: "list", defaultModelsExpandDepth: -1,
    showExtensions: true,  // an operation's x-plan: the plan it needs (its tag is its resource)
    presets: [SwaggerUIBundle.presets.apis], layout: "BaseLayout",
    onComplete: function () {
      // an error's docs URL (/docs#rate_limited): the reference above has grown; go to the row again
      if (location.hash) { var row = document.getElementById(location.hash.slice(1)); if (row) row.scrollIntoView(); }
    }
  });
});
"""


def _page() -> str:
    rows = "".join(
        f'<tr id="{k.code}"><td>{k.status}</td><td><code>{k.code}</code></td><td>{html.escape(k.when)}</td></tr>'
        for k in ERRORS.values()
    )
    plans = "".join(f"<tr><td>{p.title}</td><td>{p.per_minute}</td><td>{p.per_day:,}</td></tr>" for p in PLANS.values())
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>Badminton data service: reference</title>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        "<link rel=stylesheet href='/docs/assets/swagger-ui.css'>"
        "<link rel=icon type=image/png href='/docs/assets/favicon-32x32.png'>"
        f"<style>{STYLE}</style></head><body>"
        "<header><strong>Badminton data service</strong> &nbsp; <a href='#reference'>Reference</a>"
        "<a href='#errors'>Errors</a><a href='#plans'>Plans</a><a href='/v1/openapi.json'>openapi.json</a>"
        "<a href='/live'>Live</a></header>"
        "<main><p style='padding:0 24px'>Paste a key in <b>Authorize</b> (it stays in this page), open an "
        "endpoint and press <b>Try it out</b>, then <b>Execute</b>: the call counts like any other.</p>"
        "<div id=reference></div>"
        "<section class=tables><h2 id=errors>Errors</h2>"
        f"<table><tr><th>status</th><th>code</th><th>when</th></tr>{rows}</table>"
        "<h2 id=plans>Plans</h2><table><tr><th>plan</th><th>calls a minute</th><th>calls a day</th></tr>"
        f"{plans}</table>"
        "</section></main>"
        "<script src='/docs/assets/swagger-ui-bundle.js' charset=utf-8></script>"
        f"<script>{INIT}</script></body></html>"
    )
