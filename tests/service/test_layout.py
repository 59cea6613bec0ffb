"""Every endpoint can be found by name: its handler in svc/api/<resource>.py (or the live hub's
own svc_live/endpoints.py), its statements in svc/sql/queries/<resource>/, its tests in
tests/api/test_<resource>.py (docs/architecture.md, "Finding things")."""

from __future__ import annotations

from pathlib import Path

from svc.assembly import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
NO_SQL = {"usage"}  # /v1/usage answers from the key check alone


def test_every_endpoint_is_found_by_its_resource_name():
    assert REGISTRY
    for ep in REGISTRY:
        module = ep.handler.__module__
        if module == "svc_live.endpoints":
            assert ep.path.startswith("/v1/live"), ep.path
            assert (ROOT / "tests/live/test_stream.py").exists()
            continue
        package, resource = module.rsplit(".", 1)
        assert package == "svc.api", (ep.path, module)
        tests = ROOT / "tests" / "api" / f"test_{resource}.py"
        assert tests.exists(), (ep.path, resource)
        assert resource in NO_SQL or (ROOT / "svc" / "sql" / "queries" / resource).is_dir(), (ep.path, resource)
        last = "/" + [part for part in ep.path.split("/") if part and not part.startswith("{")][-1]
        assert last in tests.read_text(), f"{tests.name} never asks for {ep.path}"
