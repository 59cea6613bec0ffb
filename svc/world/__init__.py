"""The badminton world: static facts, the match engine, the deterministic generator, the
bundle format (one CSV per table + manifest.json) and the importer that loads a bundle."""

from svc.world.generate import SCALES, generate_bundle
from svc.world.load import load_bundle

__all__ = ["SCALES", "generate_bundle", "load_bundle"]
