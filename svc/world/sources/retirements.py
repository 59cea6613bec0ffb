"""A retirement's winner, which the public BWF files do not give: the side that played the next
round of the draw, else the side ahead on games and then points when play stopped, else unknown."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from svc.world.sources.bwf_tour import ROUND_ORDER
from svc.world.sources.import_report import Report


def settle(matches: list[dict[str, Any]], report: Report) -> None:
    """A retirement's winner: who played on in the draw, else the score (see the module)."""
    later: dict[tuple[str, str], list[tuple[int, set[str]]]] = defaultdict(list)
    for m in matches:
        if m["round_code"] in ROUND_ORDER:
            keys = {p.key for p in m["side1"]} | {p.key for p in m["side2"]}
            later[(m["edition"]["id"], m["discipline"])].append((ROUND_ORDER.index(m["round_code"]), keys))
    for m in matches:
        row = m["row"]
        if row.winner != 0:
            continue
        ev = (m["edition"]["id"], m["discipline"])
        here = ROUND_ORDER.index(m["round_code"]) if m["round_code"] in ROUND_ORDER else None
        if here is not None:
            on = [
                n
                for n, side in ((1, m["side1"]), (2, m["side2"]))
                if any(r > here and {p.key for p in side} & keys for r, keys in later[ev])
            ]
            if len(on) == 1:
                m["winner"] = on[0]
                report.retirements["by_bracket"] += 1
                continue
        won1 = sum(1 for a, b in row.games if a > b and (a >= 21))
        won2 = sum(1 for a, b in row.games if b > a and (b >= 21))
        last = row.games[-1] if row.games else (0, 0)
        lead = (won1, last[0]) > (won2, last[1]), (won2, last[1]) > (won1, last[0])
        if any(lead):
            m["winner"] = 1 if lead[0] else 2
            report.retirements["by_score"] += 1
        else:
            report.retirements["unresolved"] += 1
