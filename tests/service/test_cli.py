"""The operator's command line: what it prints and what it changes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from urllib.parse import urlsplit, urlunsplit

from svc.access import keys as svc_keys
from tests.support import sql

KEY = re.compile(r"^bk_live_[A-Za-z0-9]{40}$")


def svc(db_url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": db_url}
    return subprocess.run([sys.executable, "-m", "svc", *args], env=env, capture_output=True, text=True, timeout=60)


def key_state(db_url: str, key: str) -> str:
    return sql(db_url, "SELECT state FROM api_keys WHERE key_hash = $1", svc_keys.key_hash(key))[0]["state"]


def test_keys_create_prints_only_the_key_and_replace_ends_the_old_one(db_url):
    made = svc(db_url, "keys", "create", "--plan", "archive", "--account", "cli-acme")
    assert made.returncode == 0, made.stderr
    key = made.stdout.strip()
    assert KEY.match(key) and made.stdout == key + "\n"
    stored = sql(
        db_url,
        "SELECT k.prefix, a.plan FROM api_keys k JOIN accounts a ON a.name = k.account WHERE k.key_hash = $1",
        svc_keys.key_hash(key),
    )[0]
    assert stored["plan"] == "archive" and key.startswith(stored["prefix"])
    assert not sql(
        db_url, "SELECT 1 FROM api_keys WHERE prefix = $1 AND key_hash = convert_to($2, 'UTF8')", stored["prefix"], key
    ), "the key itself is never stored"

    replaced = svc(db_url, "keys", "replace", key)
    assert replaced.returncode == 0, replaced.stderr
    new = replaced.stdout.strip()
    assert KEY.match(new) and new != key
    assert key_state(db_url, key) == "replaced" and key_state(db_url, new) == "current"
    again = svc(db_url, "keys", "replace", key)
    assert again.returncode != 0 and "already replaced" in again.stderr


def test_accounts_plan_changes_the_plan_and_refuses_unknown_accounts(db_url):
    assert svc(db_url, "keys", "create", "--plan", "free", "--account", "cli-upgrade").returncode == 0
    changed = svc(db_url, "accounts", "plan", "cli-upgrade", "live")
    assert changed.returncode == 0, changed.stderr
    assert sql(db_url, "SELECT plan FROM accounts WHERE name = 'cli-upgrade'")[0]["plan"] == "live"
    unknown = svc(db_url, "accounts", "plan", "nobody-here", "odds")
    assert unknown.returncode != 0 and "no account" in unknown.stderr
    clash = svc(db_url, "keys", "create", "--plan", "free", "--account", "cli-upgrade")
    assert clash.returncode != 0 and "accounts plan" in clash.stderr


def test_db_url_prints_the_url_in_use(db_url):
    shown = svc(db_url, "db", "url")
    assert shown.returncode == 0 and shown.stdout.strip() == db_url


def test_world_generation_into_a_log_file_writes_a_handful_of_plain_lines(pg_server_url, tmp_path):
    """Not a terminal: no redraws (carriage returns), a line per step start and end and every few seconds."""
    from tests.support import drop_database, new_database

    name = f"svc_cli_world_{os.getpid()}"
    db_url = new_database(pg_server_url, name)
    try:
        log = tmp_path / "world.log"
        with open(log, "w") as err:
            done = subprocess.run(
                [sys.executable, "-m", "svc", "world", "--scale", "tiny", "--as-of", "2026-11-23"],
                env={**os.environ, "DATABASE_URL": db_url},
                stdout=subprocess.DEVNULL,
                stderr=err,
                timeout=300,
            )
        text = log.read_text()
        assert done.returncode == 0, text
        lines = text.splitlines()
        assert "\r" not in text
        steps = {line.split(":")[0] for line in lines if re.match(r"^[a-z][a-z ]+: \d+/\d+", line)}
        assert len(steps) >= 3 and len(lines) <= 4 * len(steps) + 20, lines
        assert lines[-1].startswith("world loaded: scale tiny")
    finally:
        drop_database(pg_server_url, name)


async def test_serve_against_database_url_prints_no_working_key_and_no_password(db_url, tmp_path):
    """Against an operator's DATABASE_URL, `serve` makes no demo keys and prints none (they would
    land in its logs), nor the database's password; it says how to make a key instead."""
    import signal

    import httpx

    from svc.testing.serving import serve_process

    from .test_two_servers import wait_until_up

    keys_before = sql(db_url, "SELECT count(*) AS n FROM api_keys")[0]["n"]
    # the test server trusts local connections: a password in the URL is accepted and ignored
    parts = urlsplit(db_url)
    with_password = urlunsplit(
        parts._replace(netloc=f"{parts.username or 'postgres'}:not-for-logs@{parts.netloc.rpartition('@')[2]}")
    )
    with serve_process(with_password, tmp_path, "--workers", "1", SVC_LIVE_FEED="0", SVC_HOOKS="0") as (proc, base):
        async with httpx.AsyncClient(timeout=10) as client:
            await wait_until_up(client, base, tmp_path)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    printed = next(tmp_path.glob("server-*.log")).read_text()
    assert "listening on" in printed and "python -m svc keys create" in printed
    assert "bk_live_" not in printed and "not-for-logs" not in printed
    assert not (tmp_path / "demo-keys.json").exists()
    assert sql(db_url, "SELECT count(*) AS n FROM api_keys")[0]["n"] == keys_before
