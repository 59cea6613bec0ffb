"""A report's figures and their Markdown: each figure with this world's value, the real one (the
real data or the public record; "-" where neither holds it), the target and whether it is met.
The measuring modules of ops/realism.history build `Section`s; this module only writes them."""

from __future__ import annotations

import attrs

PASS, MISS = "PASS", "MISS"


@attrs.frozen
class Figure:
    name: str
    ours: str
    real: str = "-"
    target: str = "-"
    met: bool | None = None  # None: no target, or nothing to measure


@attrs.frozen
class Section:
    title: str
    figures: tuple[Figure, ...]
    # what the table cannot hold: lists of offenders, tables by nation, how a figure was read
    notes: tuple[str, ...] = ()


def verdict(met: bool | None) -> str:
    return "n/a" if met is None else PASS if met else MISS


def percent(part: int | float, whole: int | float) -> float | None:
    return None if not whole else 100.0 * part / whole


def shown(value: float | int | None, digits: int = 1, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}{unit}"
    return f"{value:,.{digits}f}{unit}"


def at_most(value: float | int | None, limit: float) -> bool | None:
    return None if value is None else value <= limit


def at_least(value: float | int | None, floor: float) -> bool | None:
    return None if value is None else value >= floor


def markdown(section: Section) -> str:
    lines = [
        f"## {section.title}",
        "",
        "| figure | this world | real / record | target | verdict |",
        "|---|---:|---:|---|---|",
    ]
    lines += [f"| {f.name} | {f.ours} | {f.real} | {f.target} | {verdict(f.met)} |" for f in section.figures]
    if section.notes:
        lines += ["", *section.notes]
    return "\n".join(lines)


def tally(sections: list[Section]) -> str:
    """One line: how many figures with a target are met."""
    judged = [f for s in sections for f in s.figures if f.met is not None]
    met = sum(f.met for f in judged)
    return f"{met} of {len(judged)} figures with a target met"
