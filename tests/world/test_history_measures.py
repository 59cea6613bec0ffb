"""The pieces of ops/realism.history that need no world: the public record read with the csv module
and the importer's country names gives one champion nation per edition of each great event, and a
venue run counts a flip away and back, not a move."""

from __future__ import annotations

from collections import Counter

from ops.realism import record
from ops.realism.venues import returns


def test_the_record_gives_every_great_events_champion_nation():
    champions = record.champions()
    assert Counter(c.event for c in champions) == {
        "thomas-cup": 33,
        "uber-cup": 30,
        "sudirman-cup": 19,
        "olympic-games": 44,
        "world-championships": 145,
    }
    assert len({(c.event, c.year, c.discipline) for c in champions}) == len(champions)  # one per edition
    golds = {(c.year, c.discipline): c.nation for c in record.world_championship_golds()}
    # country names as the record writes them, in the worlds' IOC codes
    assert golds[(1977, "MD")] == "INA" and golds[(1983, "WS")] == "CHN"
    assert golds[(1985, "MD")] == "KOR"  # "South Korea"
    assert golds[(1980, "WD")] == "ENG"  # "England"
    assert golds[(2005, "MD")] == "USA"  # "United States"


def test_a_venue_run_counts_returns_within_ten_years_only():
    assert returns([(2000, "A"), (2001, "B"), (2002, "A")]) == 1  # away and back
    assert returns([(2000, "A"), (2001, "B"), (2002, "B")]) == 0  # a move
    assert returns([(1980, "A"), (1985, "B"), (1995, "B"), (1996, "A")]) == 0  # back after sixteen years
    assert returns([(2000, "A"), (2001, "A")]) == 0
