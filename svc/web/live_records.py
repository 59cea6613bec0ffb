"""The shape of a match in play, as /v1/live answers it and the stream sends it."""

from __future__ import annotations

from typing import Any

import attrs
import orjson

from svc.web.convert import converter, doc
from svc.web.records import Event, event_from_row


@attrs.frozen
class InPlayPrices:
    """Match-winner prices while the match is played, averaged over the bookmakers quoting it."""

    bookmakers: int = attrs.field(metadata=doc("bookmakers quoting in play"))
    prices: list[float] = attrs.field(metadata=doc("average in-play price of side 1 and side 2"))


@attrs.frozen
class LiveMatch(Event):
    """An event of the results feed with the state of play (Live plan)."""

    game_in_play: int | None = attrs.field(
        default=None, metadata=doc("1-based number of the game being played; null once finished")
    )
    point: list[int] | None = attrs.field(
        default=None, metadata=doc("score of the game in play, side 1 first; null once finished")
    )
    serving: int | None = attrs.field(
        default=None, metadata=doc("side serving the next rally (1 or 2); null when not known")
    )
    in_play: InPlayPrices | None = attrs.field(
        default=None, metadata=doc("in-play match-winner prices; null when none are quoted")
    )


def live_from_row(row: Any) -> LiveMatch:
    """Shape one row of live-in-play / live-match (svc/sql/queries/live/live.sql)."""
    event = event_from_row(row, with_odds=True)  # the Live plan sees prices
    playing = row["status"] == "live"
    g1, g2 = list(row["g1"]), list(row["g2"])
    ip = row["in_play"]
    in_play = None
    if playing and ip and ip.get("bookmakers"):
        in_play = InPlayPrices(bookmakers=ip["bookmakers"], prices=[round(ip["price1"], 2), round(ip["price2"], 2)])
    return LiveMatch(
        **attrs.asdict(event, recurse=False),
        game_in_play=len(g1) if playing and g1 else None,
        point=[g1[-1], g2[-1]] if playing and g1 else None,
        serving=row["serving"] if playing else None,
        in_play=in_play,
    )


def live_payload(row: Any) -> dict[str, Any]:
    """The match in play as plain JSON values (jsonb parameters take these; the codec encodes)."""
    payload: dict[str, Any] = converter.unstructure(live_from_row(row))  # an attrs record unstructures to a dict
    return payload


def live_json(row: Any) -> str:
    """The JSON text of a match in play (a change log payload, an SSE `data:` line)."""
    return orjson.dumps(converter.unstructure(live_from_row(row))).decode()
