"""The scoring engine on its own: which games are legal in each era, and the pre-match chance that
prices are made from agrees with matches played as the generator plays them."""

from __future__ import annotations

import datetime as dt

from svc.world import engine


def test_engine_legal_game_by_era() -> None:
    old, mid, new = dt.date(1990, 1, 1), dt.date(2004, 1, 1), dt.date(2010, 1, 1)
    assert (
        engine.legal_game(15, 14, "MS", old)
        and engine.legal_game(18, 17, "MD", old)
        and engine.legal_game(17, 14, "MS", old)
    )
    assert not engine.legal_game(18, 12, "MS", old) and not engine.legal_game(16, 14, "MS", old)
    assert (
        engine.legal_game(12, 9, "WS", old)
        and engine.legal_game(11, 10, "WS", old)
        and not engine.legal_game(13, 11, "WS", old)
    )
    assert engine.legal_game(17, 16, "MS", mid) and not engine.legal_game(18, 15, "MS", mid)
    assert engine.legal_game(13, 10, "WS", mid) and not engine.legal_game(12, 10, "WS", mid)
    assert (
        engine.legal_game(21, 19, "MS", new)
        and not engine.legal_game(21, 20, "MS", new)
        and engine.legal_game(22, 20, "WS", new)
    )
    assert (
        engine.legal_game(30, 29, "XD", new)
        and engine.legal_game(30, 28, "XD", new)
        and not engine.legal_game(31, 29, "MS", new)
    )
    # rally point from the 2006 Thomas & Uber Cups (28 April 2006), the first event played to 21
    assert engine.era_rules("MS", dt.date(2006, 4, 27)).rally_point is False
    assert engine.era_rules("MS", dt.date(2006, 4, 28)).rally_point is True


def test_the_pre_match_chance_is_the_chance_play_gives() -> None:
    """Prices and the hidden truth (engine.match_chance: averaged over the form on the day, with the
    serving edge and the game given up) agree with matches played the way the generator plays them."""
    import random

    rng = random.Random(11)
    for disc in ("MS", "WS", "MD", "WD", "XD"):
        bias = engine.bias(disc, engine.RALLY)
        for gap in (-80.0, 0.0, 60.0):
            won = sum(
                engine.sample_match(rng, engine.rally_chance(gap + engine.form(rng, disc), 0.0), engine.RALLY, bias)[2]
                == 1
                for _ in range(4000)
            )
            assert abs(engine.match_chance(gap, engine.RALLY, disc)[0] - won / 4000) < 0.025, (disc, gap)
