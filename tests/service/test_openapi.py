"""The OpenAPI description: valid 3.1, versioned, every endpoint with its bounds; operations named
as their tools and tagged by resource; error answers with their headers and their real codes."""

from __future__ import annotations

from openapi_spec_validator import validate

from svc.access.plans import PLANS
from svc.assembly import REGISTRY
from svc.core.errors import ERRORS
from svc.tools.catalog import tools
from tests.support import make_key, sql


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


async def test_operations_are_named_as_their_tools_and_tagged_by_resource(client):
    spec = (await client.get("/v1/openapi.json")).json_body
    ops = {path: item["get"] for path, item in spec["paths"].items()}
    assert ops["/v1/players/{id}"]["operationId"] == "get_player"
    assert ops["/v1/players/{id}/form"]["operationId"] == "player_form"
    assert ops["/v1/rankings/number-ones"]["operationId"] == "rankings_number_ones"
    assert [op["operationId"] for op in ops.values()] == [t.name for t in tools(spec)]
    assert len({op["operationId"] for op in ops.values()}) == len(ops)
    declared = {t["name"]: t for t in spec["tags"]}
    titles = {p.title for p in PLANS.values()}  # the tags by plan these were
    for path, op in ops.items():
        assert len(op["tags"]) == 1 and op["tags"][0] in declared, path  # /docs shows each operation once
        assert declared[op["tags"][0]].get("description"), f"{path}: tag {op['tags'][0]} is in no TAGS row"
        assert op["x-plan"] in PLANS and not set(op["tags"]) & titles
    assert {ops[p]["tags"][0] for p in ("/v1/players/{id}/form", "/v1/h2h", "/v1/players")} == {"players"}
    # one resource, two plans: the plan is x-plan, never the tag
    assert ops["/v1/results"]["tags"] == ops["/v1/events/{id}/points"]["tags"] == ["results"]
    assert (ops["/v1/results"]["x-plan"], ops["/v1/events/{id}/points"]["x-plan"]) == ("free", "archive")
    assert ops["/v1/live/stream"]["tags"] == ["live"] and ops["/v1/odds/{id}"]["tags"] == ["odds"]
    assert ops["/v1/series/{slug}/champions"]["tags"] == ["tournaments"] and ops["/v1/series"]["tags"] == ["reference"]


LIMIT_HEADERS = ("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Quota-Remaining")
IETF_HEADERS = ("RateLimit-Policy", "RateLimit", "Request-Id")


async def test_error_answers_declare_their_headers_and_show_their_real_codes(client, db_url):
    spec = (await client.get("/v1/openapi.json")).json_body
    for path, item in spec["paths"].items():
        op = item["get"]
        for status in ("400", "401", "403", "404", "422", "429"):
            response = op["responses"][status]
            headers = response["headers"]
            for name in LIMIT_HEADERS + IETF_HEADERS:
                assert headers[name]["required"] is False, (path, status, name)
            assert ("Retry-After" in headers) == (status == "429") and headers.get("Retry-After", {"required": True})[
                "required"
            ]
            media = response["content"]["application/json"]
            shown = [media["example"]] if "example" in media else [e["value"] for e in media["examples"].values()]
            for body in shown:
                error = body["error"]
                assert ERRORS[error["code"]].status == int(status), (path, status, error["code"])
                assert error["docs"] == f"http://localhost:8000/docs#{error['code']}"
                if error["code"] == "upgrade_required":
                    assert PLANS[error["plan"]].rank >= max(1, PLANS[op["x-plan"]].rank)
            codes = {body["error"]["code"] for body in shown}
            assert (
                codes
                == {
                    "400": {"bad_request"},
                    "401": {"unauthorized"},
                    "403": {"upgrade_required"},
                    "404": {"not_found"},
                    "422": {"invalid_parameter"},
                    "429": {"rate_limited", "quota_exceeded"}
                    | ({"too_many_streams"} if path == "/v1/live/stream" else set()),
                }[status]
            ), (path, status)
            if status == "429":
                quota = next(b["error"] for b in shown if b["error"]["code"] == "quota_exceeded")
                assert quota["resets_at"].endswith("T00:00:00Z")

    # what the server answers is what the examples show: a Free key on an Archive endpoint, an out
    # of range value, an unknown id
    free, archive = make_key(db_url, "free"), make_key(db_url, "archive")
    player = sql(db_url, "SELECT id FROM players ORDER BY id LIMIT 1")[0]["id"]
    form = spec["paths"]["/v1/players/{id}/form"]["get"]["responses"]
    for status, answer in (
        ("403", await client.get(f"/v1/players/{player}/form", free)),
        ("422", await client.get(f"/v1/players/{player}/form", archive, last=0)),
        ("404", await client.get("/v1/players/pl_nosuchplayer/form", archive)),
        ("401", await client.get(f"/v1/players/{player}/form")),
    ):
        assert str(answer.status_code) == status
        example = form[status]["content"]["application/json"]["example"]["error"]
        assert answer.json_body["error"]["code"] == example["code"]
        assert answer.json_body["error"].get("plan") == example.get("plan")
        assert answer.json_body["error"]["docs"].endswith("/docs#" + example["code"])
