"""A page past the last, on every list alike (svc/web/paging.py): 422 invalid_parameter whose
message, error.pages and error.total say how many pages and items the list has -- the same
numbers as meta.pages and meta.total of its first page."""

from __future__ import annotations

import datetime as dt

import pytest

from svc.assembly import REGISTRY
from tests.support import NOON

PER_PAGE = 7

# Each list with the parameters it needs (a player's matches: the player listed first).
LISTS = {
    "/v1/rankings": {"discipline": "MS"},
    "/v1/players": {},
    "/v1/results": {"date": (NOON.date() - dt.timedelta(days=1)).isoformat()},
    "/v1/fixtures": {},
    "/v1/matches": {"discipline": "WS"},
    "/v1/venues": {},
    "/v1/locations": {},
    "/v1/players/{id}/matches": {},
    "/v1/ratings": {"discipline": "MD"},
    "/v1/tournaments": {},
}


def test_every_list_is_covered():
    assert {ep.path for ep in REGISTRY if ep.paged} == set(LISTS)


async def path_of(client, key, path: str) -> str:
    if "{id}" not in path:
        return path
    first = (await client.get("/v1/players", key, per_page=1)).json_body["data"][0]["id"]
    return path.replace("{id}", first)


@pytest.mark.parametrize("path", sorted(LISTS))
async def test_a_page_past_the_last_says_how_many_pages_there_are(client, free, path):
    url, params = await path_of(client, free, path), LISTS[path]
    first = await client.get(url, free, per_page=PER_PAGE, **params)
    assert first.status_code == 200
    total, pages = first.json_body["meta"]["total"], first.json_body["meta"]["pages"]
    assert pages == -(-total // PER_PAGE)
    for asked in (pages + 1, 999):
        if asked <= pages:
            continue
        past = await client.get(url, free, per_page=PER_PAGE, page=asked, **params)
        assert past.status_code == 422, (path, asked)
        error = past.json_body["error"]
        assert (error["code"], error["param"]) == ("invalid_parameter", "page")
        assert (error["pages"], error["total"]) == (pages, total)
        assert f"page {asked:,}" in error["message"]
        if total:
            assert f"{total:,} item" in error["message"] and f"{pages} page" in error["message"]
        else:
            assert "empty" in error["message"]
    if pages:  # the last page itself is served, with no next cursor
        last = await client.get(url, free, per_page=PER_PAGE, page=pages, **params)
        assert last.status_code == 200 and last.json_body["meta"]["next_cursor"] == ""
        assert len(last.json_body["data"]) == total - (pages - 1) * PER_PAGE
