"""GET /v1/search: players, tournaments, series, countries, venues and cities by name."""

from __future__ import annotations

import re

import attrs

from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, endpoint
from svc.web.params import MAX_YEAR, MIN_YEAR, param

KINDS = ("player", "tournament", "series", "country", "venue", "city")
_YEAR = re.compile(r"\b(1[89][0-9][0-9]|20[0-9][0-9]|2100)\b")


@attrs.frozen
class SearchParams:
    q: str = param(
        "What to look for. Accents and capitals do not matter; `A/B` finds both players of a pair; "
        "a year (e.g. `All England 2019`) selects that edition.",
        required=True,
    )
    kind: str | None = param("Only hits of this kind.", enum=KINDS)
    limit: int = param("Hits at most; with `A/B`, per player of the pair.", default=10, minimum=1, maximum=50)


@attrs.frozen
class SearchHit:
    kind: str = attrs.field(metadata=doc("player, tournament, series, country, venue or city"))
    id: str | None = attrs.field(
        metadata=doc("pl_, tr_ or vn_ id; the slug of a series; the IOC code of a country; null for a city")
    )
    name: str
    country: str | None
    score: int = attrs.field(metadata=doc("match quality, 30 to 100"))


def split_query(q: str) -> tuple[list[str], list[int | None]]:
    """The parts of a query ("A/B" is two) and the year named in each, if any."""
    parts, years = [], []
    for part in q.split("/") if "/" in q else [q]:
        found = _YEAR.search(part)
        year = int(found.group(1)) if found and MIN_YEAR <= int(found.group(1)) <= MAX_YEAR else None
        text = _YEAR.sub(" ", part) if year else part
        text = " ".join(text.split())
        if text or year:
            parts.append(text)
            years.append(year)
    return parts, years


@endpoint(
    "/v1/search",
    plan="free",
    summary="Search players, tournaments, series, countries, venues and cities",
    params=SearchParams,
    returns=SearchHit,
    many=True,
    description="Hits best first with a match quality `score` from 30 to 100. Accents and capitals do not "
    "matter. `Name/Name` finds both players of a pair (`limit` then applies per player). A year "
    "in the query selects that edition of a tournament. A hit's `id` is the pl_, tr_ or vn_ id; "
    "for a series its slug, for a country its IOC code, for a city null.",
)
async def search(call: Call) -> Answer:
    parts, years = split_query(call.p.q)
    if not parts:
        return Answer([], {"parts": 0})
    kind = call.p.kind or ("player" if len(parts) > 1 else None)
    if parts == [""]:  # only a year: the editions of that year
        rows = await call.db.fetch(Q.search.year, year=years[0], kind=kind, limit=call.p.limit)
    else:
        texts = [(t, y) for t, y in zip(parts, years) if t]
        rows = await call.db.fetch(
            Q.search.names, parts=[t for t, _ in texts], years=[y for _, y in texts], kind=kind, limit=call.p.limit
        )
    hits, seen = [], set()
    for r in rows:
        ident = (r["kind"], r["id"], r["name"])
        if ident not in seen:
            seen.add(ident)
            hits.append(SearchHit(kind=r["kind"], id=r["id"], name=r["name"], country=r["country"], score=r["score"]))
    return Answer(hits, {"parts": len(parts)})
