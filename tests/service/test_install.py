"""The service as an operator installs it (issue 27, "Installable" and "One file").

The wheel, built once per session from the sources as they are, is installed into a clean virtual
environment, where its `svc` command migrates a database of the test server, loads a tiny world, makes
a key and serves; the one-file zipapp (`python3 dev.py zipapp`, the same builder) is run by a Python
with nothing installed, against the embedded PostgreSQL it carries. Each must answer every path of its
own /v1/openapi.json with JSON and no 5xx. Slow (about two minutes on 2 cores, most of it pip
installing the dependencies, from its cache when it has them); PyPI must be reachable.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from svc import API_VERSION
from svc.testing.serving import free_port
from tests.support import drop_database, new_database, sql

ROOT = Path(__file__).resolve().parents[2]
PATHS = 45  # the paths of /v1/openapi.json
PLAN = "live"  # includes every endpoint of the plans below it
STARTED_WITHIN_S = 120  # a first start of the zipapp unpacks it before it serves
STREAM_READ_S = 5  # how long the live stream is read for a first message
# What a path needs beyond its required parameters to answer with data: the ratings table takes a
# discipline or a player, either of which the description can only list as optional.
MORE_QUERY = {"/v1/ratings": ["discipline=MS"]}


def dev_py():
    """dev.py, the module behind the README's `python3 dev.py zipapp`, whose builders the tests use."""
    spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without what would let the checkout, or the test's own settings, stand in for
    what is installed (PYTHONPATH, a DATABASE_URL, the service's SVC_* settings)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "DATABASE_URL") and not k.startswith("SVC_")
    }
    return {**env, "SVC_LOG_LEVEL": "WARNING", **extra}


def run(argv: list[str | Path], env: dict[str, str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in argv], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{argv}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="session")
def built_wheel(tmp_path_factory) -> Path:
    return dev_py().build_wheel(Path(sys.executable), tmp_path_factory.mktemp("wheel"))


# -- asking every path -------------------------------------------------------------------------------
def sample_values(client: httpx.Client) -> dict[str, str]:
    """Ids the world holds, as a client finds them: from the list endpoints."""

    def first(path: str) -> list[dict]:
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.text)
        return answer.json()["data"]

    match = first("/v1/matches?per_page=1")[0]
    return {
        # two players who meet, so that head to head and a prediction have something to say
        "player": match["side1"]["players"][0]["id"],
        "player2": match["side2"]["players"][0]["id"],
        "name": match["side1"]["players"][0]["name"].split()[0],
        "match": match["id"],
        "event": match["event"],
        "tournament": first("/v1/tournaments?per_page=1")[0]["id"],
        "series": first("/v1/series")[0]["series"],
        "country": first("/v1/countries")[0]["code"],
        "venue": first("/v1/venues?per_page=1")[0]["id"],
    }


def path_value(template: str, name: str, values: dict[str, str]) -> str:
    if name == "code":
        return values["country"]
    if name == "slug":
        return values["series"]
    resource = template.split("/")[2]  # /v1/<resource>/{id}...
    return values[
        {
            "players": "player",
            "matches": "match",
            "odds": "match",
            "events": "event",
            "tournaments": "tournament",
            "venues": "venue",
        }[resource]
    ]


def query_value(param: dict, values: dict[str, str]) -> str:
    schema = param.get("schema", {})
    if schema.get("enum"):
        return str(schema["enum"][0])
    if schema.get("format") == "date":
        return (dt.date.today() - dt.timedelta(days=1)).isoformat()
    return {"player1": values["player"], "player2": values["player2"], "q": values["name"]}[param["name"]]


def request_for(template: str, operation: dict, values: dict[str, str]) -> str:
    """The path with its path parameters filled and its required query parameters given."""
    path, query = template, list(MORE_QUERY.get(template, []))
    for param in operation.get("parameters", []):
        if param["in"] == "path":
            path = path.replace("{" + param["name"] + "}", quote(path_value(template, param["name"], values)))
        elif param["in"] == "query" and param.get("required"):
            query.append(f"{param['name']}={quote(query_value(param, values))}")
    return path + ("?" + "&".join(query) if query else "")


def check_stream(client: httpx.Client, path: str) -> int:
    """The live stream opens as an event stream; a message that comes within STREAM_READ_S is JSON."""
    with client.stream("GET", path, timeout=httpx.Timeout(10, read=STREAM_READ_S)) as answer:
        assert answer.status_code < 500, (path, answer.status_code)
        if answer.status_code != 200:
            answer.read()
            answer.json()
            return answer.status_code
        assert answer.headers["content-type"].startswith("text/event-stream")
        try:
            for line in answer.iter_lines():
                if line.startswith("data:"):
                    json.loads(line[5:])
                    break
        except httpx.ReadTimeout:
            pass  # no play in the seconds read: the stream's head is what was asked
    return answer.status_code


def ask_every_path(base: str, key: str) -> dict[str, int]:
    """Every path of the service's own OpenAPI description asked once: status by path."""
    statuses: dict[str, int] = {}
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as client:
        spec = client.get("/v1/openapi.json").json()
        assert len(spec["paths"]) == PATHS, sorted(spec["paths"])
        values = sample_values(client)
        for template, item in spec["paths"].items():
            path = request_for(template, item["get"], values)
            if item["get"].get("responses", {}).get("200", {}).get("content", {}).get("text/event-stream"):
                statuses[template] = check_stream(client, path)
                continue
            answer = client.get(path)
            assert answer.status_code < 500, (path, answer.status_code, answer.text[:300])
            assert "json" in answer.headers.get("content-type", ""), (path, answer.headers.get("content-type"))
            answer.json()
            statuses[template] = answer.status_code
    return statuses


def not_ok(statuses: dict[str, int]) -> dict[str, int]:
    return {path: status for path, status in statuses.items() if status != 200}


# -- serving ------------------------------------------------------------------------------------------
def serve_and_ask(argv: list[str | Path], env: dict[str, str], home: Path, key: str) -> tuple[float, dict[str, int]]:
    """`argv` (a `serve` command) started; seconds until /healthz answers, and every path's status."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log_path = home / "serve.log"
    with open(log_path, "wb") as log:
        started = time.monotonic()
        proc = subprocess.Popen(
            [str(a) for a in (*argv, "serve", "--port", port)], env=env, cwd=home, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            while True:
                assert proc.poll() is None, f"serve exited {proc.returncode}:\n{log_path.read_text()}"
                assert time.monotonic() - started < STARTED_WITHIN_S, f"not up:\n{log_path.read_text()}"
                try:
                    if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.2)
            up_after = time.monotonic() - started
            return up_after, ask_every_path(base, key)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def operator_session(svc: list[str | Path], env: dict[str, str], home: Path) -> tuple[float, dict[str, int]]:
    """What the README tells an operator: migrate, a world, a key, serve."""
    assert run([*svc, "--version"], env, home).stdout.strip().endswith(f" {API_VERSION}")
    assert "migrations applied" in run([*svc, "migrate"], env, home).stderr
    assert "up to date" in run([*svc, "migrate"], env, home).stderr
    run([*svc, "world", "--scale", "tiny"], env, home)
    key = run([*svc, "keys", "create", "--plan", PLAN], env, home).stdout.strip()
    return serve_and_ask(svc, env, home, key)


# -- the tests ----------------------------------------------------------------------------------------
def test_migrate_applies_the_schema_once_and_says_so(pg_server_url, tmp_path):
    """`svc migrate` in the checkout: the files it applied, then that nothing was left to apply."""
    name = f"svc_migrate_{os.getpid()}"
    url = new_database(pg_server_url, name)
    try:
        env = {**os.environ, "DATABASE_URL": url, "SVC_HOME": str(tmp_path)}
        first = run([sys.executable, "-m", "svc", "migrate"], env, ROOT)
        applied = sql(url, "SELECT name FROM schema_migrations ORDER BY name")
        assert applied and all(row["name"] in first.stderr for row in applied)
        again = run([sys.executable, "-m", "svc", "migrate"], env, ROOT)
        assert "up to date" in again.stderr and sql(url, "SELECT count(*) AS n FROM plans")[0]["n"] == 4
        assert run([sys.executable, "-m", "svc", "--version"], env, ROOT).stdout == f"python -m svc {API_VERSION}\n"
    finally:
        drop_database(pg_server_url, name)


def test_the_installed_wheel_serves_every_path(built_wheel, pg_server_url, tmp_path):
    venv, home = tmp_path / "venv", tmp_path / "home"
    home.mkdir()
    env = clean_env(SVC_HOME=str(home))
    run([sys.executable, "-m", "venv", venv], env, tmp_path)
    run([venv / "bin" / "python", "-m", "pip", "install", "--quiet", built_wheel], env, tmp_path, timeout=600)
    python = venv / "bin" / "python"
    where = run([python, "-c", "import svc; print(svc.__file__)"], env, home).stdout
    assert where.startswith(str(venv)), where
    # svc.testing is installed and importable without the test extra, but for its httpx-driven module
    run([python, "-c", "import svc.testing.serving, svc.testing.hooks"], env, home)
    live = subprocess.run([python, "-c", "import svc.testing.live"], env=env, capture_output=True, text=True)
    assert live.returncode != 0 and "badminton-svc[test]" in live.stderr

    name = f"svc_install_{os.getpid()}"
    env["DATABASE_URL"] = new_database(pg_server_url, name)
    try:
        up_after, statuses = operator_session([venv / "bin" / "svc"], env, home)
    finally:
        drop_database(pg_server_url, name)
    print(
        f"\nwheel {built_wheel.stat().st_size / 1e6:.1f} MB; installed `svc serve` answered after {up_after:.1f} s; "
        f"not 200: {not_ok(statuses)}"
    )
    assert len(statuses) == PATHS


def test_the_zipapp_serves_every_path_with_only_python(built_wheel, tmp_path):
    """Run by a Python with nothing installed (a venv without even pip), without DATABASE_URL: the
    embedded PostgreSQL the zipapp carries."""
    zipapp, bare, home = tmp_path / "svc.pyz", tmp_path / "bare", tmp_path / "home"
    home.mkdir()
    env = clean_env(SVC_HOME=str(home), SHIV_ROOT=str(tmp_path / "unpacked"))
    dev_py().build_zipapp(Path(sys.executable), built_wheel, zipapp, "--quiet")
    run([sys.executable, "-m", "venv", "--without-pip", bare], env, tmp_path)
    svc = [bare / "bin" / "python", zipapp]
    started = time.monotonic()
    run([*svc, "--version"], env, home)  # the first start unpacks the archive into SHIV_ROOT
    unpacked_after = time.monotonic() - started
    try:
        up_after, statuses = operator_session(svc, env, home)
    finally:
        subprocess.run([str(a) for a in (*svc, "db", "stop")], env=env, cwd=home, capture_output=True, timeout=60)
    print(
        f"\nzipapp {zipapp.stat().st_size / 1e6:.1f} MB; first start (unpacking) {unpacked_after:.1f} s; "
        f"`svc.pyz serve` answered after {up_after:.1f} s; not 200: {not_ok(statuses)}"
    )
    assert len(statuses) == PATHS
