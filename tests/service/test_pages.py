"""The two pages a person uses, in a real browser: Debian's Chromium driven by npm's
playwright-core (both installed here on first use: `apt-get install chromium`, `npm install
playwright-core` into var/browser), against a real `svc serve` process, with every request to
another host refused (the pages work offline).

/docs: a key pasted into Authorize, GET /v1/countries tried, 200 with data; /docs#rate_limited
lands on that error's row. /live: connected with a Live key, a score changed the way the feed
changes one arrives on the page. Screenshots of both go to the test's directory."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
import trio

from svc.testing.serving import serve_process
from tests.support import a_score_to_change, change_score, debian_program, make_key, run

from .test_two_servers import wait_until_up

HERE = Path(__file__).parent
BROWSER_DIR = HERE.parents[1] / "var" / "browser"  # npm's playwright-core, kept between runs
PLAYWRIGHT_CORE = "playwright-core@1.65"


def _playwright_core() -> Path:
    modules = BROWSER_DIR / "node_modules"
    if not (modules / "playwright-core").exists():
        BROWSER_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(BROWSER_DIR), PLAYWRIGHT_CORE],
            check=True,
            capture_output=True,
        )
    return modules


@pytest.fixture(scope="module")
def browser() -> dict[str, str]:
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.fail("node and npm are needed for the browser test (npm's playwright-core)")
    return {"CHROMIUM": debian_program("chromium"), "NODE_PATH": str(_playwright_core())}


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    home = tmp_path_factory.mktemp("pages")
    with serve_process(db_url, home, SVC_LIVE_FEED="0") as (_, base):  # the test changes the score itself
        yield base, home


async def test_docs_try_it_and_live_score_change_in_chromium(browser, server, db_url, tmp_path):
    base, home = server
    async with httpx.AsyncClient(timeout=30) as client:
        await wait_until_up(client, base, home)
    key, live_key = make_key(db_url, "free"), make_key(db_url, "live")
    match_id, event_id, g1, g2 = a_score_to_change(db_url)
    expected = " ".join(f"{a}-{b}" for a, b in zip(g1, g2))
    proc = await trio.lowlevel.open_process(
        ["node", str(HERE / "pages.js"), base, key, live_key, event_id, expected, str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, **browser},
    )
    stages: dict[str, dict] = {}
    buffer = b""
    with trio.fail_after(180):
        async for chunk in proc.stdout:
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                try:
                    got = json.loads(line)
                except ValueError:
                    continue
                stages[got["stage"]] = got
                if got["stage"] == "live-connected":  # asyncpg runs on asyncio: in a thread of its own
                    await trio.to_thread.run_sync(lambda: run(change_score(db_url, match_id, g1, g2)))
        await proc.wait()
    assert "error" not in stages, stages["error"]["message"]
    docs = stages["docs"]
    assert docs["operations"] == 45  # every endpoint (the webhooks' three besides)
    assert docs["status"] == "200" and '"data"' in docs["body"]
    anchor = stages["anchor"]
    assert anchor["found"] == 1 and "rate_limited" in anchor["text"] and 0 <= anchor["top"] < 1000
    assert stages["live-connected"]["rows"] >= 1 and "live-changed" in stages
    # when play resumes, from /v1/live's meta: the world's time, the next match and the next edition
    assert "in play." in stages["live-connected"]["next"] and "Next match starts" in stages["live-connected"]["next"]
    assert stages["done"]["foreign"] == []  # nothing was asked of another host
    assert (tmp_path / "docs.png").stat().st_size > 10_000 and (tmp_path / "live.png").stat().st_size > 10_000
