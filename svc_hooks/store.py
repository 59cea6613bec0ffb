"""Endpoint operations for the CLI: add, list, remove, and the Test action's event (resume: catchup)."""

from __future__ import annotations

import datetime as dt
import re
import secrets
from typing import Any

import asyncpg

from svc.changelog.changes import EVENT_TYPES
from svc.core.db import Database
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx
from svc.web.convert import converter
from svc.web.records import event_from_row
from svc_hooks.addresses import AddressRefused, Policy
from svc_hooks.http import Resolver, resolve
from svc_hooks.signing import new_secret

MAX_ENDPOINTS = 10  # interface: "Up to 10 endpoints per account"
WEBHOOK_PLAN = "live"  # interface: "Webhooks (Live plan)"
ENDPOINT_PREFIX = "whe_"
_ENDPOINT_ID = re.compile(r"^whe_[0-9a-f]{16}$")
_EMAIL = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")


class HookError(Exception):
    """A webhook operation that cannot be done; the message says why."""


def parse_events(text: str) -> list[str]:
    chosen = [t.strip() for t in text.split(",") if t.strip()]
    unknown = [t for t in chosen if t not in EVENT_TYPES]
    if unknown or not chosen:
        raise HookError(
            f"unknown event type(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(EVENT_TYPES)}"
        )
    return sorted(set(chosen), key=EVENT_TYPES.index)


def check_endpoint_id(endpoint_id: str) -> str:
    if not _ENDPOINT_ID.match(endpoint_id or ""):
        raise HookError(f"{endpoint_id!r} is not an endpoint id (whe_ and 16 hex digits)")
    return endpoint_id


async def add_endpoint(
    db: Database,
    *,
    account: str,
    url: str,
    events: list[str],
    now: dt.datetime,
    policy: Policy,
    email: str | None = None,
    resolver: Resolver = resolve,
) -> tuple[str, str]:
    """(endpoint id, signing secret). The URL and the addresses its host resolves to now are
    checked here, and again at every send (a name may resolve elsewhere later)."""
    try:
        target = policy.check_url(url)
        if target.literal is None:
            try:
                policy.check_addresses(await resolver(target.host, target.port))
            except OSError as exc:
                raise AddressRefused(f"the host {target.host} cannot be resolved ({exc})") from None
    except AddressRefused as exc:
        raise HookError(f"URL refused: {exc}") from None
    if email is not None and not _EMAIL.match(email):
        raise HookError(f"{email!r} is not an e-mail address")
    if email is None and _EMAIL.match(account):
        email = account  # an account named by its owner's address is e-mailed there
    endpoint_id, secret = ENDPOINT_PREFIX + secrets.token_hex(8), new_secret()
    await db.transaction(
        _insert_endpoint, id=endpoint_id, account=account, url=url, events=events, secret=secret, email=email, now=now
    )
    return endpoint_id, secret


async def _insert_endpoint(
    tx: Tx, *, id: str, account: str, url: str, events: list[str], secret: str, email: str | None, now: dt.datetime
) -> None:
    """add_endpoint's write, on the database side in one transaction: the account's plan and its
    number of endpoints checked under its row lock, then the endpoint."""
    plan = await tx.fetchval(Q.hooks.account_lock, account=account)
    if plan is None:
        raise HookError(f"no account named {account!r}")
    if plan != WEBHOOK_PLAN:
        raise HookError(f"webhooks are part of the Live plan; account {account!r} is on {plan}")
    count = await tx.fetchval(Q.hooks.endpoint_count, account=account)
    if count >= MAX_ENDPOINTS:
        raise HookError(
            f"account {account!r} already has {count} endpoints, the most allowed is "
            f"{MAX_ENDPOINTS}; remove one first (hooks remove ID)"
        )
    await tx.fetchval(
        Q.hooks.endpoint_insert,
        id=id,
        account=account,
        url=url,
        events=events,
        secret=secret,
        notify_email=email,
        now=now,
    )


async def list_endpoints(db: Database, account: str) -> list[dict[str, Any]]:
    return [dict(r) for r in await db.fetch(Q.hooks.endpoint_list, account=account)]


async def remove(db: Database, endpoint_id: str) -> None:
    if await db.fetchval(Q.hooks.endpoint_delete, id=check_endpoint_id(endpoint_id)) is None:
        raise HookError(f"no endpoint {endpoint_id}")


async def get_endpoint(db: Database, endpoint_id: str) -> asyncpg.Record:
    row = await db.fetchrow(Q.hooks.endpoint_get, id=check_endpoint_id(endpoint_id))
    if row is None:
        raise HookError(f"no endpoint {endpoint_id}")
    return row


async def recent_match(db: Database) -> dict[str, Any]:
    """The most recently finished match, shaped as GET /v1/events/{id} shows it to a Live key."""
    row = await db.fetchrow(Q.hooks.recent_match)
    if row is None:
        raise HookError("no finished match is held yet; load a world first")
    return converter.unstructure(event_from_row(row, with_odds=True))
