"""The fan-out cursor over match_events.seq: it never skips an event whose insert commits
after a higher seq, passes over a gap that stays (a rolled-back insert), and fans each
event out once per subscribed endpoint."""

from __future__ import annotations

import datetime as dt
import secrets

from svc_hooks import store
from svc_hooks.addresses import Policy
from svc_hooks.fanout import GAP_WAIT, advance, fan_out
from tests.support import NOON, make_key, sql

T0 = NOON


def test_cursor_moves_over_an_unbroken_run():
    assert advance(4, [5, 6, 7], None, T0) == (7, None)


def test_cursor_waits_at_a_fresh_gap_and_remembers_since_when():
    assert advance(4, [5, 7, 8], None, T0) == (5, T0)
    assert advance(5, [7, 8], T0, T0 + GAP_WAIT / 2) == (5, T0)


def test_a_gap_older_than_the_wait_is_passed_over():
    assert advance(5, [7, 8, 10], T0, T0 + GAP_WAIT) == (8, T0 + GAP_WAIT)  # and waits at the next gap, afresh
    assert advance(5, [7, 8], T0, T0 + GAP_WAIT) == (8, None)


def _event(db_url, type_="match.finished", seq=None):
    event_id = "evt_" + secrets.token_hex(8)
    match = sql(db_url, "SELECT match_id FROM event_rows LIMIT 1")[0][0]
    if seq is None:
        sql(
            db_url,
            "INSERT INTO match_events (id, type, match_id, created_at, payload) VALUES ($1, $2, $3, $4, '{}')",
            event_id,
            type_,
            match,
            NOON,
        )
    else:
        sql(
            db_url,
            "INSERT INTO match_events (id, seq, type, match_id, created_at, payload) VALUES ($1, $2, $3, $4, $5, '{}')",
            event_id,
            seq,
            type_,
            match,
            NOON,
        )
    return event_id


async def test_an_event_committed_late_below_the_cursor_is_still_delivered(db, db_url):
    account = f"fan-{secrets.token_hex(3)}"
    make_key(db_url, "live", account=account)
    await fan_out(db, NOON)  # the cursor catches up with whatever is already there
    endpoint_id, _ = await store.add_endpoint(
        db, account=account, url="https://93.184.216.34/h", events=["match.finished"], now=NOON, policy=Policy()
    )
    # A seq is taken (the insert of a transaction still open) but not yet visible:
    held = sql(db_url, "SELECT nextval(pg_get_serial_sequence('match_events', 'seq'))")[0][0]
    after = _event(db_url)
    assert await fan_out(db, NOON) == 1
    late = _event(db_url, seq=held)  # the open transaction commits now
    assert await fan_out(db, NOON + dt.timedelta(seconds=1)) == 1
    got = {r[0] for r in sql(db_url, "SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1", endpoint_id)}
    assert got == {after, late}
    assert await fan_out(db, NOON + dt.timedelta(seconds=2)) == 0  # nothing twice
    assert (
        sql(db_url, "SELECT last_seq FROM webhook_fanout")[0][0]
        == sql(db_url, "SELECT max(seq) FROM match_events")[0][0]
    )


async def test_only_subscribed_types_of_live_accounts_after_the_endpoint_was_added(db, db_url):
    account = f"fan-{secrets.token_hex(3)}"
    make_key(db_url, "live", account=account)
    await fan_out(db, NOON)
    before = _event(db_url, "match.started")
    started_only, _ = await store.add_endpoint(
        db, account=account, url="https://93.184.216.34/a", events=["match.started"], now=NOON, policy=Policy()
    )
    finished = _event(db_url, "match.finished")
    started = _event(db_url, "match.started")
    await fan_out(db, NOON)
    got = {r[0] for r in sql(db_url, "SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1", started_only)}
    assert got == {started}
    assert before not in got and finished not in got
    sql(db_url, "UPDATE accounts SET plan = 'odds' WHERE name = $1", account)  # downgraded: no more webhooks
    _event(db_url, "match.started")
    await fan_out(db, NOON)
    assert sql(db_url, "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1", started_only)[0][0] == 1
