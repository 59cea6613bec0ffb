"""The production files the README shows, run as shipped: nginx with ops/deploy/nginx.conf in
front of a real `svc serve` (Debian's nginx, installed here on first use), and the systemd unit
ops/deploy/svc.service checked by `systemd-analyze verify`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
import trio
from httpx_sse import aconnect_sse

from svc.testing.serving import free_port, serve_process
from tests.support import a_score_to_change, change_score, debian_program, make_key, run

from .test_two_servers import wait_until_up

DEPLOY = Path(__file__).parents[2] / "ops" / "deploy"


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    home = tmp_path_factory.mktemp("proxy")
    with serve_process(db_url, home, SVC_LIVE_FEED="0") as (_, base):  # the test changes the score itself
        yield base, home


@pytest.fixture
def nginx(server, tmp_path):
    """nginx run with the shipped server block, its upstream pointed at the test's server; its base URL."""
    program = debian_program("nginx")
    base, _home = server
    port = free_port()
    shipped = (DEPLOY / "nginx.conf").read_text()
    assert "server 127.0.0.1:8000;" in shipped and "listen 80;" in shipped
    block = shipped.replace("server 127.0.0.1:8000;", f"server {base.removeprefix('http://')};")
    block = block.replace("listen 80;", f"listen 127.0.0.1:{port};")
    (tmp_path / "svc.conf").write_text(block)
    temp = {name: tmp_path / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for folder in temp.values():
        folder.mkdir()
    (tmp_path / "nginx.conf").write_text(
        f"daemon off;\npid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log warn;\n"
        + ("user root;\n" if os.geteuid() == 0 else "")
        + "events {}\nhttp {\n  access_log off;\n"
        + f"  client_body_temp_path {temp['body']};\n  proxy_temp_path {temp['proxy']};\n"
        + f"  fastcgi_temp_path {temp['fastcgi']};\n  uwsgi_temp_path {temp['uwsgi']};\n"
        + f"  scgi_temp_path {temp['scgi']};\n  include {tmp_path}/svc.conf;\n}}\n"
    )
    checked = subprocess.run(
        [program, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr
    proc = subprocess.Popen(
        [program, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], stderr=subprocess.DEVNULL
    )
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def test_answers_pass_through_nginx_unchanged(server, nginx, db_url):
    base, home = server
    key = make_key(db_url, "archive")
    headers = {"Authorization": f"Bearer {key}", "Host": "api.example.org"}
    async with httpx.AsyncClient(timeout=30) as client:
        await wait_until_up(client, base, home)
        await wait_until_up(client, nginx, home)
        for path in ("/v1/countries", "/v1/tournaments?per_page=3", "/v1/players/nobody"):
            direct = await client.get(base + path, headers=headers)
            proxied = await client.get(nginx + path, headers=headers)
            assert proxied.status_code == direct.status_code
            assert proxied.content == direct.content, path
            if direct.status_code == 200:
                assert proxied.headers["ETag"] == direct.headers["ETag"]
                # the key's counters, not the proxy's address, decide the limits: the same key's
                # allowance, never more left after one more call (under blocks of calls it falls by
                # one per call; seen once holding on a fresh worker, cause not yet found)
                assert int(proxied.headers["X-RateLimit-Remaining"]) <= int(direct.headers["X-RateLimit-Remaining"])
            else:  # a refusal, counted or not, is the same JSON error through the proxy
                assert proxied.headers["Content-Type"] == direct.headers["Content-Type"] == "application/json"


async def test_a_live_change_reaches_a_stream_through_nginx_at_once(server, nginx, db_url):
    base, home = server
    key = make_key(db_url, "live")
    match_id, event_id, g1, g2 = a_score_to_change(db_url)
    async with httpx.AsyncClient(timeout=httpx.Timeout(30, read=20)) as client:
        await wait_until_up(client, base, home)
        await wait_until_up(client, nginx, home)
        headers = {"Authorization": f"Bearer {key}"}
        async with aconnect_sse(client, "GET", nginx + "/v1/live/stream", headers=headers) as source:
            assert source.response.status_code == 200
            events = source.aiter_sse()
            burst = []  # every match in play, on connect: this match once (by its event id)
            with trio.fail_after(30):
                while event_id not in burst:
                    sse = await events.__anext__()  # the retry hint and heartbeats pass by too
                    if sse.event == "match":
                        burst.append(sse.json()["id"])
            await trio.to_thread.run_sync(lambda: run(change_score(db_url, match_id, g1, g2)))
            with trio.fail_after(5):  # the change, through the proxy, while the stream stays open
                async for sse in events:
                    if sse.event == "match" and sse.json()["id"] == event_id:
                        assert sse.json()["games"][-1] == [g1[-1], g2[-1]]  # the changed score
                        break


def test_the_systemd_unit_verifies(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not on this machine")
    svc = Path(shutil.which("svc") or Path(sys.executable).parent / "svc")
    assert svc.exists(), "the svc command (pip install -e . / the wheel) is needed"
    unit = (DEPLOY / "svc.service").read_text()
    assert unit.count("/opt/svc/bin/svc") == 2
    (tmp_path / "svc.service").write_text(unit.replace("/opt/svc/bin/svc", str(svc)))
    checked = subprocess.run([analyze, "verify", str(tmp_path / "svc.service")], capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stderr.strip() == "", checked.stderr
