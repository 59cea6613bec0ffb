"""Every failure is one of these codes, answered as {"error": {code, message, docs}}, plus
`param` when one query or path parameter caused it (as Stripe's errors name theirs).

The table here is also what /docs shows and what the OpenAPI description lists.
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class ErrorKind:
    status: int
    code: str
    when: str  # the condition, as documented


ERRORS = {
    e.code: e
    for e in (
        ErrorKind(
            400,
            "bad_request",
            "The request cannot be read: a key in the query string (even a valid one), "
            "a missing required parameter, an unknown or repeated parameter, a value of the wrong type, "
            "a malformed date, id or cursor. The message names the parameter, and error.param holds its name.",
        ),
        ErrorKind(
            401, "unauthorized", "No key was sent, the key is unknown, or it was replaced. The message says which."
        ),
        ErrorKind(
            403,
            "upgrade_required",
            "A valid key asked for an endpoint or a date range above its plan; "
            "error.plan names the lowest plan that has it.",
        ),
        ErrorKind(404, "not_found", "No such path, or no item with that id."),
        ErrorKind(405, "method_not_allowed", "Only GET is served; the Allow header says so."),
        ErrorKind(
            422,
            "invalid_parameter",
            "A well-formed value that is not acceptable: out of range, not in the "
            "vocabulary, `from` after `to`, a page past the last one. The message names the parameter, "
            "and error.param holds its name.",
        ),
        ErrorKind(
            429, "rate_limited", "Too many calls this minute; Retry-After gives the seconds to wait. Not counted."
        ),
        ErrorKind(
            429,
            "quota_exceeded",
            "Today's calls are used; error.resets_at says when they return (00:00 UTC); "
            "Retry-After gives the seconds. Not counted.",
        ),
        ErrorKind(
            429,
            "too_many_streams",
            "Two live streams are already open on this key; Retry-After gives the seconds after which to try again.",
        ),
        ErrorKind(500, "internal_error", "A fault of ours; it is logged. Tell us the time of the call."),
        ErrorKind(
            503,
            "unavailable",
            "The database cannot be reached for a moment; retry after Retry-After seconds. Not counted.",
        ),
    )
}


class ApiError(Exception):
    """Raised anywhere on the request path; the app turns it into the JSON error answer."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        extra: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
        param: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = ERRORS[code]
        self.message = message
        self.extra = extra or {}
        self.headers = headers or {}
        self.param = param  # the parameter's name on the wire, when one parameter caused the error

    @property
    def status(self) -> int:
        return self.kind.status

    def body(self, docs_base: str) -> dict[str, Any]:
        return {
            "error": {
                "code": self.kind.code,
                "message": self.message,
                "docs": f"{docs_base}#{self.kind.code}",
                **({"param": self.param} if self.param else {}),
                **self.extra,
            }
        }


def bad_request(message: str, param: str | None = None) -> ApiError:
    return ApiError("bad_request", message, param=param)


def invalid(message: str, param: str | None = None) -> ApiError:
    return ApiError("invalid_parameter", message, param=param)


def not_found(message: str) -> ApiError:
    return ApiError("not_found", message)
