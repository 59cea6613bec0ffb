"""Paging, in one place: the parameters a list takes (page, per_page, cursor), the window a
request asks for, the Page a handler returns, and the meta of the answer.

A cursor is the offset of the next page plus a fingerprint of the list it belongs to (the path
and every filter but the paging parameters), so a cursor used with other filters is refused
instead of silently paging another list. A request enters this module three times: for its
window (before the handler), for running the handler (page_from) and for the meta of its page.

A page past the last answers 422 invalid_parameter naming how many pages and items the list
has (in the message, and as error.pages and error.total), on every list alike: a list's
statement counts its total beside the rows of the page, so a page with no rows has no count, and
page_from asks the handler again for the list's first item to learn it.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import attrs
import orjson

from svc.core.errors import ApiError, bad_request
from svc.web.params import param


@attrs.frozen
class Paging:
    """The parameters of every list; a list's parameters subclass it."""

    page: int = param(
        "Page number, from 1. Ignored when `cursor` is given. A page past the last answers 422 "
        "invalid_parameter saying how many pages the list has (error.pages, error.total); `meta.pages` "
        "of any page says it too.",
        default=1,
        minimum=1,
        maximum=1_000_000,
    )
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
    each row of the page asked for, or of one whose `total` was counted apart. A page past the
    last of the first kind has no total: PastTheLastPage, for page_from."""
    if not rows and offset > 0 and total is None:
        raise PastTheLastPage("invalid_parameter", "parameter `page` (or `cursor`) is past the last page", param="page")
    if total is None:
        total = rows[0]["total"] if rows else 0
    return Page([shape(r) for r in rows], total, meta or {})


class PastTheLastPage(ApiError):
    """A page with no rows past the first, whose list's size is not known yet (page_of); answered
    as it is, 422, only where page_from does not catch it."""


async def page_from(handler: Callable[[Any], Awaitable[Page]], call: Any) -> Page:
    """The handler's page for `call` (a svc.web.endpoint.Call). For a page past the last it is
    asked again for the list's first item, whose page carries the list's size (the one extra
    statement is run only then), so that meta() can say how many pages there are."""
    try:
        return await handler(call)
    except PastTheLastPage:
        first = await handler(attrs.evolve(call, offset=0, limit=1))
        return Page([], first.total, first.meta)


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
    422 for a page past the last (past_the_last)."""
    per_page = at.limit
    pages = -(-page.total // per_page)
    if at.offset >= page.total and at.offset > 0:
        raise past_the_last(at.offset // per_page + 1, pages, page.total, per_page)
    out: dict[str, Any] = {
        "page": at.offset // per_page + 1,
        "per_page": per_page,
        "total": page.total,
        "pages": pages,
    }
    nxt = at.offset + len(page.items)
    # interface.md: next_cursor is "absent or empty" on the last page; empty keeps the member there
    out["next_cursor"] = _encode_cursor(nxt, at.fingerprint) if nxt < page.total else ""
    out.update(page.meta)
    return out


def past_the_last(asked: int, pages: int, total: int, per_page: int) -> ApiError:
    """422 for page `asked` of a list of `total` items in `pages` pages: the message says what
    there is, error.pages and error.total say it to a program."""
    if total == 0:
        there = "the list is empty (0 items); page 1 answers with none"
    else:
        items = "1 item" if total == 1 else f"{total:,} items"
        within = "page 1" if pages == 1 else f"page 1 to {pages}"
        there = f"the list has {items} in {pages} page{'s' if pages != 1 else ''} of {per_page}; ask for {within}"
    return ApiError(
        "invalid_parameter",
        f"parameter `page` asks for page {asked:,}, past the last: {there}",
        extra={"pages": pages, "total": total},
        param="page",
    )


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
