"""Webhook deliveries on Trio's mock clock: the 8-try schedule, what ends a delivery, the
pause after 20 failures with its e-mail, a worker killed mid-delivery, and a receiver on
127.0.0.1 that verifies every delivery with its own implementation of the interface text."""

from __future__ import annotations

import datetime as dt
import json
import secrets
from contextlib import asynccontextmanager

import pytest
import trio

from svc.core.clock import Clock
from svc.core.db import Database
from svc.testing.hooks import Receiver, SchedulerWatch, SmtpSink
from svc.web.convert import converter
from svc.web.records import event_from_row
from svc_hooks import catchup, signing, store
from svc_hooks.addresses import Policy
from svc_hooks.cli import resume_report
from svc_hooks.http import post
from svc_hooks.notify import Mailer
from svc_hooks.scheduler import Scheduler
from tests.support import NOON, make_key, sql

LOCAL = Policy(allow_local=True)
EXPECTED_GAPS = [300, 1800, 7200, 21600, 43200, 86400, 86400]  # interface: 5 min, 30 min, 2 h, 6 h, 12 h, 1 day, 1 day
FAR = 30 * 86400.0  # the scheduler's poll interval in these tests: it sleeps straight to the next due try


@pytest.fixture
async def db(db_url):
    database = Database(db_url, pool_size=4)
    await database.open()
    sql(db_url, "DELETE FROM webhook_endpoints")  # each test sees only its own endpoints
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture(scope="module")
def live_account(db_url):
    name = f"hooks-{secrets.token_hex(3)}"
    make_key(db_url, "live", account=name)
    return name


@pytest.fixture
def clock():
    return Clock(start=NOON)


def insert_event(db_url: str, type_: str, clock: Clock, offset: int = 0) -> str:
    """A match_events row as the live feed writes it: a real match shaped by event_from_row."""
    row = sql(db_url, "SELECT * FROM event_rows WHERE status = 'finished' ORDER BY match_id OFFSET $1 LIMIT 1", offset)[
        0
    ]
    payload = converter.unstructure(event_from_row(row, with_odds=True))
    event_id = "evt_" + secrets.token_hex(8)
    sql(
        db_url,
        "INSERT INTO match_events (id, type, match_id, created_at, payload) VALUES ($1, $2, $3, $4, $5)",
        event_id,
        type_,
        row["match_id"],
        clock.now(),
        payload,
    )
    return event_id


@asynccontextmanager
async def running(*services):
    """Start each service (receiver, sink, scheduler) in one nursery; cancel them all after."""
    async with trio.open_nursery() as nursery:
        for service in services:
            await nursery.start(service.run if isinstance(service, Scheduler) else service.serve)
        yield nursery
        nursery.cancel_scope.cancel()


async def step(scheduler: Scheduler, mock_clock) -> None:
    """Let the scheduler finish what it is doing, then move the clock to its next wake-up."""
    await scheduler.observer.settled()
    mock_clock.jump(scheduler.observer.asleep_until - trio.current_time())
    await scheduler.observer.settled()


def attempts(db_url: str, event_id: str):
    return sql(
        db_url,
        "SELECT a.* FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id "
        "WHERE d.event_id = $1 ORDER BY a.try, a.id",
        event_id,
    )


def delivery(db_url: str, event_id: str):
    return sql(db_url, "SELECT * FROM webhook_deliveries WHERE event_id = $1", event_id)[0]


async def add(db, account, url, clock, events=("match.started", "match.finished", "result.corrected"), email=None):
    return await store.add_endpoint(
        db, account=account, url=url, events=list(events), now=clock.now(), policy=LOCAL, email=email
    )


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


# -- pausing -----------------------------------------------------------------------------
async def test_twenty_failures_pause_and_mail_the_owner_then_resume_continues(
    db, db_url, live_account, clock, mock_clock
):
    healthy = {"yes": False}
    receiver = Receiver("", clock.timestamp, answer=lambda n, r: 200 if healthy["yes"] else 503)
    sink = SmtpSink()
    async with running(receiver, sink) as nursery:
        mailer = Mailer("127.0.0.1", sink.port, "hooks@svc.test")
        # One send at a time: exactly 20 tries fail before the pause, none races past it.
        scheduler = Scheduler(
            db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR, concurrency=1, mailer=mailer
        )
        await nursery.start(scheduler.run)
        endpoint_id, receiver.secret = await add(db, live_account, receiver.url, clock, email="owner@example.org")
        events = [insert_event(db_url, "match.finished", clock, offset=i) for i in range(21)]
        scheduler.wake()
        await sink.wait_for(1)
        await scheduler.observer.settled()
        assert len(receiver.received) == 20  # the 21st is never sent: the endpoint paused
        ep = sql(db_url, "SELECT state, failures_in_row FROM webhook_endpoints WHERE id = $1", endpoint_id)[0]
        assert (ep["state"], ep["failures_in_row"]) == ("paused", 20)
        mail = sink.mails[0]
        assert mail.recipients == ["owner@example.org"] and endpoint_id in mail.data and "resume" in mail.data
        notice = sql(db_url, "SELECT * FROM webhook_notices WHERE endpoint_id = $1", endpoint_id)
        assert len(notice) == 1 and notice[0]["sent_at"] is not None
        mock_clock.jump(2 * 86400)  # retries fall due, but nothing goes to a paused endpoint
        scheduler.wake()
        await scheduler.observer.settled()
        assert len(receiver.received) == 20
        healthy["yes"] = True
        resumed = await catchup.resume(db, endpoint_id, clock.now())
        assert (resumed.pending, resumed.caught_up, resumed.too_old) == (21, 0, 0)  # all 21 were fanned out before
        scheduler.wake()
        await receiver.wait_for(41)
        await scheduler.observer.settled()
    assert {r.body["id"] for r in receiver.accepted} == set(events)
    assert (
        sql(
            db_url,
            "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1 AND state = 'succeeded'",
            endpoint_id,
        )[0][0]
        == 21
    )
    assert len(sink.mails) == 1


async def test_pause_without_smtp_is_logged_and_kept(db, db_url, live_account, clock, mock_clock, caplog):
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR, mailer=None)
    async with running(scheduler):
        endpoint_id, _ = await add(db, live_account, "http://127.0.0.1:1/dead", clock)
        for i in range(20):
            insert_event(db_url, "match.started", clock, offset=i)
        scheduler.wake()
        await scheduler.observer.settled()
        await step(scheduler, mock_clock)
    assert sql(db_url, "SELECT state FROM webhook_endpoints WHERE id = $1", endpoint_id)[0][0] == "paused"
    notice = sql(db_url, "SELECT * FROM webhook_notices WHERE endpoint_id = $1", endpoint_id)
    assert len(notice) == 1 and notice[0]["sent_at"] is None and "SMTP" in notice[0]["error"]
    assert any(endpoint_id in r.getMessage() and "paused" in r.getMessage() for r in caplog.records)


async def test_events_written_during_a_pause_are_delivered_after_resume_in_order_once(
    db, db_url, live_account, clock, mock_clock
):
    """Issue 24: the fan-out skips a paused endpoint, so the events written during its pause had
    no delivery and were lost. Resume makes them: after the pending ones, in outbox order, each
    once, as many as it printed; those older than the window are named and never sent."""
    healthy = {"yes": False}
    receiver = Receiver("", clock.timestamp, answer=lambda n, r: 200 if healthy["yes"] else 503)
    # One send at a time: exactly 20 tries fail before the pause, and arrivals show the claim order.
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR, concurrency=1)
    async with running(receiver, scheduler):
        endpoint_id, receiver.secret = await add(
            db, live_account, receiver.url, clock, events=["match.started", "match.finished"]
        )
        pending = [insert_event(db_url, "match.finished", clock, offset=i) for i in range(20)]
        scheduler.wake()
        await scheduler.observer.settled()
        assert len(receiver.received) == 20
        # The pause records the fan-out's cursor: every event up to it has its delivery.
        paused = sql(db_url, "SELECT state, paused_after_seq FROM webhook_endpoints WHERE id = $1", endpoint_id)[0]
        newest = sql(db_url, "SELECT max(seq) FROM match_events")[0][0]
        assert (paused["state"], paused["paused_after_seq"]) == ("paused", newest)
        # Written at the start of the pause: older than the window by the time of the resume.
        stale = [insert_event(db_url, "match.started", clock, offset=30 + i) for i in range(3)]
        scheduler.wake()
        await scheduler.observer.settled()
        mock_clock.jump((catchup.CATCH_UP_WINDOW + dt.timedelta(days=1)).total_seconds())
        during = []
        for i in range(20):  # an hour apart, each fanned out (and skipped) as it comes
            during.append(insert_event(db_url, ("match.started", "match.finished")[i % 2], clock, offset=i))
            if i == 10:
                insert_event(db_url, "result.corrected", clock)  # a type it does not take: never counted or sent
            scheduler.wake()
            await scheduler.observer.settled()
            mock_clock.jump(3600)
        assert len(receiver.received) == 20  # nothing goes to a paused endpoint
        newest = sql(db_url, "SELECT max(seq) FROM match_events")[0][0]
        assert sql(db_url, "SELECT last_seq FROM webhook_fanout")[0][0] == newest  # the fan-out has passed them all
        healthy["yes"] = True
        printed = resume_report(await catchup.resume(db, endpoint_id, clock.now()))
        scheduler.wake()
        await scheduler.observer.settled()  # one at a time, each send wakes the loop for the next: all sent
        await step(scheduler, mock_clock)  # a month later: nothing more, no repeat
    after = receiver.received[20:]
    assert [r.body["id"] for r in after] == pending + during  # outbox order, each exactly once
    assert all(r.verdict == "ok" and r.status == 200 for r in after)
    assert not set(stale) & {r.body["id"] for r in receiver.received}
    lines = printed.splitlines()
    oldest = sql(db_url, "SELECT created_at FROM match_events WHERE id = $1", during[0])[0][0]
    assert lines[0] == (
        f"resumed {endpoint_id}: 20 pending deliveries continue, 20 events written during the pause "
        f"will be delivered (oldest {oldest:%Y-%m-%dT%H:%M:%S}Z), all in outbox order"
    )
    assert lines[1] == "3 events written during the pause are older than the 7-day window and will not be delivered:"
    assert [line.split()[0] for line in lines[2:]] == stale
    printed_count = int(lines[0].split(", ")[1].split()[0])
    assert printed_count == len(after) - len(pending) == len(during)  # the count printed is the count sent
    assert (
        sql(
            db_url,
            "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = $1 AND state = 'succeeded'",
            endpoint_id,
        )[0][0]
        == 40
    )


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
