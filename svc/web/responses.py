"""JSON answers on the wire: the content type, a strong ETag with its 304, and the error body."""

from __future__ import annotations

import hashlib

import orjson
from quart import Response, request

from svc.core.errors import ApiError

JSON = "application/json"


def json_response(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(body, status=status, headers=headers or {}, content_type=JSON)


def answered(body: bytes, headers: dict[str, str]) -> Response:
    """A 200 with a strong ETag (a hash of the body: it changes exactly when the answer does,
    whatever moved it: an import, a correction, a match going live); 304 without the body when
    the request's If-None-Match already holds it. Either way the call was counted."""
    etag = '"' + hashlib.blake2b(body, digest_size=16).hexdigest() + '"'
    sent = request.headers.get("If-None-Match", "")
    if sent and (sent.strip() == "*" or etag in (t.strip().removeprefix("W/") for t in sent.split(","))):
        return Response(b"", status=304, headers={**headers, "ETag": etag})
    return json_response(body, 200, {**headers, "ETag": etag})


def error_response(err: ApiError) -> Response:
    docs = request.host_url.rstrip("/") + "/docs" if request else "/docs"
    return json_response(orjson.dumps(err.body(docs)), err.status, err.headers)
