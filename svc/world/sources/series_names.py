"""The public BWF files' names of things, as the world names them: an event's series (one slug
per event across years and sponsor names: "YONEX All England Open Badminton Championships 2019"
is `all-england`; "(New Dates)" is dropped), its tier and year, a host city's name, a player's
gender from the event."""

from __future__ import annotations

import datetime as dt
import re

from svc.world.generate.ids import fold, slugify
from svc.world.sources.import_report import Report

# (words in the folded event name, series slug, series name); the first that matches wins.
# Sponsors, years and "(New Dates)" are not part of a series' name.
SERIES: tuple[tuple[str, str, str], ...] = (
    ("all england", "all-england", "All England Open"),
    ("world tour finals", "world-tour-finals", "World Tour Finals"),
    ("fuzhou china open", "fuzhou-china-open", "Fuzhou China Open"),
    ("china open", "china-open", "China Open"),
    ("china masters", "china-masters", "China Masters"),
    ("indonesia open", "indonesia-open", "Indonesia Open"),
    ("indonesia masters super 100", "indonesia-masters-super-100", "Indonesia Masters Super 100"),
    ("indonesia masters", "indonesia-masters", "Indonesia Masters"),
    ("malaysia open", "malaysia-open", "Malaysia Open"),
    ("malaysia masters", "malaysia-masters", "Malaysia Masters"),
    ("thailand masters", "thailand-masters", "Thailand Masters"),
    ("thailand open", "thailand-open", "Thailand Open"),
    ("japan open", "japan-open", "Japan Open"),
    ("akita masters", "akita-masters", "Akita Masters"),
    ("denmark open", "denmark-open", "Denmark Open"),
    ("french open", "french-open", "French Open"),
    ("german open", "german-open", "German Open"),
    ("swiss open", "swiss-open", "Swiss Open"),
    ("dutch open", "dutch-open", "Dutch Open"),
    ("us open", "us-open", "US Open"),
    ("canada open", "canada-open", "Canada Open"),
    ("new zealand open", "new-zealand-open", "New Zealand Open"),
    ("australian open", "australian-open", "Australian Open"),
    ("korea open", "korea-open", "Korea Open"),
    ("korea masters", "korea-masters", "Korea Masters"),
    ("hong kong open", "hong-kong-open", "Hong Kong Open"),
    ("india open", "india-open", "India Open"),
    ("syed modi", "syed-modi-international", "Syed Modi International"),
    ("hyderabad open", "hyderabad-open", "Hyderabad Open"),
    ("macau open", "macau-open", "Macau Open"),
    ("singapore open", "singapore-open", "Singapore Open"),
    ("chinese taipei open", "chinese-taipei-open", "Chinese Taipei Open"),
    ("vietnam open", "vietnam-open", "Vietnam Open"),
    ("russian open", "russian-open", "Russian Open"),
    ("saarlorlux open", "saarlorlux-open", "SaarLorLux Open"),
    ("scottish open", "scottish-open", "Scottish Open"),
    ("orleans masters", "orleans-masters", "Orléans Masters"),
    ("spain masters", "spain-masters", "Spain Masters"),
    # the calendar's World Championships is the edition the record's medallists belong to; the
    # junior and senior (veterans') championships come first, as their names hold the same words
    (
        "world junior mixed team championships",
        "world-junior-mixed-team-championships",
        "World Junior Mixed Team Championships",
    ),
    ("world junior championships", "world-junior-championships", "World Junior Championships"),
    ("world senior championships", "world-senior-championships", "World Senior Championships"),
    ("world championships", "world-championships", "World Championships"),
)
# host city as written -> the city's name (spellings and districts of one city)
CITY_NAMES = {
    "gwangju metropolitan city": "Gwangju",
    "kowloon": "Hong Kong",
    "ling shui": "Lingshui",
    "macau city": "Macau",
    "muelheim an der ruhr": "Mülheim an der Ruhr",
    "odense v": "Odense",
    "orleans": "Orléans",
    "saarbrucken": "Saarbrücken",
    "taipei city": "Taipei",
    "vladivostock": "Vladivostok",
    "bukit jalil": "Kuala Lumpur",
}
NEW_DATES = re.compile(r"\(new dates\)", re.I)


def gender_of(discipline: str, place: int) -> str:
    """A player's gender from the event: a mixed pair is listed man first."""
    return {"MS": "M", "MD": "M", "WS": "W", "WD": "W"}.get(discipline) or ("M" if place == 0 else "W")


def city_name(written: str) -> str:
    """A host city as written (any case, a district or another spelling) as the city's name."""
    written = written.strip()
    return CITY_NAMES.get(fold(written), written.title() if written.isupper() else written)


def series_of(event_name: str, tier: str | None, report: Report) -> tuple[str, str]:
    """(slug, name) of an event's series, whatever the year and sponsor."""
    folded = " ".join(fold(NEW_DATES.sub("", event_name)).replace("-", " ").split())
    words = set(f"{folded} {fold(tier or '')}".split())
    for pattern, slug, name in SERIES:
        if all(w in words for w in pattern.split()):
            return slug, name
    # an event this table does not know: its name less the year, the edition's number ("13th",
    # "III"), "presented by ..." and capitalised sponsor words
    name = re.sub(r"\bpresented by\b.*$", "", NEW_DATES.sub("", event_name), flags=re.I)
    plain = (
        " ".join(
            w
            for w in name.split()
            if not re.fullmatch(r"(19|20)\d\d|\d+(st|nd|rd|th)|[IVX]+", w) and not (w.isupper() and len(w) > 2)
        )
        or event_name
    )
    report.series_by_fallback.append(event_name)
    return slugify(plain), plain


def tier_of(tournament_type: str) -> str | None:
    if "Finals" in tournament_type:
        return "World Tour Finals"
    m = re.search(r"Super (\d+)", tournament_type)
    return f"Super {m.group(1)}" if m else None


def year_of(event_name: str, day: dt.date) -> int:
    years = [int(w) for w in re.findall(r"\b(19\d\d|20\d\d)\b", event_name)]
    return years[-1] if years else day.year
