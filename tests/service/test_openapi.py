"""The OpenAPI description: valid 3.1, versioned, every endpoint with its bounds."""

from __future__ import annotations

from openapi_spec_validator import validate

from svc.assembly import REGISTRY


async def test_openapi_is_valid_and_complete(client):
    r = await client.get("/v1/openapi.json")  # no key needed
    assert r.status_code == 200
    spec = r.json_body
    validate(spec)
    assert spec["openapi"].startswith("3.1")
    assert spec["info"]["version"] == "1.45.20261010"
    schemes = spec["components"]["securitySchemes"]
    assert schemes["bearer"]["scheme"] == "bearer"
    assert schemes["apiKeyHeader"] == {"type": "apiKey", "in": "header", "name": "X-API-Key"}
    assert {ep.path for ep in REGISTRY} == set(spec["paths"])
    free = [p for p, item in spec["paths"].items() if item["get"]["x-plan"] == "free"]
    assert sorted(free) == sorted(
        [
            "/v1/usage",
            "/v1/search",
            "/v1/countries",
            "/v1/results/yesterday",
            "/v1/results",
            "/v1/fixtures",
            "/v1/events/{id}",
            "/v1/calendar",
            "/v1/series",
        ]
    )
    fixtures = {p["name"]: p for p in spec["paths"]["/v1/fixtures"]["get"]["parameters"]}
    assert fixtures["per_page"]["schema"] == {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}
    assert fixtures["discipline"]["schema"]["enum"] == ["MS", "WS", "MD", "WD", "XD"]
    search = {p["name"]: p for p in spec["paths"]["/v1/search"]["get"]["parameters"]}
    assert search["q"]["required"] is True
    assert search["limit"]["schema"]["maximum"] == 50
    assert "429" in spec["paths"]["/v1/search"]["get"]["responses"]
