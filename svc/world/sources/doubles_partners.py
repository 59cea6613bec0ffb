"""Side two of a doubles match in the public BWF files lost its second player: it is taken from the
same event, where that player is on side one with their partner (exact), else from the nearest
other event of the discipline (inferred), else left unknown (the side holds the one player known)."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from svc.world.sources.import_report import Report
from svc.world.sources.persons import Person


def rebuild(
    matches: list[dict[str, Any]], held: list[tuple[str, str, dt.date | None, Person, Person]], report: Report
) -> None:
    """Side two of a doubles match: the one player known and their partner (see the module).
    `held`: the pairs a database already holds (an increment: edition id, discipline, day and
    its two people), where a side two finds its partner when the rows do not show it."""
    partner_in: dict[tuple[str, str], dict[str, Person]] = defaultdict(dict)  # (edition, disc) -> key -> partner
    seen_on_side1: dict[tuple[str, str], list[tuple[dt.date, Person]]] = defaultdict(list)  # (disc, key)
    for m in matches:
        if m["discipline"] in ("MD", "WD", "XD") and len(m["side1"]) == 2:
            a, b = m["side1"]
            ev = (m["edition"]["id"], m["discipline"])
            partner_in[ev][a.key], partner_in[ev][b.key] = b, a
            seen_on_side1[(m["discipline"], a.key)].append((m["row"].day, b))
            seen_on_side1[(m["discipline"], b.key)].append((m["row"].day, a))
    for tid, discipline, day, a, b in held:  # what the database holds (an increment)
        partner_in[(tid, discipline)].setdefault(a.key, b)
        partner_in[(tid, discipline)].setdefault(b.key, a)
        if day is not None:
            seen_on_side1[(discipline, a.key)].append((day, b))
            seen_on_side1[(discipline, b.key)].append((day, a))
    for m in matches:
        if m["discipline"] not in ("MD", "WD", "XD") or len(m["side2"]) != 1:
            continue
        known = m["side2"][0]
        ev = (m["edition"]["id"], m["discipline"])
        partner = partner_in[ev].get(known.key)
        how = "exact"
        if partner is None:
            elsewhere = seen_on_side1.get((m["discipline"], known.key))
            if elsewhere:
                partner = min(elsewhere, key=lambda dp: (abs((dp[0] - m["row"].day).days), dp[1].key))[1]
                how = "inferred"
        if partner is None:
            report.partners["unknown"] += 1
            continue
        report.partners[how] += 1
        m["side2"] = [known, partner]
