"""Paging, in one place: the parameters a list takes (page, per_page, cursor), the window a
request asks for, the Page a handler returns, and the meta of the answer.

A cursor is the offset of the next page plus a fingerprint of the list it belongs to (the path
and every filter but the paging parameters), so a cursor used with other filters is refused
instead of silently paging another list. A request enters this module twice: for its window
(before the handler) and for the meta of its page (after).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import orjson

from svc.core.errors import bad_request, invalid
from svc.web.params import param


@attrs.frozen
class Paging:
    """The parameters of every list; a list's parameters subclass it."""

    page: int = param("Page number, from 1. Ignored when `cursor` is given.", default=1, minimum=1, maximum=1_000_000)
    per_page: int = param("Items per page.", default=50, minimum=1, maximum=200)
    cursor: str | None = param("Opaque cursor: `meta.next_cursor` of the previous page. Takes precedence over `page`.")


PAGING_NAMES = frozenset(f.name for f in attrs.fields(Paging))


@attrs.frozen
class Page:
    """What a paged handler returns: one page of items and the size of the whole list."""

    items: list[Any]
    total: int
    meta: dict[str, Any] = attrs.field(factory=dict)


def page_of(
    rows: list[Any],
    shape: Callable[[Any], Any],
    offset: int,
    meta: dict[str, Any] | None = None,
    total: int | None = None,
) -> Page:
    """A Page from rows of a statement that selects `total` (the size of the whole list) beside
    each row of the page asked for, or of one whose `total` was counted apart."""
    if not rows and offset > 0:
        raise invalid("parameter `page` (or `cursor`) is past the last page", "page")
    if total is None:
        total = rows[0]["total"] if rows else 0
    return Page([shape(r) for r in rows], total, meta or {})


@attrs.frozen
class Window:
    """The page a request asks for: where it starts, how many items, and the fingerprint of its
    list (which the next page's cursor carries)."""

    offset: int
    limit: int
    fingerprint: str


def window(p: Paging, path: str, path_params: Mapping[str, str], query: Mapping[str, list[str]]) -> Window:
    """The window of a request to `path` with these path and query parameters (already parsed into
    `p`); 400 for a cursor this service did not make or one made for other filters."""
    fp = fingerprint(path + repr(sorted(path_params.items())), query)
    offset = _decode_cursor(p.cursor, fp) if p.cursor else (p.page - 1) * p.per_page
    return Window(offset, p.per_page, fp)


def meta(page: Page, at: Window) -> dict[str, Any]:
    """The answer's meta: page, per_page, total, pages, next_cursor, then the handler's own;
    422 for a page past the last."""
    per_page = at.limit
    if at.offset >= page.total and at.offset > 0:
        raise invalid(f"parameter `page` is past the last page ({max(1, -(-page.total // per_page))})", "page")
    out: dict[str, Any] = {
        "page": at.offset // per_page + 1,
        "per_page": per_page,
        "total": page.total,
        "pages": -(-page.total // per_page),
    }
    nxt = at.offset + len(page.items)
    # interface.md: next_cursor is "absent or empty" on the last page; empty keeps the member there
    out["next_cursor"] = _encode_cursor(nxt, at.fingerprint) if nxt < page.total else ""
    out.update(page.meta)
    return out


def fingerprint(path: str, query: Mapping[str, list[str]]) -> str:
    stable = sorted((k, v) for k, vs in query.items() if k not in PAGING_NAMES for v in vs)
    return hashlib.sha256(orjson.dumps([path, stable])).hexdigest()[:12]


def _encode_cursor(offset: int, fp: str) -> str:
    return base64.urlsafe_b64encode(orjson.dumps({"o": offset, "f": fp})).decode().rstrip("=")


def _decode_cursor(cursor: str, fp: str) -> int:
    try:
        raw = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        offset, their_fp = raw["o"], raw["f"]
        if not isinstance(offset, int) or offset < 0 or not isinstance(their_fp, str):
            raise ValueError
    except (ValueError, TypeError, KeyError, orjson.JSONDecodeError):
        raise bad_request(
            "parameter `cursor` is not one this service made; pass meta.next_cursor unchanged", "cursor"
        ) from None
    if their_fp != fp:
        raise bad_request(
            "parameter `cursor` belongs to a list with other filters; keep the same parameters while paging", "cursor"
        )
    return offset
