"""Webhook deliveries on Trio's mock clock: the 8-try schedule, what ends a delivery, the
fan-out by type, a worker killed mid-delivery, a database outage, and a receiver on 127.0.0.1
that verifies every delivery with its own implementation of the interface text. The pause
after 20 failures and the resume are in test_pause_resume."""

from __future__ import annotations

import datetime as dt
import json
import secrets

import pytest
import trio

from svc.core.clock import Clock
from svc.testing.hooks import Receiver, SchedulerWatch
from svc.web.convert import converter
from svc.web.records import event_from_row
from svc_hooks import signing
from svc_hooks.http import post
from svc_hooks.scheduler import Scheduler
from tests.hooks.delivery_support import (
    EXPECTED_GAPS,
    FAR,
    LOCAL,
    add,
    attempts,
    delivery,
    insert_event,
    running,
    step,
)
from tests.support import NOON, make_key, sql


# -- the schedule ------------------------------------------------------------------------
async def test_eight_tries_at_the_scheduled_offsets_then_ended(db, db_url, live_account, clock, mock_clock):
    receiver = Receiver("", clock.timestamp, answer=lambda n, r: 500)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        _, secret = await add(db, live_account, receiver.url, clock)
        receiver.secret = secret
        event_id = insert_event(db_url, "match.finished", clock)
        scheduler.wake()
        for _ in range(12):  # more steps than tries: the 9th must never come
            await step(scheduler, mock_clock)
    got = receiver.received
    assert len(got) == 8
    assert all(r.verdict == "ok" for r in got), [r.verdict for r in got]  # every try verifies
    gaps = [round(b.at - a.at) for a, b in zip(got, got[1:])]
    assert gaps == EXPECTED_GAPS
    assert {r.headers["x-svc-delivery"] for r in got} == {event_id}
    assert {r.body["id"] for r in got} == {event_id}
    stamps = [r.headers["x-svc-signature"].split(",")[0] for r in got]
    assert len(set(stamps)) == 8  # a fresh t on every try
    assert all(abs(int(s[2:]) - r.at) <= 1 for s, r in zip(stamps, got))
    assert got[0].headers["content-type"] == "application/json" and got[0].headers["x-svc-event"] == "match.finished"
    d = delivery(db_url, event_id)
    assert d["state"] == "ended" and d["tries"] == 8 and d["claimed_by"] is None
    rows = attempts(db_url, event_id)
    assert [a["try"] for a in rows] == list(range(1, 9))
    assert all(a["status_code"] == 500 for a in rows)
    assert [a["outcome"] for a in rows] == ["retry"] * 7 + ["ended"]


async def test_body_is_the_event_as_get_events_shows_it(db, db_url, live_account, clock, mock_clock, client):
    receiver = Receiver("", clock.timestamp)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        _, receiver.secret = await add(db, live_account, receiver.url, clock)
        event_id = insert_event(db_url, "match.started", clock, offset=3)
        scheduler.wake()
        await receiver.wait_for(1)
        await scheduler.observer.settled()
    body = receiver.received[0].body
    assert set(body) == {"id", "type", "created", "data"}  # no "test" on a real delivery
    assert body["id"] == event_id and body["type"] == "match.started"
    created = sql(db_url, "SELECT created_at FROM match_events WHERE id = $1", event_id)[0][0]
    assert (
        body["created"].endswith("Z") and dt.datetime.fromisoformat(body["created"].replace("Z", "+00:00")) == created
    )
    key = make_key(db_url, "live")
    shown = await client.get(f"/v1/events/{body['data']['id']}", key)
    assert shown.status_code == 200
    assert body["data"] == shown.json_body["data"]
    assert delivery(db_url, event_id)["state"] == "succeeded"


async def test_a_400_ends_at_once_but_408_and_429_are_retried(db, db_url, live_account, clock, mock_clock):
    answers = {}
    receiver = Receiver("", clock.timestamp, answer=lambda n, r: answers[r.body["id"]].pop(0))
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        _, receiver.secret = await add(db, live_account, receiver.url, clock)
        ended = insert_event(db_url, "match.finished", clock, offset=1)
        retried = insert_event(db_url, "match.finished", clock, offset=2)
        answers[ended] = [400]
        answers[retried] = [408, 429, 204]
        scheduler.wake()
        for _ in range(5):
            await step(scheduler, mock_clock)
    assert [a["status_code"] for a in attempts(db_url, ended)] == [400]
    assert delivery(db_url, ended)["state"] == "ended"
    tries = attempts(db_url, retried)
    assert [(a["status_code"], a["outcome"]) for a in tries] == [(408, "retry"), (429, "retry"), (204, "succeeded")]
    assert [round((b["at"] - a["at"]).total_seconds()) for a, b in zip(tries, tries[1:])] == EXPECTED_GAPS[:2]
    assert delivery(db_url, retried)["state"] == "succeeded"
    assert len([r for r in receiver.received if r.body["id"] == ended]) == 1


async def test_time_out_and_connection_failure_are_retried(db, db_url, live_account, clock, mock_clock):
    receiver = Receiver("", clock.timestamp, answer=lambda n, r: None if n == 1 else 200)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        _, receiver.secret = await add(db, live_account, receiver.url, clock, events=["match.started"])
        slow = insert_event(db_url, "match.started", clock)
        scheduler.wake()
        await receiver.wait_for(1)
        mock_clock.jump(10)  # the receiver never answers: the 10 s answer window closes
        await step(scheduler, mock_clock)
        # A dead port: refused connections count as failed tries too.
        dead = await add(db, live_account, "http://127.0.0.1:1/hook", clock, events=["match.finished"])
        refused = insert_event(db_url, "match.finished", clock)
        scheduler.wake()
        await scheduler.observer.settled()
    first, second = attempts(db_url, slow)
    assert (
        first["status_code"] is None and "10 s" in first["error"] and first["latency_ms"] == pytest.approx(10000, abs=1)
    )
    assert first["outcome"] == "retry" and second["status_code"] == 200
    assert (second["at"] - first["at"]).total_seconds() == pytest.approx(300, abs=1)
    (fail,) = attempts(db_url, refused)
    assert fail["status_code"] is None and "connection" in fail["error"] and fail["outcome"] == "retry"
    assert sql(db_url, "SELECT failures_in_row FROM webhook_endpoints WHERE id = $1", dead[0])[0][0] == 1


async def test_repeats_are_dropped_by_event_id(db, db_url, live_account, clock, mock_clock):
    """The receiver handles the event but answers too late; the retry is a repeat it acknowledges."""
    receiver = Receiver("", clock.timestamp, answer=lambda n, r: 200)
    receiver.delay_s = 11  # answers after the 10 s window
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        _, receiver.secret = await add(db, live_account, receiver.url, clock)
        event_id = insert_event(db_url, "result.corrected", clock)
        scheduler.wake()
        await receiver.wait_for(1)
        receiver.delay_s = 0
        mock_clock.jump(10)
        await step(scheduler, mock_clock)
    assert [r.verdict for r in receiver.received] == ["ok", "duplicate"]
    assert receiver.handled == {event_id}
    assert delivery(db_url, event_id)["state"] == "succeeded"


async def test_receiver_refuses_old_or_altered_signatures(db, db_url, live_account, clock, mock_clock):
    receiver = Receiver("", clock.timestamp)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        _, receiver.secret = await add(db, live_account, receiver.url, clock)
        insert_event(db_url, "match.finished", clock)
        scheduler.wake()
        await receiver.wait_for(1)
        await scheduler.observer.settled()
        genuine = receiver.received[0]
        headers = [(k, v) for k, v in genuine.headers.items() if k.startswith("x-svc") or k == "content-type"]
        sig = genuine.headers["x-svc-signature"]
        t, v1 = sig.split(",")
        forged = {
            "body": (sig, genuine.raw.replace(b'"type"', b'"Type"')),
            "t": (f"t={int(t[2:]) + 1},{v1}", genuine.raw),
            "secret": (signing.signature("whsec_other", int(t[2:]), genuine.raw), genuine.raw),
        }
        for name, (signature, raw) in forged.items():
            sent = [(k, signature if k == "x-svc-signature" else v) for k, v in headers]
            result = await post(receiver.url, sent, raw, policy=LOCAL)
            assert result.status == 400, name
            assert receiver.received[-1].verdict == "bad signature", name
        mock_clock.jump(301)
        late = await post(receiver.url, headers, genuine.raw, policy=LOCAL)
    assert late.status == 400 and receiver.received[-1].verdict == "too old"
    assert genuine.verdict == "ok" and genuine.status == 200


# -- fan-out ---------------------------------------------------------------------------
async def test_each_endpoint_gets_its_types_with_one_event_id(db, db_url, live_account, clock, mock_clock):
    started_only = Receiver("", clock.timestamp)
    everything = Receiver("", clock.timestamp)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(started_only, everything, scheduler):
        before = insert_event(db_url, "match.started", clock)  # written before the endpoints exist
        _, started_only.secret = await add(db, live_account, started_only.url, clock, events=["match.started"])
        _, everything.secret = await add(db, live_account, everything.url, clock)
        started = insert_event(db_url, "match.started", clock, offset=4)
        finished = insert_event(db_url, "match.finished", clock, offset=4)
        scheduler.wake()
        await everything.wait_for(2)
        await scheduler.observer.settled()
    assert [r.body["id"] for r in started_only.accepted] == [started]
    assert sorted(r.body["id"] for r in everything.accepted) == sorted([started, finished])
    assert before not in {r.body["id"] for r in everything.received}


# -- workers -----------------------------------------------------------------------------
async def test_a_worker_killed_mid_delivery_is_taken_over_after_its_lease(db, db_url, live_account, clock, mock_clock):
    receiver = Receiver("", clock.timestamp, answer=lambda n, r: None if n == 1 else 200)
    a = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR, worker="worker-a")
    b = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR, worker="worker-b")
    async with running(receiver, b):
        _, receiver.secret = await add(db, live_account, receiver.url, clock)
        await b.observer.settled()
        async with trio.open_nursery() as doomed:
            await doomed.start(a.run)
            event_id = insert_event(db_url, "match.finished", clock)
            a.wake()
            await receiver.wait_for(1)  # worker a is mid-POST...
            doomed.cancel_scope.cancel()  # ...and dies without recording anything
        claimed = delivery(db_url, event_id)
        assert claimed["claimed_by"].startswith("worker-a") and claimed["tries"] == 0
        b.wake()
        await b.observer.settled()
        assert len(receiver.received) == 1  # b leaves a's claim alone while its lease holds
        await step(b, mock_clock)
    assert len(receiver.received) == 2
    first, second = receiver.received
    assert first.body["id"] == second.body["id"] == event_id  # the receiver sees a repeat, same id
    assert second.at - first.at == pytest.approx(60, abs=1)  # the lease
    d = delivery(db_url, event_id)
    assert d["state"] == "succeeded" and d["tries"] == 1 and d["claimed_by"] is None


async def test_component_starts_in_the_app_and_is_reachable(db_url):
    from svc.assembly import create_app
    from svc.web.supervisor import supervisor_of
    from svc_hooks.scheduler import component

    scope = trio.CancelScope()

    async def stoppable(service, *, task_status=trio.TASK_STATUS_IGNORED):
        with scope:  # the app does not cancel its components at shutdown; the test does
            await component(service, task_status=task_status)

    app = create_app(db_url, clock=Clock(start=NOON), pool_size=2, components=[stoppable])
    async with app.test_app():
        scheduler = supervisor_of(app).handle("stoppable")
        assert isinstance(scheduler, Scheduler)
        scheduler.observer = watch = SchedulerWatch()
        scheduler.wake()
        await watch.settled()  # started, looked for work, and sleeps until the next poll
        scope.cancel()


async def test_a_payload_stored_as_json_text_is_sent_as_the_object(db, db_url, live_account, clock, mock_clock):
    """A writer binding JSON text to a jsonb parameter stores a JSON string; data is still the match."""
    receiver = Receiver("", clock.timestamp)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        _, receiver.secret = await add(db, live_account, receiver.url, clock)
        row = sql(db_url, "SELECT * FROM event_rows WHERE status = 'finished' ORDER BY match_id LIMIT 1")[0]
        payload = converter.unstructure(event_from_row(row, with_odds=True))
        event_id = "evt_" + secrets.token_hex(8)
        sql(
            db_url,
            "INSERT INTO match_events (id, type, match_id, created_at, payload) VALUES ($1, $2, $3, $4, $5::jsonb)",
            event_id,
            "match.finished",
            row["match_id"],
            clock.now(),
            json.dumps(payload),
        )
        scheduler.wake()
        await receiver.wait_for(1)
        await scheduler.observer.settled()
    assert receiver.received[0].body["data"] == payload


async def test_the_scheduler_outlives_a_database_outage(db, db_url, live_account, clock, mock_clock, caplog):
    receiver = Receiver("", clock.timestamp)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        _, receiver.secret = await add(db, live_account, receiver.url, clock)
        await scheduler.observer.settled()
        await db.close()  # every statement now fails as DatabaseUnavailable
        scheduler.wake()
        await scheduler.observer.settled()
        assert any("database unavailable" in r.getMessage() for r in caplog.records)
        await db.open()
        event_id = insert_event(db_url, "match.finished", clock)
        await step(scheduler, mock_clock)  # the retry after DB_RETRY_S finds the new event
        await receiver.wait_for(1)
        await scheduler.observer.settled()
    assert receiver.accepted[0].body["id"] == event_id
