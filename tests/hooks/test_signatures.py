"""Both signatures of a real delivery, checked by the reference verifiers rather than our own:
Stripe's (`stripe` on PyPI) on X-Svc-Signature and Standard Webhooks' (`standardwebhooks`) on
webhook-id/-timestamp/-signature; a secret of the old format (whsec_ + hex) serves both; and a
rotation's overlap, during which a receiver holding the old secret and one holding the new both
verify, after which only the new one does.

Both libraries check the delivery's timestamp against the real wall clock (5 minutes; the
standardwebhooks library refuses one too new as well), so these tests start the service clock
where the deliveries they check land within a few minutes of real time, and move it with Trio's
mock clock from there."""

from __future__ import annotations

import base64
import datetime as dt
import secrets

import stripe
from standardwebhooks import Webhook, WebhookVerificationError

from svc.core.clock import Clock
from svc.testing.hooks import Received, Receiver, SchedulerWatch
from svc_hooks import rotation, signing
from svc_hooks.scheduler import Scheduler
from tests.hooks.delivery_support import FAR, LOCAL, add, insert_event, running, step
from tests.support import sql


def near_real_time(before: dt.timedelta) -> Clock:
    """A service clock that reads real time `before` from now, and moves only with the mock clock."""
    return Clock(start=dt.datetime.now(dt.UTC) - before)


def stripe_verifies(secret: str, got: Received) -> bool:
    try:
        stripe.WebhookSignature.verify_header(got.raw, got.headers["x-svc-signature"], secret, tolerance=300)
    except stripe.SignatureVerificationError:
        return False
    return True


def standard_verifies(secret: str, got: Received) -> bool:
    try:
        Webhook(secret).verify(got.raw, got.headers)
    except WebhookVerificationError:
        return False
    return True


def verified_by(secret: str, got: Received) -> tuple[bool, bool]:
    return stripe_verifies(secret, got), standard_verifies(secret, got)


async def test_a_delivery_and_its_retry_verify_with_stripe_and_standard_webhooks(db, db_url, live_account, mock_clock):
    # The retry comes 5 minutes after the first try: both land within 2.5 minutes of real time.
    clock = near_real_time(dt.timedelta(seconds=150))
    receiver = Receiver("", clock.timestamp, answer=lambda n, r: 503 if n == 1 else 200)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        _, secret = await add(db, live_account, receiver.url, clock)
        receiver.secret = secret
        event_id = insert_event(db_url, "match.finished", clock)
        scheduler.wake()
        await receiver.wait_for(1)
        await step(scheduler, mock_clock)
        await receiver.wait_for(2)
        await scheduler.observer.settled()
    first, retry = receiver.received
    assert (first.status, retry.status) == (503, 200)
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:], validate=True)) == 32
    for got in (first, retry):
        assert verified_by(secret, got) == (True, True)
        # webhook-id is the event's id: the body's, X-Svc-Delivery's, on every try
        assert got.headers["webhook-id"] == got.headers["x-svc-delivery"] == got.body["id"] == event_id
        assert got.headers["x-svc-signature"].startswith(f"t={got.headers['webhook-timestamp']},")
        assert got.headers["webhook-signature"].count("v1,") == 1
    assert int(retry.headers["webhook-timestamp"]) - int(first.headers["webhook-timestamp"]) == 300  # fresh per try
    event = stripe.Webhook.construct_event(retry.raw, retry.headers["x-svc-signature"], secret)
    assert event["id"] == event_id and event["type"] == "match.finished"
    assert Webhook(secret).verify(retry.raw, retry.headers) == retry.body
    # Neither library takes an altered body, another secret, or one scheme's signature for the other.
    altered = Received(retry.at, retry.headers, retry.raw.replace(b'"match.finished"', b'"match.started"'), 0, "")
    assert verified_by(secret, altered) == (False, False)
    assert verified_by(signing.new_secret(), retry) == (False, False)
    swapped = dict(retry.headers)
    swapped["webhook-id"] = "evt_" + secrets.token_hex(8)  # the id is signed too
    assert not standard_verifies(secret, Received(retry.at, swapped, retry.raw, 0, ""))


async def test_a_secret_of_the_old_format_serves_both_schemes(db, db_url, live_account, mock_clock):
    """Endpoints added before Standard Webhooks hold whsec_ + 48 hex digits: the Stripe-style
    signature is what it always was, and the same string is a Standard Webhooks secret."""
    clock = near_real_time(dt.timedelta(0))
    receiver = Receiver("", clock.timestamp)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    old_format = "whsec_" + secrets.token_hex(24)
    async with running(receiver, scheduler):
        endpoint_id, _ = await add(db, live_account, receiver.url, clock)
        sql(db_url, "UPDATE webhook_endpoints SET secret = $2 WHERE id = $1", endpoint_id, old_format)
        receiver.secret = old_format  # the receiver of svc.testing verifies X-Svc-Signature as the interface says
        insert_event(db_url, "match.started", clock)
        scheduler.wake()
        await receiver.wait_for(1)
        await scheduler.observer.settled()
    (got,) = receiver.received
    assert got.verdict == "ok" and got.status == 200
    assert verified_by(old_format, got) == (True, True)


async def test_rotation_signs_with_both_secrets_for_the_overlap_then_the_new_one_only(
    db, db_url, live_account, mock_clock
):
    overlap = rotation.DEFAULT_OVERLAP
    margin = dt.timedelta(minutes=2)
    # The overlap ends at real time now: one delivery 2 minutes before its end, one 2 minutes after.
    clock = near_real_time(overlap)
    receiver = Receiver("", clock.timestamp)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        endpoint_id, old = await add(db, live_account, receiver.url, clock)
        rotated = await rotation.rotate(db, endpoint_id, now=clock.now())
        new = rotated.secret
        assert rotated.previous_until == clock.now() + overlap and rotated.cut_short is None
        receiver.secret = old
        mock_clock.jump((overlap - margin).total_seconds())
        during_id = insert_event(db_url, "match.finished", clock)
        scheduler.wake()
        await receiver.wait_for(1)
        await scheduler.observer.settled()
        mock_clock.jump((2 * margin).total_seconds())
        receiver.secret = new
        after_id = insert_event(db_url, "match.finished", clock, offset=1)
        scheduler.wake()
        await receiver.wait_for(2)
        await scheduler.observer.settled()
    during, after = receiver.received
    assert (during.body["id"], after.body["id"]) == (during_id, after_id)
    assert new != old and new.startswith("whsec_")
    # During the overlap: two v1= entries, two space-separated v1, entries; either secret verifies.
    assert during.headers["x-svc-signature"].count(",v1=") == 2
    assert len(during.headers["webhook-signature"].split(" ")) == 2
    assert verified_by(old, during) == (True, True)
    assert verified_by(new, during) == (True, True)
    # After it: the new secret's signature alone.
    assert after.headers["x-svc-signature"].count(",v1=") == 1
    assert len(after.headers["webhook-signature"].split(" ")) == 1
    assert verified_by(new, after) == (True, True)
    assert verified_by(old, after) == (False, False)
    assert (during.status, after.status) == (200, 200)  # the receiver of svc.testing agrees on both


async def test_rotating_again_during_an_overlap_ends_the_oldest_secret(db, db_url, live_account, mock_clock):
    clock = near_real_time(dt.timedelta(0))
    receiver = Receiver("", clock.timestamp)
    scheduler = Scheduler(db, clock, observer=SchedulerWatch(), policy=LOCAL, poll_s=FAR)
    async with running(receiver, scheduler):
        endpoint_id, first = await add(db, live_account, receiver.url, clock)
        mock_clock.jump(60)
        second = await rotation.rotate(db, endpoint_id, now=clock.now())
        mock_clock.jump(60)
        third = await rotation.rotate(db, endpoint_id, now=clock.now(), overlap=dt.timedelta(hours=1))
        receiver.secret = third.secret
        insert_event(db_url, "match.finished", clock)
        scheduler.wake()
        await receiver.wait_for(1)
        await scheduler.observer.settled()
    assert third.cut_short == second.previous_until  # the first secret was due to sign for a day more
    assert third.previous_until == clock.now() + dt.timedelta(hours=1)
    (got,) = receiver.received
    assert verified_by(third.secret, got) == (True, True)
    assert verified_by(second.secret, got) == (True, True)
    assert verified_by(first, got) == (False, False)
