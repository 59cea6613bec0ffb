"""The draw of an edition rebuilt from its matches, so that /v1/tournaments/{id}/draw reads as a
bracket: positions from the final down (the winner of position p plays at ceil(p/2) of the next
round; matches a walkover left without a place take the free places of their round), the
Finals' group stage as groups A and B (who played whom), qualifying rounds in play order."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from svc.world.sources import bwf_tour
from svc.world.sources.bwf_tour import ROUND_ORDER
from svc.world.sources.import_report import Report


def place(matches: list[dict[str, Any]], report: Report) -> None:
    """Positions: the main draw from the final down, groups and qualifying in play order."""
    by_event: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for m in matches:
        by_event[(m["edition"]["id"], m["discipline"])].append(m)
    for event in by_event.values():
        event.sort(key=lambda m: (m["row"].day, m["row"].where))
        main = defaultdict(list)
        for m in event:
            if m["round_code"] in ROUND_ORDER:
                main[m["round_code"]].append(m)
        rounds = [c for c in ROUND_ORDER if c in main]
        for i, code in enumerate(reversed(rounds)):
            this = main[code]
            if i == 0:
                for p, m in enumerate(this, 1):
                    m["position"] = p
                continue
            after = main[rounds[len(rounds) - i]]
            taken: set[int] = set()
            for nxt in sorted(after, key=lambda m: m.get("position", 10**6)):
                for n, side in ((1, nxt["side1"]), (2, nxt["side2"])):
                    keys = {p.key for p in side}
                    feeder = next(
                        (
                            m
                            for m in this
                            if "position" not in m and m["winner"] and {p.key for p in m[f"side{m['winner']}"]} & keys
                        ),
                        None,
                    )
                    if feeder is not None and "position" in nxt:
                        feeder["position"] = 2 * nxt["position"] - (2 - n)
                        taken.add(feeder["position"])
            free = (p for p in range(1, 2 * len(after) + len(this) + 1) if p not in taken)
            for m in this:
                if "position" not in m:
                    m["position"] = next(free)
                    report.unplaced_in_draw += 1
        # the finals' group stage: two groups of four, told apart by who played whom
        group_matches = [m for m in event if m["row"].round in bwf_tour.GROUP_ROUNDS]
        groups = _groups(group_matches)
        for letter, members in zip("AB", groups):
            for p, m in enumerate([m for m in group_matches if m["side1"][0].key in members], 1):
                m["round_name"], m["position"] = f"Group {letter}", p
        # qualifying rounds and anything else: in play order within its round
        counters: Counter = Counter()
        for m in event:
            if "position" not in m:
                counters[m["round_name"]] += 1
                m["position"] = counters[m["round_name"]]


def _groups(group_matches: list[dict[str, Any]]) -> list[set[str]]:
    """The players (by side one's first player) of each group: who played whom, joined up."""
    links: dict[str, set[str]] = defaultdict(set)
    for m in group_matches:
        a, b = m["side1"][0].key, m["side2"][0].key
        links[a].add(b)
        links[b].add(a)
    groups, seen = [], set()
    for m in group_matches:  # in play order: group A is the group of the first match played
        start = m["side1"][0].key
        if start in seen:
            continue
        group, todo = set(), [start]
        while todo:
            k = todo.pop()
            if k not in group:
                group.add(k)
                todo.extend(links[k])
        seen |= group
        groups.append(group)
    return groups
