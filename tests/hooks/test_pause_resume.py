"""A webhook endpoint paused after 20 failures in a row, on Trio's mock clock: the e-mail to
its owner (or the log line without SMTP), nothing sent while paused, and the resume that
continues the pending deliveries and delivers the events written during the pause, in order,
once each."""

from __future__ import annotations

import datetime as dt

from svc.testing.hooks import Receiver, SchedulerWatch, SmtpSink
from svc_hooks import catchup
from svc_hooks.cli import resume_report
from svc_hooks.notify import Mailer
from svc_hooks.scheduler import Scheduler
from tests.hooks.delivery_support import FAR, LOCAL, add, insert_event, running, step
from tests.support import sql


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
