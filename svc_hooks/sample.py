"""The Test action: a real recent match sent to one endpoint now, signed like any delivery,
with "test": true in the body. Not retried, not counted against the endpoint's failures."""

from __future__ import annotations

import secrets

from svc.core.clock import Clock
from svc.core.db import Database
from svc_hooks import signing
from svc_hooks.addresses import Policy
from svc_hooks.http import Resolver, SendResult, post, resolve
from svc_hooks.store import get_endpoint, recent_match

TEST_TYPE = "match.finished"  # a finished match is what the Test action sends


async def send_test(
    db: Database, clock: Clock, endpoint_id: str, *, policy: Policy, resolver: Resolver = resolve
) -> SendResult:
    endpoint = await get_endpoint(db, endpoint_id)
    data = await recent_match(db)
    event_id = "evt_test_" + secrets.token_hex(8)  # its own id: a test is never mistaken for a real event
    raw = signing.body(event_id, TEST_TYPE, clock.now(), data, test=True)
    t = int(clock.timestamp())
    keys = signing.SigningSecrets(endpoint["secret"], endpoint["previous_secret"], endpoint["previous_secret_until"])
    headers = signing.headers(event_id, TEST_TYPE, keys.in_force(t), t, raw)
    return await post(endpoint["url"], headers, raw, policy=policy, resolver=resolver)
