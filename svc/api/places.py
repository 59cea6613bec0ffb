"""Places of the Archive plan: /v1/countries/{code}, /v1/venues, /v1/venues/{id}, /v1/locations.

Every figure is read from tables built at import (svc/sql/derived/50_place_stats.sql), so each
answer is one indexed lookup. An edition counts as staged once it has started (editions still
to come are on /v1/calendar only)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import attrs

from svc.api.players import player_refs
from svc.api.reference import CountryItem
from svc.core.errors import invalid, not_found
from svc.core.sqlfiles import Q
from svc.web.convert import doc
from svc.web.endpoint import Answer, Call, Page, endpoint
from svc.web.paging import Paging
from svc.web.params import IOC_CODE, param
from svc.web.records import PlayerRef, TournamentRef, VenueRef

ELEVATION_DOC = (
    "metres above sea level: the hall's own where recorded, else its host city's; null when neither is known"
)


def country_param(doc_text: str = "IOC code (three letters); capitals do not matter.") -> Any:
    return param(doc_text, pattern=IOC_CODE, upper=True)


async def check_country(call: Call, code: str | None) -> None:
    """A filter naming a country we do not hold answers 422 (asked only when a list is empty)."""
    if code and not await call.db.fetchval(Q.places.country_exists, code=code):
        raise invalid(f"parameter `country`: no country with code {code!r}; see /v1/countries", "country")


# -- /v1/countries/{code} ----------------------------------------------------------------
@attrs.frozen
class CountryTopPlayer:
    id: str = attrs.field(metadata=doc("pl_ id"))
    name: str
    titles: int = attrs.field(metadata=doc("finals won in individual events"))
    matches: int = attrs.field(metadata=doc("draw matches played (walkovers not counted)"))
    wins: int
    first_year: int | None
    last_year: int | None


@attrs.frozen
class CountryTitle:
    tournament: TournamentRef
    discipline: str
    sport_class: str | None = attrs.field(metadata=doc("para badminton only"))
    date: dt.date | None = attrs.field(metadata=doc("day of the final, where known"))
    match: str = attrs.field(metadata=doc("mt_ id of the final"))
    players: list[PlayerRef] = attrs.field(
        metadata=doc("the winning side (a pair may include a player of another nation)")
    )


@attrs.frozen
class HostedEdition:
    id: str = attrs.field(metadata=doc("tr_ id"))
    name: str
    series: str
    year: int
    city: str
    venue: VenueRef | None


@attrs.frozen
class CountryProfile(CountryItem):
    """The list item of /v1/countries, and:"""

    top_players: list[CountryTopPlayer] = attrs.field(
        metadata=doc("up to ten players: most titles, then most wins, then most matches")
    )
    recent_titles: list[CountryTitle] = attrs.field(metadata=doc("the ten latest finals won, newest first"))
    hosted: list[HostedEdition] = attrs.field(metadata=doc("every edition staged in the country, newest first"))


@attrs.frozen
class CountryParams:
    code: str = param(
        "IOC code (three letters); capitals do not matter.", location="path", pattern=IOC_CODE, upper=True
    )


def _hosted(h: dict[str, Any]) -> HostedEdition:
    venue = VenueRef(**h["venue"]) if h["venue"] else None
    return HostedEdition(id=h["id"], name=h["name"], series=h["series"], year=h["year"], city=h["city"], venue=venue)


def _title(t: dict[str, Any]) -> CountryTitle:
    return CountryTitle(
        tournament=TournamentRef(**t["tournament"]),
        discipline=t["discipline"],
        sport_class=t["sport_class"],
        date=dt.date.fromisoformat(t["date"]) if t["date"] else None,
        match=t["match"],
        players=player_refs(t["players"]),
    )


@endpoint(
    "/v1/countries/{code}",
    plan="archive",
    summary="One country: players, titles, top players, editions staged",
    params=CountryParams,
    returns=CountryProfile,
    description="A country's profile: players and active players (a match in the last two years), titles "
    "(finals won in individual events, by discipline), its ten best players (most titles, then "
    "wins), its ten latest titles with the winning players, and every edition it staged (started "
    "editions only), newest first. Figures are as of the last import. Unknown code: 404.",
)
async def country_profile(call: Call) -> Answer:
    r = await call.db.fetchrow(Q.places.country_profile, code=call.p.code)
    if r is None:
        raise not_found(f"no country with code {call.p.code}")
    profile = CountryProfile(
        code=r["code"],
        name=r["name"],
        players=r["players"],
        active_players=r["active_players"],
        first_year=r["first_year"],
        titles=r["titles"],
        titles_by_discipline=r["titles_by_discipline"],
        top_players=[CountryTopPlayer(**p) for p in r["top_players"]],
        recent_titles=[_title(t) for t in r["recent_titles"]],
        hosted=[_hosted(h) for h in r["hosted"]],
    )
    return Answer(profile)


# -- /v1/venues, /v1/venues/{id} ---------------------------------------------------------
@attrs.frozen
class VenueItem:
    id: str = attrs.field(metadata=doc("vn_ id"))
    name: str
    city: str
    country: str | None = attrs.field(metadata=doc("IOC code of the host city"))
    elevation_m: int | None = attrs.field(metadata=doc(ELEVATION_DOC))
    editions: int = attrs.field(metadata=doc("editions staged here (started editions only)"))
    first_year: int | None
    last_year: int | None


@attrs.frozen
class StagedEdition:
    id: str = attrs.field(metadata=doc("tr_ id"))
    name: str
    series: str
    year: int
    start: dt.date | None
    end: dt.date | None


@attrs.frozen
class VenueProfile:
    id: str = attrs.field(metadata=doc("vn_ id"))
    name: str
    city: str
    country: str | None
    elevation_m: int | None = attrs.field(metadata=doc(ELEVATION_DOC))
    editions: int
    first_year: int | None
    last_year: int | None
    tournaments: list[StagedEdition] = attrs.field(metadata=doc("every edition staged here, newest first"))


@attrs.frozen
class VenuesParams(Paging):
    country: str | None = country_param("Only halls in this country (IOC code).")
    city: str | None = param("Only halls in this host city (whole name; accents and capitals do not matter).")
    q: str | None = param("Part of the hall's name (accents and capitals do not matter).")


def _venue_item(r: Any) -> VenueItem:
    return VenueItem(**{f.name: r[f.name] for f in attrs.fields(VenueItem)})


@endpoint(
    "/v1/venues",
    plan="archive",
    summary="Halls that staged editions, most editions first",
    params=VenuesParams,
    returns=VenueItem,
    many=True,
    description="Halls that staged at least one edition (started editions only), most editions first, then "
    "by name. `elevation_m` is the height above sea level in metres: the hall's own where recorded, "
    "else its host city's. `q` matches part of the name and `city` the whole city name, both "
    "ignoring accents and capitals. A `country` we do not hold answers 422.",
)
async def venues(call: Call) -> Page:
    p = call.p
    rows = await call.db.fetch(
        Q.places.venues, country=p.country, city=p.city, q=p.q, offset=call.offset, limit=call.limit
    )
    if not rows:
        await check_country(call, p.country)
    return call.page(rows, _venue_item)


@attrs.frozen
class VenueParams:
    id: str = param("Venue id (vn_...).", location="path", prefix="vn_")


@endpoint(
    "/v1/venues/{id}",
    plan="archive",
    summary="One hall and every edition it staged, newest first",
    params=VenueParams,
    returns=VenueProfile,
    description="A hall with its city, elevation (metres above sea level: its own, else its city's) and "
    "every edition it staged, newest first (started editions only). Unknown id: 404.",
)
async def venue(call: Call) -> Answer:
    r = await call.db.fetchrow(Q.places.venue, id=call.p.id)
    if r is None:
        raise not_found(f"no venue with id {call.p.id}")
    staged = [
        StagedEdition(
            id=s["id"],
            name=s["name"],
            series=s["series"],
            year=s["year"],
            start=dt.date.fromisoformat(s["start"]) if s["start"] else None,
            end=dt.date.fromisoformat(s["end"]) if s["end"] else None,
        )
        for s in r["staged"]
    ]
    return Answer(
        VenueProfile(
            **{f.name: r[f.name] for f in attrs.fields(VenueProfile) if f.name != "tournaments"}, tournaments=staged
        )
    )


# -- /v1/locations -----------------------------------------------------------------------
@attrs.frozen
class HallRef:
    id: str = attrs.field(metadata=doc("vn_ id"))
    name: str
    editions: int = attrs.field(metadata=doc("editions this hall staged in the city"))


@attrs.frozen
class HostCity:
    city: str
    country: str | None = attrs.field(metadata=doc("IOC code"))
    elevation_m: int | None = attrs.field(
        metadata=doc("the city's height above sea level in metres; null when unknown")
    )
    editions: int = attrs.field(metadata=doc("editions staged in the city (started editions only)"))
    first_year: int
    last_year: int
    venues: list[HallRef] = attrs.field(metadata=doc("halls used, most editions first"))
    years: list[int] = attrs.field(metadata=doc("years staged, oldest first"))


@attrs.frozen
class LocationsParams(Paging):
    country: str | None = country_param("Only host cities in this country (IOC code).")
    q: str | None = param("Part of the city's name (accents and capitals do not matter).")


@endpoint(
    "/v1/locations",
    plan="archive",
    summary="Host cities, most editions first, with halls and years",
    params=LocationsParams,
    returns=HostCity,
    many=True,
    description="Cities that staged at least one edition (started editions only), most editions first, then "
    "by name, with the halls used and the years staged. `elevation_m` is the city's height above "
    "sea level in metres. A `country` we do not hold answers 422.",
)
async def locations(call: Call) -> Page:
    p = call.p
    rows = await call.db.fetch(Q.places.locations, country=p.country, q=p.q, offset=call.offset, limit=call.limit)
    if not rows:
        await check_country(call, p.country)

    def shape(r: Any) -> HostCity:
        return HostCity(
            city=r["city"],
            country=r["country"],
            elevation_m=r["elevation_m"],
            editions=r["editions"],
            first_year=r["first_year"],
            last_year=r["last_year"],
            venues=[HallRef(**v) for v in r["venues"]],
            years=list(r["years"]),
        )

    return call.page(rows, shape)
