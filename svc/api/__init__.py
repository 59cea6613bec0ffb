"""The endpoints, one module per resource. Importing this package imports every module in
it, which registers their endpoints (svc.web.endpoint.REGISTRY) in module-name order."""

import importlib
import pkgutil

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    importlib.import_module(f"{__name__}.{_module}")
