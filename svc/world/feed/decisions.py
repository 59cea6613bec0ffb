"""What a step of the live feed decides, as plain values: made in Trio without I/O
(svc.world.feed.simulate), written in one transaction each on the database side
(svc.world.feed.persist). Nothing here reads or writes anything."""

from __future__ import annotations

import datetime as dt

import attrs

Rally = tuple[int, int, int, int, int, int]  # game, rally in the game, server, winner, score1, score2
Side = tuple[str, ...]  # player ids


@attrs.frozen
class Quotes:
    """Prices of a match's two sides, bookmaker by bookmaker (parallel lists)."""

    books: list[str]
    price1: list[float]
    price2: list[float]


@attrs.frozen
class Rallies:
    """The rallies a match played in one step and the score they leave."""

    match_id: str
    played: list[Rally]
    g1: list[int]
    g2: list[int]
    rally_no: int  # rallies played over the whole match
    next_at: dt.datetime  # when the next rally is due
    first: bool  # the match's first rally is among them: the match has started


@attrs.frozen
class InPlay:
    """A match that goes on after this step, with its in-play prices (None: nobody prices it)."""

    rallies: Rallies
    quotes: Quotes | None


@attrs.frozen
class NextMatch:
    """A match of the next round (or the bronze match), scheduled once both of its feeders are done."""

    id: str
    event_id: str
    tournament_id: str
    discipline: str
    sport_class: str | None
    round_code: str
    round_name: str
    position: int
    side1: Side
    side2: Side
    seed1: int | None
    seed2: int | None
    day: dt.date
    start_at: dt.datetime
    quotes: Quotes | None  # opening prices, when the bookmakers priced its feeders


@attrs.frozen
class Slip:
    """A result published with a slip in one game's score, corrected to the true one at `due_at`."""

    due_at: dt.datetime
    true_g1: list[int]
    true_g2: list[int]


@attrs.frozen
class Finished:
    """A match won in this step: the score as published (with a slip now and then), what it
    schedules, and whether its edition may be over with it."""

    rallies: Rallies
    tournament_id: str
    winner: int
    ended_at: dt.datetime
    published_g1: list[int]
    published_g2: list[int]
    slip: Slip | None
    next_matches: list[NextMatch]
    may_end_edition: bool  # a final, a bronze match, a team tie's match or one of no round


@attrs.frozen
class Correction:
    """A slipped result whose correction is due: the true score, recorded at `at` (world time)."""

    match_id: str
    g1: list[int]
    g2: list[int]
    at: dt.datetime
