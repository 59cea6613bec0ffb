"""Pages that show the live stream in a browser, served without a key: /live, and
/live-worker.js, the service worker that lets that page's EventSource send the key in a
header (EventSource itself cannot)."""

from __future__ import annotations

from importlib.resources import files

from quart import Response

# files of this package (package data in pyproject.toml), found wherever it is installed
LIVE_PAGE = files("svc_live") / "page.html"
LIVE_WORKER = files("svc_live") / "live-worker.js"


def register_pages(app) -> None:
    @app.route("/live", methods=["GET"], provide_automatic_options=False)
    async def live_page() -> Response:
        """A page that shows the live stream in a browser (the key is typed in, sent in a header)."""
        return Response(LIVE_PAGE.read_bytes(), content_type="text/html; charset=utf-8")

    @app.route("/live-worker.js", methods=["GET"], provide_automatic_options=False)
    async def live_worker() -> Response:
        """The service worker that adds the key header to a browser EventSource's stream requests."""
        return Response(
            LIVE_WORKER.read_bytes(),
            content_type="text/javascript; charset=utf-8",
            headers={"Cache-Control": "no-cache"},
        )
