"""Invented people's names: the nation's conventions, never a real player's name, and apart
within a nation while active (svc/world/naming.py)."""

import random

from svc.world import facts
from svc.world.naming import DENIED_FILE, NATION_POOLS, Namer, compose, deny_keys, is_denied, real_names


def test_the_shipped_deny_list_holds_every_real_name():
    """The checked-in keys are those of the shipped data (`python -m svc denied-names` rebuilds them)."""
    want = {k for n in real_names() for k in deny_keys(n)}
    have = set(DENIED_FILE.read_text(encoding="utf-8").splitlines())
    assert want == have, "run python -m svc denied-names"


def test_a_real_name_is_denied_in_any_order_case_or_spacing():
    for spelling in (
        "Viktor AXELSEN",
        "AXELSEN Viktor",
        "viktor axelsen",
        "LEE Zii Jia",
        "Zii Jia LEE",
        "Lee Zii-Jia",
        "LIN Dan",
        "Dan LIN",
    ):
        assert is_denied(spelling), spelling
    assert not is_denied("Viktor ANTONSENN")


def test_every_nation_has_names_and_family_first_nations_write_it_so():
    rng = random.Random(7)
    for code, _name, _cont in facts.COUNTRIES:
        assert code in NATION_POOLS or code in facts.NO_PLAYERS, code
    for _ in range(50):
        for nation in ("CHN", "TPE", "HKG", "KOR", "VIE"):
            name = compose(rng, nation, "M", 1995)
            assert name.split()[0].isupper() and not name.split()[-1].isupper(), name
        name = compose(rng, "DEN", "W", 1995)
        assert name.split()[-1].isupper() and not name.split()[0].isupper(), name
    # feminine family names where the language has them
    women = {compose(rng, "RUS", "W", 1990).split()[-1] for _ in range(200)}
    assert all(not w.endswith(("OV", "EV", "SKY")) for w in women), women
    assert any(w.endswith("OVA") for w in women)


def test_no_two_active_players_of_a_nation_share_a_name():
    namer = Namer()
    rng = random.Random(3)
    # far more players than a small pool gives single names for: a second given name keeps them apart
    names = [namer.player(rng, "ETH", "M", 1990, 2004, 2020) for _ in range(3000)]
    assert len(set(names)) == len(names)
    # once a player has stopped, the name may come back
    later = Namer()
    first = later.player(random.Random(5), "NEP", "W", 1950, 1964, 1980)
    assert later.player(random.Random(5), "NEP", "W", 1990, 2004, 2020) == first
