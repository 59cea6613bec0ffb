"""A Python client generated from the description, as a client developer would make it: the running
server's /v1/openapi.json through openapi-python-client (run as a command, into the test's own
directory, never kept), imported and called against a real `svc serve` process.

Its functions are named and grouped as the description says (operationIds, the MCP tools' names;
one package per tag), its answers parse into its typed models, and every refusal -- 401, 403
upgrade_required, 404, 422 -- parses into its Error model with the code the description's example
for that status shows."""

from __future__ import annotations

import datetime as dt
import importlib
import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from svc.testing.serving import serve_process
from tests.support import TODAY, make_key, sql

PACKAGE = "badminton_client"
GENERATOR = Path(sys.executable).parent / "openapi-python-client"
# No post-generation hooks: the generator's default formats its output with ruff from PATH,
# which a test does not need (and which the PATH of a test run need not have).
CONFIG = "post_hooks: []\n"


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    home = tmp_path_factory.mktemp("client")
    with serve_process(db_url, home, SVC_LIVE_FEED="0", SVC_HOOKS="0") as (proc, base):
        deadline = time.monotonic() + 60  # process start-up: imports, migrations check, workers
        while True:
            try:
                if httpx.get(f"{base}/v1/openapi.json", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                pytest.fail("server did not come up:\n" + "".join(p.read_text() for p in home.glob("server-*.log")))
            time.sleep(0.2)
        yield base


@pytest.fixture(scope="module")
def generated(server, tmp_path_factory):
    """The generated package, imported; and the description it was made from."""
    out = tmp_path_factory.mktemp("generated")
    text = httpx.get(f"{server}/v1/openapi.json").text
    (out / "openapi.json").write_text(text)
    (out / "config.yaml").write_text(CONFIG)
    run = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(out / "openapi.json"),
            "--meta",
            "none",
            "--output-path",
            str(out / PACKAGE),
            "--config",
            str(out / "config.yaml"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=out,
    )
    # the generator says "Warning(s) encountered" when it skipped a part it could not read
    assert run.returncode == 0 and "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(PACKAGE), json.loads(text)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _module(package, tag: str, operation: str):
    return importlib.import_module(f"{package.__name__}.api.{tag}.{operation}")


def _example_code(description: dict, path: str, status: int) -> str:
    media = description["paths"][path]["get"]["responses"][str(status)]["content"]["application/json"]
    return media["example"]["error"]["code"]


def test_generated_client_calls_across_plans(generated, server, db_url):
    package, description = generated
    client_module = importlib.import_module(f"{package.__name__}.client")
    models = importlib.import_module(f"{package.__name__}.models")
    free = client_module.AuthenticatedClient(base_url=server, token=make_key(db_url, "free"))
    archive = client_module.AuthenticatedClient(base_url=server, token=make_key(db_url, "archive"))
    player = sql(db_url, "SELECT id, name FROM players ORDER BY id LIMIT 1")[0]

    # a Free call: the typed answer holds what the plain HTTP answer holds
    calendar = _module(package, "reference", "calendar")
    year = TODAY.year
    answer = calendar.sync_detailed(client=free, year=year)
    assert answer.status_code == 200, answer.content
    assert isinstance(answer.parsed, models.CalendarResponse200)
    entries = answer.parsed.data
    assert entries and all(isinstance(e, models.CalendarEntry) for e in entries)
    raw = httpx.get(f"{server}/v1/calendar", params={"year": year}, headers={"X-API-Key": free.token}).json()
    assert [e.id for e in entries] == [e["id"] for e in raw["data"]]
    assert {type(e.start) for e in entries} <= {dt.date, type(None)} and dt.date in {type(e.start) for e in entries}
    assert [e.status.value for e in entries] == [e["status"] for e in raw["data"]]
    assert answer.headers["X-RateLimit-Limit"] == "10"

    # an Archive call, by the tool's name, grouped under its resource
    get_player = _module(package, "players", "get_player")
    profile = get_player.sync(id=player["id"], client=archive)
    assert isinstance(profile, models.GetPlayerResponse200)
    assert isinstance(profile.data, models.PlayerProfile)
    assert (profile.data.id, profile.data.name) == (player["id"], player["name"])
    form = _module(package, "players", "player_form").sync(id=player["id"], client=archive, last=3)
    assert isinstance(form, models.PlayerFormResponse200) and len(form.data) <= 3
    assert all(isinstance(row, models.FormRow) and row.result.value in ("W", "L") for row in form.data)

    # refusals parse into the Error model, each with the code the description's example shows
    refused = {
        401: get_player.sync_detailed(id=player["id"], client=client_module.Client(base_url=server)),
        403: get_player.sync_detailed(id=player["id"], client=free),
        404: get_player.sync_detailed(id="pl_nosuchplayer", client=archive),
        422: _module(package, "players", "player_form").sync_detailed(id=player["id"], client=archive, last=0),
    }
    for status, answer in refused.items():
        assert answer.status_code == status, answer.content
        assert isinstance(answer.parsed, models.Error), answer.content
        error = answer.parsed.error
        assert error.code.value == _example_code(description, "/v1/players/{id}", status)
        assert error.docs == f"{server}/docs#{error.code.value}"
        assert error.message
    assert refused[401].parsed.error.code == models.ErrorErrorCode.UNAUTHORIZED
    assert refused[403].parsed.error.plan == models.ErrorErrorPlan.ARCHIVE
    assert refused[422].parsed.error.code == models.ErrorErrorCode.INVALID_PARAMETER
    assert "last" in refused[422].parsed.error.message
