"""The record's champion nation wins its title as the draw is played (svc/world/record.py), never
by a result written over."""

from __future__ import annotations

from typing import TYPE_CHECKING

from svc.world.generate.context import Context
from svc.world.generate.ids import sub_rng

if TYPE_CHECKING:  # the event played (draws.py imports this module)
    from svc.world.generate.draws import Event, Match

# The record's champion nation wins the title as the draw is played, never by a result written
# over: the event is played out afresh (the same draw, new rallies) until it does, and after
# RECORD_LUCK tries its sides play in the form of their lives, a little more each time.
RECORD_LUCK = 12
RECORD_FORM_STEP = 12.0  # strength points of form added every try after RECORD_LUCK
RECORD_TRIES = 80


def champion_of(ctx: Context, ev: Event, play_out, winner_of):
    """Plays an event out (`play_out()`, its matches) until `winner_of(matches)` is the record's
    champion nation (ev.champion), or once when the record names none."""
    if ev.champion is None:
        return play_out()
    seed_key = (ctx.seed, ev.ed.id, ev.disc, ev.sport_class, "again")
    for attempt in range(RECORD_TRIES):
        if attempt:
            ev.rng = sub_rng(*seed_key, attempt)
            ev.champion_form = RECORD_FORM_STEP * max(0, attempt - RECORD_LUCK)
        matches = play_out()
        if winner_of(matches) == ev.champion:
            break
    ev.champion_form = 0.0
    return matches


def final_winner(matches: list[Match]) -> str | None:
    final = next((m for m in matches if m.round_code == "F"), None)
    if final is None or final.winner is None:
        return None
    return (final.side1 if final.winner == 1 else final.side2)[0].country
