"""`python -m svc hooks ...`: add (id and whsec_ secret once), list, resume, remove, test;
refusals exit 2 with a message naming the problem."""

from __future__ import annotations

import base64
import datetime as dt
import secrets

import pytest

from svc.__main__ import main
from tests.support import make_key, sql

PUBLIC_URL = "https://93.184.216.34/webhooks"  # a public address literal: no DNS needed


@pytest.fixture
def env(db_url, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", db_url)
    monkeypatch.delenv("SVC_HOOKS_ALLOW_LOCAL", raising=False)
    monkeypatch.delenv("SVC_SMTP_URL", raising=False)
    return db_url


def run(capsys, *argv):
    code = main(["hooks", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_add_prints_id_and_secret_once_and_list_never_shows_it(env, capsys):
    account = f"cli-{secrets.token_hex(3)}"
    make_key(env, "live", account=account)
    code, out, err = run(
        capsys, "add", "--account", account, "--url", PUBLIC_URL, "--events", "match.started,match.finished"
    )
    assert code == 0, err
    endpoint_id, secret = out.split()
    assert endpoint_id.startswith("whe_") and secret.startswith("whsec_") and len(secret) > 30
    assert "shown only now" in err
    stored = sql(env, "SELECT account, url, events, secret, state FROM webhook_endpoints WHERE id = $1", endpoint_id)[0]
    assert (stored["account"], stored["url"], stored["events"], stored["secret"], stored["state"]) == (
        account,
        PUBLIC_URL,
        ["match.started", "match.finished"],
        secret,
        "active",
    )
    code, out, _ = run(capsys, "list", "--account", account)
    assert code == 0 and endpoint_id in out and "active" in out and "never" in out and secret not in out


def test_eleventh_endpoint_is_refused(env, capsys):
    account = f"cli-{secrets.token_hex(3)}"
    make_key(env, "live", account=account)
    for i in range(10):
        assert (
            run(capsys, "add", "--account", account, "--url", f"{PUBLIC_URL}/{i}", "--events", "match.finished")[0] == 0
        )
    code, out, err = run(capsys, "add", "--account", account, "--url", PUBLIC_URL, "--events", "match.finished")
    assert code == 2 and out == "" and "10" in err and "remove" in err
    assert sql(env, "SELECT count(*) FROM webhook_endpoints WHERE account = $1", account)[0][0] == 10


@pytest.mark.parametrize(
    "url,why",
    [
        ("http://93.184.216.34/x", "https"),
        ("https://93.184.216.34:8443/x", "port 443"),
        ("https://127.1/x", "loopback"),
        ("https://0177.0.0.1/x", "loopback"),
        ("https://2130706433/x", "loopback"),
        ("https://0x7f000001/x", "loopback"),
        ("https://localhost/x", "loopback"),
        ("https://10.0.0.1/x", "private"),
        ("https://[::ffff:127.0.0.1]/x", "IPv4-mapped"),
        ("https://100.64.0.1/x", "carrier-grade NAT"),
    ],
)
def test_refused_urls_exit_2_naming_the_reason(env, capsys, url, why):
    account = f"cli-{secrets.token_hex(3)}"
    make_key(env, "live", account=account)
    code, out, err = run(capsys, "add", "--account", account, "--url", url, "--events", "match.finished")
    assert code == 2 and out == "" and why in err
    assert sql(env, "SELECT count(*) FROM webhook_endpoints WHERE account = $1", account)[0][0] == 0


def test_bad_events_account_and_plan_are_refused(env, capsys):
    free = f"cli-{secrets.token_hex(3)}"
    make_key(env, "free", account=free)
    code, _, err = run(capsys, "add", "--account", free, "--url", PUBLIC_URL, "--events", "match.finished")
    assert code == 2 and "Live plan" in err
    code, _, err = run(
        capsys, "add", "--account", "nobody-" + secrets.token_hex(3), "--url", PUBLIC_URL, "--events", "match.finished"
    )
    assert code == 2 and "no account" in err
    code, _, err = run(capsys, "add", "--account", free, "--url", PUBLIC_URL, "--events", "match.paused")
    assert code == 2 and "match.paused" in err


def test_resume_and_remove(env, capsys):
    account = f"cli-{secrets.token_hex(3)}"
    make_key(env, "live", account=account)
    endpoint_id = run(capsys, "add", "--account", account, "--url", PUBLIC_URL, "--events", "match.finished")[
        1
    ].split()[0]
    pause(env, endpoint_id)
    code, out, _ = run(capsys, "resume", endpoint_id)
    assert code == 0 and out.startswith(f"resumed {endpoint_id}: 0 pending deliveries continue")
    row = sql(env, "SELECT state, failures_in_row FROM webhook_endpoints WHERE id = $1", endpoint_id)[0]
    assert (row["state"], row["failures_in_row"]) == ("active", 0)
    assert run(capsys, "remove", endpoint_id)[0] == 0
    assert sql(env, "SELECT count(*) FROM webhook_endpoints WHERE id = $1", endpoint_id)[0][0] == 0
    for command in ("resume", "remove", "test"):
        code, _, err = run(capsys, command, endpoint_id)
        assert code == 2 and "no endpoint" in err
        code, _, err = run(capsys, command, "whe_nope")
        assert code == 2 and "not an endpoint id" in err


def endpoint_secrets(db_url, endpoint_id):
    row = sql(
        db_url,
        "SELECT secret, previous_secret, previous_secret_until FROM webhook_endpoints WHERE id = $1",
        endpoint_id,
    )[0]
    return row["secret"], row["previous_secret"], row["previous_secret_until"]


def test_rotate_prints_the_new_secret_once_and_keeps_the_old_one_for_the_overlap(env, capsys):
    account = f"cli-{secrets.token_hex(3)}"
    make_key(env, "live", account=account)
    code, out, _ = run(capsys, "add", "--account", account, "--url", PUBLIC_URL, "--events", "match.finished")
    endpoint_id, first = out.split()
    before = dt.datetime.now(dt.UTC)
    code, out, err = run(capsys, "rotate", endpoint_id)
    after = dt.datetime.now(dt.UTC)
    assert code == 0, err
    (second,) = out.split()  # stdout holds the new secret and nothing else, for scripts
    assert second.startswith("whsec_") and second != first
    assert len(base64.b64decode(second.removeprefix("whsec_"), validate=True)) == 32
    secret, previous, until = endpoint_secrets(env, endpoint_id)
    assert (secret, previous) == (second, first)
    assert before + dt.timedelta(hours=24) <= until <= after + dt.timedelta(hours=24)  # the default overlap
    assert "shown only now" in err and f"until {until:%Y-%m-%dT%H:%M:%S}Z" in err and "has ended" not in err
    code, out, _ = run(capsys, "list", "--account", account)
    assert code == 0 and endpoint_id in out and first not in out and second not in out

    # Again within the overlap, for 2 hours: the first secret ends now, and the output says so.
    code, out, err = run(capsys, "rotate", endpoint_id, "--overlap", "2h")
    third = out.strip()
    secret, previous, new_until = endpoint_secrets(env, endpoint_id)
    assert code == 0 and (secret, previous) == (third, second)
    assert dt.timedelta(hours=2) <= new_until - before <= dt.timedelta(hours=2) + (dt.datetime.now(dt.UTC) - before)
    assert f"due to sign until {until:%Y-%m-%dT%H:%M:%S}Z, has ended now" in err

    # No overlap (a leaked secret): the old one signs nothing from now on.
    code, out, err = run(capsys, "rotate", endpoint_id, "--overlap", "0")
    assert code == 0 and endpoint_secrets(env, endpoint_id) == (out.strip(), None, None)
    assert "the old secret signs nothing from now on" in err


@pytest.mark.parametrize(
    "overlap,why", [("8d", "7 days"), ("soon", "not a duration"), ("-1h", "not a duration"), ("1.5h", "24h, 90m")]
)
def test_rotate_refuses_a_bad_overlap_and_changes_nothing(env, capsys, overlap, why):
    account = f"cli-{secrets.token_hex(3)}"
    make_key(env, "live", account=account)
    endpoint_id, secret = run(capsys, "add", "--account", account, "--url", PUBLIC_URL, "--events", "match.finished")[
        1
    ].split()
    code, out, err = run(capsys, "rotate", endpoint_id, f"--overlap={overlap}")
    assert code == 2 and out == "" and why in err and "--overlap" in err
    assert endpoint_secrets(env, endpoint_id) == (secret, None, None)
    code, _, err = run(capsys, "rotate", "whe_" + "0" * 16)
    assert code == 2 and "no endpoint" in err
    code, _, err = run(capsys, "rotate", "whe_nope")
    assert code == 2 and "not an endpoint id" in err


def pause(db_url, endpoint_id):
    """The endpoint as the scheduler leaves it after 20 failures: paused after the fan-out's cursor."""
    sql(
        db_url,
        "UPDATE webhook_endpoints SET state = 'paused', failures_in_row = 20, paused_at = now(), "
        "paused_after_seq = (SELECT last_seq FROM webhook_fanout) WHERE id = $1",
        endpoint_id,
    )


def write_event(db_url, type_, age: dt.timedelta) -> str:
    event_id = "evt_" + secrets.token_hex(8)
    match = sql(db_url, "SELECT match_id FROM event_rows LIMIT 1")[0][0]
    sql(
        db_url,
        "INSERT INTO match_events (id, type, match_id, created_at, payload) "
        "VALUES ($1, $2, $3, now() - $4::interval, '{}')",
        event_id,
        type_,
        match,
        age,
    )
    return event_id


def written(db_url, event_id) -> str:
    at = sql(db_url, "SELECT created_at FROM match_events WHERE id = $1", event_id)[0][0]
    return at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_resume_prints_what_the_pause_missed_and_names_what_is_too_old(env, capsys):
    account = f"cli-{secrets.token_hex(3)}"
    make_key(env, "live", account=account)
    _, out, _ = run(capsys, "add", "--account", account, "--url", PUBLIC_URL, "--events", "match.finished")
    endpoint_id = out.split()[0]
    # Fanned out before the pause: one delivery pending with a retry due tomorrow, and one event
    # written while the account was on another plan (it had no delivery then, and resume gives it none).
    retrying = write_event(env, "match.finished", dt.timedelta(hours=7))
    sql(
        env,
        "INSERT INTO webhook_deliveries (event_id, endpoint_id, event_seq, tries, next_try_at, created_at) "
        "SELECT id, $2, seq, 3, now() + interval '1 day', now() FROM match_events WHERE id = $1",
        retrying,
        endpoint_id,
    )
    before_pause = write_event(env, "match.finished", dt.timedelta(hours=6))
    sql(env, "UPDATE webhook_fanout SET last_seq = (SELECT max(seq) FROM match_events)")
    pause(env, endpoint_id)
    old = write_event(env, "match.finished", dt.timedelta(days=8))
    recent = [write_event(env, "match.finished", dt.timedelta(hours=h)) for h in (5, 1)]
    write_event(env, "match.started", dt.timedelta(hours=2))  # not subscribed
    code, out, err = run(capsys, "resume", endpoint_id)
    assert code == 0, err
    assert out.splitlines() == [
        f"resumed {endpoint_id}: 1 pending delivery continues, 2 events written during the pause will be delivered "
        f"(oldest {written(env, recent[0])}), all in outbox order",
        "1 event written during the pause is older than the 7-day window and will not be delivered:",
        f"  {old} written {written(env, old)}",
    ]
    made = sql(
        env,
        "SELECT event_id, state, next_try_at FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY event_seq",
        endpoint_id,
    )
    assert before_pause not in {r["event_id"] for r in made}
    assert [(r["event_id"], r["state"]) for r in made] == [(e, "pending") for e in [retrying, *recent]]
    assert len({r["next_try_at"] for r in made}) == 1  # all due at once: the claim takes them in outbox order
    code, out, _ = run(capsys, "resume", endpoint_id)  # again: nothing made twice
    assert code == 0 and out.strip() == (
        f"{endpoint_id} was not paused: it stays active with its failure count reset; 3 pending deliveries continue"
    )
    assert sql(env, "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1", endpoint_id)[0][0] == 3


async def test_test_action_sends_a_recent_match_signed_with_test_true(db_url, mock_clock):
    """The Test action through the same sender: the receiver verifies it like any delivery."""
    import trio

    from svc.core.clock import Clock
    from svc.core.db import Database
    from svc.testing.hooks import Receiver
    from svc_hooks import store
    from svc_hooks.addresses import Policy
    from svc_hooks.sample import send_test
    from tests.support import NOON

    clock = Clock(start=NOON)
    account = f"cli-{secrets.token_hex(3)}"
    make_key(db_url, "live", account=account)
    db = Database(db_url, pool_size=2)
    await db.open()
    receiver = Receiver("", clock.timestamp)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(receiver.serve)
            policy = Policy(allow_local=True)
            endpoint_id, receiver.secret = await store.add_endpoint(
                db, account=account, url=receiver.url, events=["match.started"], now=clock.now(), policy=policy
            )
            result = await send_test(db, clock, endpoint_id, policy=policy)
            nursery.cancel_scope.cancel()
    finally:
        await db.close()
    assert result.status == 200
    (got,) = receiver.received
    assert got.verdict == "ok" and got.body["test"] is True and got.body["id"].startswith("evt_")
    latest = sql(
        db_url,
        "SELECT event_id FROM event_rows WHERE status = 'finished' AND end_at IS NOT NULL "
        "ORDER BY end_at DESC, event_id LIMIT 1",
    )[0][0]
    assert got.body["data"]["id"] == latest and got.body["data"]["status"] == "finished"
    assert (
        sql(
            db_url,
            "SELECT count(*) FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id "
            "WHERE e.id = $1",
            endpoint_id,
        )[0][0]
        == 0
    )  # a test is not a delivery to retry


def test_openapi_webhooks_section_is_valid_and_matches_the_schedule():
    from openapi_spec_validator import validate

    from svc.assembly import openapi_description
    from svc_hooks.schedule import MAX_TRIES

    spec = openapi_description()
    validate(spec)
    assert set(spec["webhooks"]) == {"match.started", "match.finished", "result.corrected"}
    post = spec["webhooks"]["match.finished"]["post"]
    assert post["x-retry-schedule-seconds"] == [0, 300, 1800, 7200, 21600, 43200, 86400, 86400]
    assert len(post["x-retry-schedule-seconds"]) == MAX_TRIES
    assert {p["name"] for p in post["parameters"]} == {
        "X-Svc-Event",
        "X-Svc-Delivery",
        "X-Svc-Signature",
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
    }
    assert "Event" in spec["components"]["schemas"]
