"""The hand-offs between a worker's Trio thread and its database thread (svc/core/handoff.py, used by
svc.core.db for every statement). What a user would notice if they went wrong: a request whose
statement is never started or whose answer never comes back (it hangs until its client gives up),
an answer handed to the wrong request, or -- what they are for -- each statement paying a wake-up
of the other thread of its own under load."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import trio

from svc.core.db import Database
from svc.core.handoff import Handoff
from svc.core.sqlfiles import Statement


class HeldLoop:
    """Stands for an asyncio loop: keeps what call_soon_threadsafe is given, run when the test says."""

    def __init__(self) -> None:
        self.woken: list[Callable[[], None]] = []

    def call_soon_threadsafe(self, call: Callable[[], None]) -> None:
        self.woken.append(call)

    def run_woken(self) -> None:
        woken, self.woken = self.woken, []
        for call in woken:
            call()


def test_calls_handed_over_together_wake_the_loop_once_and_each_runs_once_in_order():
    loop = HeldLoop()
    to_loop = Handoff(loop.call_soon_threadsafe, "the database thread")
    ran: list[int] = []
    for i in range(5):
        to_loop.put(lambda i=i: ran.append(i))
    assert len(loop.woken) == 1  # five statements, one wake-up
    loop.run_woken()
    assert ran == [0, 1, 2, 3, 4]
    # a call handed over once the loop has drained wakes it again: it is not left waiting
    to_loop.put(lambda: ran.append(5))
    assert len(loop.woken) == 1
    loop.run_woken()
    assert ran == [0, 1, 2, 3, 4, 5]


def test_a_call_handed_over_while_the_loop_drains_runs_once():
    loop = HeldLoop()
    to_loop = Handoff(loop.call_soon_threadsafe, "the database thread")
    ran: list[str] = []

    def first() -> None:
        ran.append("first")
        to_loop.put(lambda: ran.append("during"))  # as the Trio thread would, mid-drain

    to_loop.put(first)
    to_loop.put(lambda: ran.append("second"))
    while loop.woken:
        loop.run_woken()
    assert ran == ["first", "second", "during"]


def test_a_failing_call_does_not_strand_the_calls_after_it(caplog):
    loop = HeldLoop()
    to_loop = Handoff(loop.call_soon_threadsafe, "the database thread")
    ran: list[int] = []
    to_loop.put(lambda: 1 / 0)  # type: ignore[func-returns-value]
    to_loop.put(lambda: ran.append(2))
    loop.run_woken()
    assert ran == [2]
    assert "a call handed to the database thread failed" in caplog.text


class HeldToken:
    """Stands for a TrioToken: keeps what run_sync_soon is given; `finished` as after the run ended."""

    def __init__(self) -> None:
        self.woken: list[Callable[[], None]] = []
        self.finished = False

    def run_sync_soon(self, call: Callable[[], None]) -> None:
        if self.finished:
            raise trio.RunFinishedError("the run is over")
        self.woken.append(call)


def test_answers_handed_back_together_wake_trio_once_each_to_its_own_caller():
    token = HeldToken()
    to_trio = Handoff(token.run_sync_soon, "Trio", gone=trio.RunFinishedError)
    got: dict[str, int] = {}
    for name, answer in (("a", 1), ("b", 2), ("c", 3)):
        to_trio.put(lambda value, name=name: got.__setitem__(name, value), answer)
    assert len(token.woken) == 1
    token.woken.pop()()
    assert got == {"a": 1, "b": 2, "c": 3}
    to_trio.put(lambda value: got.__setitem__("d", value), 4)
    assert len(token.woken) == 1


def test_answers_for_a_finished_run_are_dropped_without_failing_the_database_thread():
    token = HeldToken()
    to_trio = Handoff(token.run_sync_soon, "Trio", gone=trio.RunFinishedError)
    token.finished = True
    to_trio.put(lambda value: None, 1)  # no error on the database thread
    token.finished = False
    got: list[int] = []
    to_trio.put(got.append, 2)  # the hand-off is not stuck waiting for a wake-up that never came
    token.woken.pop()()
    assert got == [2]


def stmt(sql: str) -> Statement:
    return Statement("test", sql, ("n",), "tests/service/test_handoff.py")


@pytest.mark.parametrize("cancelled_every", [0, 3])
async def test_many_statements_at_once_each_get_their_own_answer(db_url, cancelled_every):
    """400 statements in flight together through the real bridge, every third one's caller giving
    up halfway when asked: each of the others gets its own number back, none waits forever."""
    db = Database(db_url, pool_size=4)
    answers: dict[int, int] = {}
    with trio.fail_after(60):  # a call left behind would hang: fail instead
        await db.open()
        try:

            async def ask(n: int) -> None:
                with trio.CancelScope() as scope:
                    if cancelled_every and n % cancelled_every == 0:
                        scope.deadline = trio.current_time() + 0.001 * (n % 7)
                    answers[n] = await db.fetchval(stmt("SELECT $1::int FROM pg_sleep(0.001)"), n=n)

            async with trio.open_nursery() as nursery:
                for n in range(400):
                    nursery.start_soon(ask, n)
            assert all(answers[n] == n for n in answers)
            if not cancelled_every:
                assert sorted(answers) == list(range(400))
            # the bridge still answers after the callers that gave up
            assert await db.fetchval(stmt("SELECT $1::int"), n=7) == 7
        finally:
            await db.close()
