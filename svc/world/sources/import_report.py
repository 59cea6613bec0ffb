"""What an import of the public BWF files did and could not do: the report `svc world --source bwf`
prints at its end and keeps in the bundle's manifest (every record that cannot be mapped is
counted here, never dropped silently)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs

from svc.world.sources import record_finals


@attrs.define
class Report:
    """What the import did and could not do; printed at the end of `svc world --source bwf`."""

    matches: int = 0
    matches_with_rallies: int = 0
    editions: int = 0
    players_from_matches: int = 0
    players_from_rankings_only: int = 0
    name_variants_merged: int = 0
    partners: Counter = attrs.field(factory=Counter)  # exact / inferred / unknown
    retirements: Counter = attrs.field(factory=Counter)  # by_bracket / by_score / unresolved
    ranking_rows: Counter = attrs.field(factory=Counter)  # per discipline
    ranking_rows_matched: Counter = attrs.field(factory=Counter)  # to a player of the match files
    ranking_rows_known_person: Counter = attrs.field(factory=Counter)  # whose name parts are in the match files
    ranking_rows_known_matched: Counter = attrs.field(factory=Counter)
    unplaced_in_draw: int = 0
    calendar_editions: int = 0  # editions of the calendar file (no matches)
    calendar_cancelled: int = 0
    series_by_fallback: list[str] = attrs.field(factory=list)
    unknown_countries: Counter = attrs.field(factory=Counter)
    problems: list[str] = attrs.field(factory=list)  # file:line: what
    rows_refused: int = 0  # rows nothing was taken from (each in `problems`); an increment prints it
    record_counts: record_finals.RecordCounts | None = None  # the record's finals and medallists (full import)
    record_problems: list[str] = attrs.field(factory=list)  # the record's messy and refused rows: file:line: what

    def as_dict(self) -> dict[str, Any]:
        share = {
            d: round(self.ranking_rows_matched[d] / n, 4) if n else None for d, n in sorted(self.ranking_rows.items())
        }
        known = {
            d: round(self.ranking_rows_known_matched[d] / n, 4) if n else None
            for d, n in sorted(self.ranking_rows_known_person.items())
        }
        return {
            "matches": self.matches,
            "matches_with_rallies": self.matches_with_rallies,
            "editions": self.editions,
            "players_from_matches": self.players_from_matches,
            "players_from_rankings_only": self.players_from_rankings_only,
            "name_variants_merged": self.name_variants_merged,
            "doubles_side_two_partner": dict(sorted(self.partners.items())),
            "retirements": dict(sorted(self.retirements.items())),
            "ranking_rows": dict(sorted(self.ranking_rows.items())),
            "ranking_rows_matched_to_match_players": dict(sorted(self.ranking_rows_matched.items())),
            "ranking_share_matched": share,
            "ranking_share_matched_of_players_in_match_data": known,
            "matches_unplaced_in_draw": self.unplaced_in_draw,
            "calendar_editions": self.calendar_editions,
            "calendar_cancelled": self.calendar_cancelled,
            "series_by_fallback": sorted(set(self.series_by_fallback)),
            "unknown_countries": dict(sorted(self.unknown_countries.items())),
            **({"record": self.record_counts.as_dict()} if self.record_counts else {}),
            "problems": len(self.problems) + len(self.record_problems),
        }

    def lines(self) -> list[str]:
        d = self.as_dict()
        out = [f"{k}: {v}" for k, v in d.items()]
        out += [f"  {p}" for p in self.problems[:50]]
        if len(self.problems) > 50:
            out.append(f"  ... and {len(self.problems) - 50} more (all in the manifest's import_report)")
        out += [f"  {p}" for p in self.record_problems]  # a few lines, each about the record: all shown
        return out
