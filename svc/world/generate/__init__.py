"""Deterministic generator of the badminton world -> a bundle directory (docs/bundle.md).

Same seed + as_of + scale give byte-identical files (ids). as_of is the world's "now": a
moment (recorded in world_meta `now`), or a day, which stands for noon UTC of it (context).

The pieces, each a module, in the order the orchestrator runs them:
  calendar     editions of every series by era, the current week, the tour after it
  people       birth cohorts, nations strong by era, doubles partnerships
  draws        entries, knockout brackets with seeds, the finals' groups; results from
               svc.world.engine
  teams        Thomas, Uber and Sudirman Cup ties
  timetable    days and times of play; the live feed's plans; the current week cut at now
  prices       bookmakers' prices (the one pricing function, pre-match and in play)
  corrections  results published wrong, then corrected
  rankings     ranking points and the weekly lists
The live feed (svc.world.feed) uses the pieces, never the orchestrator.
"""

from svc.world.generate.orchestrator import GENERATOR, generate_bundle
from svc.world.generate.scales import SCALES

__all__ = ["GENERATOR", "SCALES", "generate_bundle"]
