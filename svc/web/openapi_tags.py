"""The OpenAPI description's tags: one per resource, in the order /docs shows them.

An operation's tag is the resource its path is about (the longest prefix below that matches it,
segment by segment), never its plan: the plan is the operation's `x-plan`. A client generator
groups its functions by the tag (openapi-python-client: `api/<tag>/<operationId>.py`), so a
tag's name is a plain lowercase word.
"""

from __future__ import annotations

from typing import Any

# (tag, what it holds, the path prefixes it takes)
TAGS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "players",
        "Players: profiles, ranking histories, matches, partners, opponents, titles, form, statistics; head to head.",
        ("/v1/players", "/v1/h2h"),
    ),
    ("matches", "Draw matches of the archive, one by one or filtered.", ("/v1/matches",)),
    (
        "results",
        "Results and fixtures by day, one event, and an event's points rally by rally.",
        ("/v1/results", "/v1/fixtures", "/v1/events"),
    ),
    (
        "tournaments",
        "Editions, their draws and team ties, and the roll of honour of a series.",
        ("/v1/tournaments", "/v1/series/{slug}/champions"),
    ),
    ("rankings", "World rankings on a day, and every world number one.", ("/v1/rankings",)),
    (
        "ratings",
        "The service's own rating: its table, a player's history, and the chances it gives.",
        ("/v1/ratings", "/v1/predict"),
    ),
    (
        "odds",
        "Bookmakers' prices of a match, and a betting strategy run against the closing prices.",
        ("/v1/odds", "/v1/backtest"),
    ),
    ("analysis", "Analyses across the archive: seeds, deciding games, records, the market, upsets.", ("/v1/analysis",)),
    (
        "places",
        "A country's profile, the halls and the host cities.",
        ("/v1/countries/{code}", "/v1/venues", "/v1/locations"),
    ),
    (
        "reference",
        "Lists to start from: countries, series, the calendar, and search by name.",
        ("/v1/countries", "/v1/series", "/v1/calendar", "/v1/search"),
    ),
    ("live", "Matches in play, and their scores as a stream (Server-Sent Events).", ("/v1/live",)),
    ("usage", "The key's plan, calls and limits.", ("/v1/usage",)),
)


def _covers(prefix: str, path: str) -> bool:
    return path == prefix or path.startswith(prefix + "/")


def tag_of(path: str) -> str:
    """The tag of the resource `path` is about; a path no prefix takes is its own first segment
    (tests/service/test_openapi.py asks that every path be taken)."""
    best = max(
        ((len(prefix), tag) for tag, _, prefixes in TAGS for prefix in prefixes if _covers(prefix, path)), default=None
    )
    return best[1] if best else path.removeprefix("/v1/").split("/")[0]


def tag_objects(used: set[str]) -> list[dict[str, Any]]:
    """The description's top-level `tags`, those in use, in the table's order."""
    return [{"name": tag, "description": text} for tag, text, _ in TAGS if tag in used] + [
        {"name": tag} for tag in sorted(used - {t for t, _, _ in TAGS})
    ]
