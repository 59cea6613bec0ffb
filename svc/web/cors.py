"""Calls from a page on another origin (a browser's CORS): keys travel in headers and no cookies
are used, so any origin may call, and may read the headers that say its limits."""

from __future__ import annotations

from quart import Response, request
from quart_trio import QuartTrio

EXPOSED = (
    "X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, X-Quota-Remaining, RateLimit-Policy, RateLimit, "
    "Retry-After, ETag, Request-Id"
)
HEADERS = (("Access-Control-Allow-Origin", "*"), ("Access-Control-Expose-Headers", EXPOSED))  # on every answer
PREFLIGHT_MAX_AGE_S = "600"  # a browser asks again after ten minutes at most


def allow_any_origin(app: QuartTrio) -> None:
    @app.before_request
    async def cors_preflight() -> Response | None:
        # A browser's preflight (OPTIONS with Access-Control-Request-Method) is answered here; any
        # other OPTIONS request gets the 405 every method but GET gets.
        if request.method == "OPTIONS" and "Access-Control-Request-Method" in request.headers:
            return Response(
                b"",
                status=204,
                headers={
                    "Access-Control-Allow-Methods": "GET",
                    "Access-Control-Allow-Headers": "Authorization, X-API-Key, Last-Event-ID",
                    "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_S,
                },
            )
        return None

    @app.after_request
    async def cors_headers(response: Response) -> Response:
        for name, value in HEADERS:
            response.headers[name] = value
        return response
