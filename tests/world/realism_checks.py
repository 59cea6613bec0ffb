"""A generated world as the real one is: nobody in two places a day, nations in their era, invented
names apart from real ones and from each other, hosts and champions on record, matches within
their edition's dates, doubles pairs of one nation, seniors specialists. Each check takes a bundle
read by rules_support.World (tests/world/test_rules.py runs them)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict

from tests.world.rules_support import World, array


def check_one_place_a_day(w: World) -> None:
    """Nobody plays two tournaments on one day, nor enters two events starting in one calendar week."""
    places: dict[tuple[str, str], set[str]] = defaultdict(set)
    entered: dict[str, set[str]] = defaultdict(set)
    for m in w.matches:
        for pid in array(m["side1"]) + array(m["side2"]):
            entered[pid].add(m["tournament_id"])
            if m["day"]:
                places[(pid, m["day"])].add(m["tournament_id"])
    twice = {k: v for k, v in places.items() if len(v) > 1}
    assert not twice, list(twice.items())[:5]
    starts = {t["id"]: dt.date.fromisoformat(t["start_date"]) for t in w.tournaments.values() if t["start_date"]}
    for pid, tournaments in entered.items():
        weeks = [starts[t].isocalendar()[:2] for t in tournaments if t in starts]
        assert len(weeks) == len(set(weeks)), (pid, sorted(weeks))


def check_nations_in_their_era(w: World) -> None:
    """No player of a nation plays before the nation's first year (facts.NATION_FROM); the first
    All Englands are British and Irish."""
    from svc.world import facts

    country = {p["id"]: p["country"] for p in w.tables["players"]}
    years = {t["id"]: int(t["year"]) for t in w.tournaments.values()}
    early = []
    for m in w.matches:
        for pid in array(m["side1"]) + array(m["side2"]):
            if facts.NATION_FROM.get(country[pid], 0) > years[m["tournament_id"]]:
                early.append((pid, country[pid], years[m["tournament_id"]]))
    assert not early, early[:5]


def check_no_real_names(w: World) -> None:
    """No invented player or coach bears the name of a player in the shipped BWF data (any order,
    case or accent) or of a champion of the years before it."""
    from svc.world.naming import CHAMPIONS, deny_keys, real_names

    real = {k: n for n in sorted(real_names()) + list(CHAMPIONS) for k in deny_keys(n)}
    people = [p["name"] for p in w.tables["players"]]
    people += [c.strip() for p in w.tables["players"] if p["coach"] for c in p["coach"].split(",")]
    clashes = [(n, real[k]) for n in people for k in deny_keys(n) if k in real]
    assert not clashes, clashes[:5]


def check_names_apart_while_active(w: World) -> None:
    """No two players of one nation share a full name (any case or accent) in years they both play."""
    from svc.world.generate.ids import fold

    years: dict[str, list[int]] = defaultdict(list)
    year_of = {t["id"]: int(t["year"]) for t in w.tournaments.values()}
    for m in w.matches:
        for pid in array(m["side1"]) + array(m["side2"]):
            years[pid].append(year_of[m["tournament_id"]])
    spans: dict[tuple[str, str], list[tuple[int, int, str]]] = defaultdict(list)
    for p in w.tables["players"]:
        if years[p["id"]]:
            spans[(p["country"], fold(p["name"]))].append((min(years[p["id"]]), max(years[p["id"]]), p["id"]))
    both = [
        (k, a, b)
        for k, got in spans.items()
        for i, a in enumerate(got)
        for b in got[i + 1 :]
        if a[0] <= b[1] and b[0] <= a[1]
    ]
    assert not both, both[:5]


def check_hosts_on_record(w: World) -> None:
    """Editions with a host on record (facts.HOSTS) are held there; the Thomas and Uber Cups are
    held together (one city, the same days) from 1984."""
    from svc.world import facts

    city_name = {c["id"]: c["name"] for c in w.tables["cities"]}
    seen = 0
    for t in w.tournaments.values():
        want = (
            facts.host_of(facts.SERIES_BY_SLUG[t["series"]], int(t["year"]))
            if t["series"] in facts.SERIES_BY_SLUG
            else None
        )
        if want is not None:
            assert city_name[t["city_id"]] == want, (t["name"], city_name[t["city_id"]], want)
            seen += 1
    assert seen
    cups = {
        (t["series"], int(t["year"])): t for t in w.tournaments.values() if t["series"] in ("thomas-cup", "uber-cup")
    }
    for (series, year), t in cups.items():
        other = cups.get(("uber-cup", year)) if series == "thomas-cup" and year >= 1984 else None
        if other is not None:
            assert (other["city_id"], other["start_date"], other["end_date"]) == (
                t["city_id"],
                t["start_date"],
                t["end_date"],
            )


def check_champions_as_on_record(w: World) -> None:
    """The nation that won each Thomas, Uber and Sudirman Cup, Olympic gold and World Championships
    gold is the record's (svc/world/data/record/): the draw is played, the world's people are
    invented, the nations' victories are not."""
    from svc.world import record

    country = {p["id"]: p["country"] for p in w.tables["players"]}
    won: dict[tuple[str, int, str], str] = {}
    for m in w.matches:
        if m["round_code"] == "F" and not m["tie_id"] and m["status"] == "finished" and not m["sport_class"]:
            t = w.tournaments[m["tournament_id"]]
            won[(t["series"], int(t["year"]), m["discipline"])] = country[(m["s1"] if m["W"] == 1 else m["s2"])[0]]
    for tie in w.tables["ties"]:
        if tie["round_code"] == "F":
            t = w.tournaments[tie["tournament_id"]]
            won[(t["series"], int(t["year"]), record.TEAM)] = tie["team1"] if tie["winner"] == "1" else tie["team2"]
    held = {k: v for k, v in record.champion_nations().items() if k in won}
    assert {"world-championships", "olympic-games", "thomas-cup", "uber-cup", "sudirman-cup"} <= {k[0] for k in held}
    wrong = {k: (v, won[k]) for k, v in held.items() if won[k] != v}
    assert not wrong, wrong


def check_matches_within_their_dates(w: World) -> None:
    """Every match is played on a day of its edition (the early editions were shorter than their
    series is today: their finals too)."""
    outside = []
    for m in w.matches:
        t = w.tournaments[m["tournament_id"]]
        if m["day"] and t["start_date"] and not t["start_date"] <= m["day"] <= t["end_date"]:
            outside.append((m["id"], m["day"], t["start_date"], t["end_date"]))
    assert not outside, outside[:5]


def check_pairs_of_one_nation(w: World) -> None:
    """Doubles pairs are of one nation, as every pair of the real World Tour is."""
    country = {p["id"]: p["country"] for p in w.tables["players"]}
    mixed = [
        (m["id"], side)
        for m in w.matches
        if m["discipline"] in ("MD", "WD", "XD")
        for side in (m["s1"], m["s2"])
        if len({country[p] for p in side}) > 1
    ]
    assert not mixed, mixed[:5]


def check_specialists(w: World) -> None:
    """Since the 1990s no senior plays singles and doubles in one season (team ties aside: a small
    nation fills a rubber as it can; juniors play what they like)."""
    year_of = {t["id"]: int(t["year"]) for t in w.tournaments.values()}
    kinds: dict[tuple[str, int], set[str]] = defaultdict(set)
    for m in w.matches:
        t = w.tournaments[m["tournament_id"]]
        if m["tie_id"] or m["sport_class"] or t["level"] != "senior" or year_of[m["tournament_id"]] < 2000:
            continue
        for pid in m["s1"] + m["s2"]:
            kinds[(pid, year_of[m["tournament_id"]])].add("singles" if m["discipline"] in ("MS", "WS") else "doubles")
    both = [k for k, v in kinds.items() if len(v) > 1]
    assert not both, both[:5]
