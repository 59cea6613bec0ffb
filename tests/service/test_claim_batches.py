"""Claims of calls made at once by one worker share one statement (svc.access.allowances through
svc.core.batches) and each key is still counted exactly; a claim whose request gave up while its
batch was in flight gives back the whole block it got, its own call included."""

from __future__ import annotations

import contextlib
import functools

import pytest
import trio
import trio.testing

from svc.access import claims
from svc.access import keys as svc_keys
from svc.access.allowances import Allowances
from svc.core.clock import Clock
from svc.core.db import Database
from tests.support import NOON, make_key, sql


@pytest.fixture
def batch_sizes(monkeypatch) -> list[int]:
    """The number of claims in each statement run."""
    sizes: list[int] = []
    claim_many = claims.claim_many

    async def counted(db, asked, **fixed):
        sizes.append(len(asked))
        return await claim_many(db, asked, **fixed)

    monkeypatch.setattr(claims, "claim_many", counted)
    return sizes


def usage(db_url: str, keys: list[str]) -> dict[str, tuple[int, int]]:
    """Each key's (minute's calls, blocks held) as the database counts them."""
    rows = sql(
        db_url,
        "SELECT k.key_hash, u.minute_calls, (SELECT count(*) FROM call_blocks b WHERE b.key_id = k.id) AS blocks"
        " FROM api_keys k JOIN key_usage u ON u.key_id = k.id WHERE k.key_hash = ANY($1)",
        [svc_keys.key_hash(k) for k in keys],
    )
    by_hash = {bytes(r["key_hash"]): (r["minute_calls"], r["blocks"]) for r in rows}
    return {k: by_hash[svc_keys.key_hash(k)] for k in keys}


@contextlib.asynccontextmanager
async def worker(db_url: str):
    """One worker's allowances with their background tasks (the claims' batches among them)."""
    db = Database(db_url, pool_size=4)
    await db.open()
    try:
        allowances = Allowances(db, Clock(start=NOON))
        async with trio.open_nursery() as n:
            await n.start(allowances.run)
            with trio.fail_after(10):
                while not allowances.listening:
                    await trio.sleep(0.01)
            yield allowances
            await allowances.give_back_all()
            n.cancel_scope.cancel()
    finally:
        await db.close()


async def test_keys_first_called_at_once_share_claims_and_each_is_counted_once(db_url, batch_sizes):
    keys = [make_key(db_url, "archive") for _ in range(40)]
    async with worker(db_url) as allowances:
        callers = {}

        async def call(key: str) -> None:
            callers[key] = await allowances.authorize(key, need="archive", count=True)

        async with trio.open_nursery() as n:
            for key in keys:
                n.start_soon(call, key)
        held = usage(db_url, keys)
    # each caller is told one call of its minute is used, while its worker holds a block of several
    per_minute = callers[keys[0]].plan.per_minute
    assert {k: c.headers["X-RateLimit-Remaining"] for k, c in callers.items()} == {k: str(per_minute - 1) for k in keys}
    assert all(calls > 1 and blocks == 1 for calls, blocks in held.values()), held
    # given back at the end: the database counts exactly the one call each key made
    assert usage(db_url, keys) == {k: (1, 0) for k in keys}
    assert max(batch_sizes) > 1 and len(batch_sizes) < len(keys), batch_sizes


async def test_a_claim_given_up_while_its_batch_is_in_flight_gives_its_whole_block_back(db_url, monkeypatch):
    key, other = make_key(db_url, "archive"), make_key(db_url, "archive")
    in_flight, let_go = trio.Event(), trio.Event()
    claim_many = claims.claim_many

    async def held(db, asked, **fixed):
        in_flight.set()
        await let_go.wait()
        return await claim_many(db, asked, **fixed)

    monkeypatch.setattr(claims, "claim_many", held)
    async with worker(db_url) as allowances:
        with trio.CancelScope() as gave_up:
            async with trio.open_nursery() as n:
                n.start_soon(functools.partial(allowances.authorize, key, need="archive", count=True))

                async def give_up_in_flight() -> None:
                    await in_flight.wait()
                    gave_up.cancel()

                n.start_soon(give_up_in_flight)
        assert gave_up.cancelled_caught
        let_go.set()
        # the next batch runs once the one given up was answered: by then its block is on its way back
        await allowances.authorize(other, need="archive", count=True)
        with trio.fail_after(10):
            while usage(db_url, [key])[key] != (0, 0):
                await trio.sleep(0.05)
        assert usage(db_url, [other])[other][1] == 1  # the other key's block is held as usual
