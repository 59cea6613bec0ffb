"""API keys: their form, their hash, and the account operations of the CLI.

A key is `bk_live_` followed by 40 random characters. Only its SHA-256 is stored; the
first characters (the public prefix) identify it in logs and listings.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import string

import asyncpg

from svc.access.plans import PLANS
from svc.core.sqlfiles import Q
from svc.core.sqlrun import Tx

KEY_MARKER = "bk_live_"  # interface.md: a fixed prefix (live-key marker) + 40 random characters
KEY_RANDOM_LEN = 40
_ALPHABET = string.ascii_letters + string.digits
_KEY_FORM = re.compile(rf"^{KEY_MARKER}[A-Za-z0-9]{{{KEY_RANDOM_LEN}}}$")
PUBLIC_PREFIX_LEN = len(KEY_MARKER) + 4  # enough to tell keys apart in logs, useless to an attacker


def new_key() -> str:
    return KEY_MARKER + "".join(secrets.choice(_ALPHABET) for _ in range(KEY_RANDOM_LEN))


def well_formed(key: str) -> bool:
    return bool(_KEY_FORM.match(key))


def key_hash(key: str) -> bytes:
    return hashlib.sha256(key.encode()).digest()


def same_hash(stored: bytes, computed: bytes) -> bool:
    return hmac.compare_digest(bytes(stored), computed)


def public_prefix(key: str) -> str:
    return key[:PUBLIC_PREFIX_LEN]


class AccountError(Exception):
    """A CLI account operation that cannot be done; the message says why."""


async def create_key(conn: asyncpg.Connection, *, plan: str, account: str | None = None) -> str:
    if plan not in PLANS:
        raise AccountError(f"unknown plan {plan!r}; choose one of {', '.join(PLANS)}")
    account = account or f"acct-{secrets.token_hex(4)}"
    key = new_key()
    async with conn.transaction():
        held = await Tx(conn).fetchval(Q.access.account_upsert, name=account, plan=plan)
        if held != plan:
            raise AccountError(
                f"account {account!r} is on plan {held!r}; "
                f"change it with `python -m svc accounts plan {account} {plan}`"
            )
        key_id = await Tx(conn).fetchval(
            Q.access.key_insert, account=account, key_hash=key_hash(key), prefix=public_prefix(key)
        )
        await Tx(conn).fetchval(Q.access.key_usage_init, key_id=key_id, from_key_id=None)
    return key


async def replace_key(conn: asyncpg.Connection, old_key: str) -> str:
    async with conn.transaction():
        row = await Tx(conn).fetchrow(Q.access.key_by_hash, key_hash=key_hash(old_key))
        if row is None:
            raise AccountError("no such key")
        if row["state"] != "current":
            raise AccountError("that key was already replaced")
        key = new_key()
        new_id = await Tx(conn).fetchval(
            Q.access.key_insert, account=row["account"], key_hash=key_hash(key), prefix=public_prefix(key)
        )
        await Tx(conn).fetchval(Q.access.key_usage_init, key_id=new_id, from_key_id=row["id"])
        await Tx(conn).fetchval(Q.access.key_mark_replaced, id=row["id"], new_id=new_id)
    return key


async def set_plan(conn: asyncpg.Connection, account: str, plan: str) -> None:
    if plan not in PLANS:
        raise AccountError(f"unknown plan {plan!r}; choose one of {', '.join(PLANS)}")
    if await Tx(conn).fetchval(Q.access.account_set_plan, name=account, plan=plan) is None:
        raise AccountError(f"no account named {account!r}")
