"""The lane (svc/core/lane.py): single statements on one connection kept out of the pool. What a
user would notice if it went wrong: a request cancelled in the middle of its statement (a client
that went away) leaving the next requests stuck behind it or the server still running it, or a
connection the server dropped failing the next requests."""

from __future__ import annotations

import trio

from svc.core.db import Database
from svc.core.sqlfiles import Statement


def stmt(sql: str) -> Statement:
    return Statement("test", sql, (), "tests/service/test_lane.py")


async def test_a_statement_cancelled_midway_leaves_the_next_ones_answered(db_url):
    db = Database(db_url, pool_size=2)
    await db.open()
    try:
        with trio.CancelScope() as scope:

            async def cancel_once_running() -> None:
                while not await db.fetchval(  # through the pool: the lane is busy
                    stmt("SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(30)%')")
                ):
                    await trio.sleep(0.01)
                scope.cancel()

            async with trio.open_nursery() as nursery:
                nursery.start_soon(cancel_once_running)
                await db.fetchval(stmt("SELECT pg_sleep(30)"))
        assert scope.cancelled_caught
        # the next statements answer, the sleeping one is no longer running on the server
        assert await db.fetchval(stmt("SELECT 41 + 1")) == 42
        for _ in range(500):
            if not await db.fetchval(
                stmt(
                    "SELECT EXISTS (SELECT 1 FROM pg_stat_activity"
                    " WHERE query LIKE 'SELECT pg_sleep(30)%' AND state = 'active')"
                )
            ):
                break
            await trio.sleep(0.01)
        else:
            raise AssertionError("the cancelled statement still runs on the server")
        # the lane took a connection again and answers from it
        assert [await db.fetchval(stmt("SELECT 1")) for _ in range(3)] == [1, 1, 1]
    finally:
        await db.close()


async def test_a_connection_the_server_dropped_does_not_fail_the_next_statement(db_url):
    db = Database(db_url, pool_size=2)
    await db.open()
    try:
        pid = await db.fetchval(stmt("SELECT pg_backend_pid()"))
        assert await db.fetchval(stmt("SELECT pg_backend_pid()")) == pid  # one connection: the lane's
        async with db.dedicated() as other:  # a connection outside the pool and the lane
            assert await other.fetchval(stmt(f"SELECT pg_terminate_backend({pid})"))
        # the client learns of the close once its loop reads the socket's end: asked on that loop's
        # thread (the lane is touched there only); the server could not say when the client has read it

        async def lane_has_seen_it() -> bool:
            return not db._lane.holds_open()

        for _ in range(500):
            if await db._call(lane_has_seen_it):
                break
            await trio.sleep(0.01)
        assert await db.fetchval(stmt("SELECT 41 + 1")) == 42
        assert await db.fetchval(stmt("SELECT pg_backend_pid()")) != pid
    finally:
        await db.close()
