"""The world generated on several processes is the world generated on one, byte for byte: the
editions are played in chunks (svc/world/generate/chunks.py) whose shares are joined in calendar
order, and a chunk begins only where the editions on either side cannot see each other."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from svc.world.generate import generate_bundle
from svc.world.generate.calendar import build_calendar, series_of
from svc.world.generate.chunks import split
from svc.world.generate.context import Context
from svc.world.generate.scales import SCALES

SEED = 1899
AS_OF = dt.date(2026, 11, 24)


def files_of(path: Path) -> dict[str, bytes]:
    return {f.name: f.read_bytes() for f in sorted(path.iterdir())}


def test_tiny_world_is_the_same_on_one_process_and_on_two(tmp_path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    generate_bundle(one, scale="tiny", seed=SEED, as_of=AS_OF, processes=1)
    generate_bundle(two, scale="tiny", seed=SEED, as_of=AS_OF, processes=2)
    a, b = files_of(one), files_of(two)
    assert sorted(a) == sorted(b)
    differ = [name for name in a if a[name] != b[name]]
    assert not differ, f"differ between one process and two: {differ}"
    assert len(a["matches.csv"].splitlines()) > 1000  # a world, not two empty ones


def test_chunks_begin_between_seasons_and_cover_the_calendar() -> None:
    """Two processes get several chunks of the tiny calendar (else the test above proves nothing),
    each beginning at a new play year, with no edition left out or played twice."""
    ctx = Context.make(SEED, SCALES["tiny"], AS_OF)
    calendar = build_calendar(ctx.seed, ctx.scale, ctx.as_of, series_of(ctx.scale))
    ranges = split(calendar, ctx, 8)
    assert len(ranges) >= 3
    assert ranges[0][0] == 0 and ranges[-1][1] == len(calendar)
    assert all(stop == first for (_a, stop), (first, _b) in zip(ranges, ranges[1:]))
    for first, _stop in ranges[1:]:
        before, after = calendar[first - 1], calendar[first]
        assert before.play_year < after.play_year
