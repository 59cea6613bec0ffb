"""The endpoints. Importing this package registers them (svc.endpoint.REGISTRY)."""

from . import usage, search, reference, results  # noqa: F401
