"""svc.core.batches on its own: a batch chosen as a deadlock's victim runs again (it was rolled back
whole), and one that keeps losing fails each of its requests as the database unavailable."""

from __future__ import annotations

import asyncpg
import pytest
import trio
import trio.testing

from svc.core.batches import DEADLOCK_TRIES, Batches
from svc.core.db import DatabaseUnavailable


def deadlocking(losses: int, runs: list[list[int]]):
    """A batch's statement that is a deadlock's victim `losses` times, then doubles each item."""

    async def run(items: list[int]) -> list[int]:
        runs.append(sorted(items))  # Trio starts the asking tasks in no set order
        if len(runs) <= losses:
            raise asyncpg.exceptions.DeadlockDetectedError("deadlock detected")
        return [2 * i for i in items]

    return run


async def nothing_unclaimed(item: int, result: int) -> None:
    raise AssertionError("every request waits for its answer here")


async def ask_together(batches: Batches[int, int], items: list[int]) -> dict[int, object]:
    got: dict[int, object] = {}

    async def ask(i: int) -> None:
        try:
            got[i] = await batches.submit(i)
        except DatabaseUnavailable as exc:
            got[i] = exc

    async with trio.open_nursery() as n:
        n.start_soon(batches.serve)
        await trio.testing.wait_all_tasks_blocked()
        async with trio.open_nursery() as asking:
            for i in items:
                asking.start_soon(ask, i)
        n.cancel_scope.cancel()
    return got


async def test_a_batch_lost_to_a_deadlock_runs_again_and_answers_every_request():
    runs: list[list[int]] = []
    batches = Batches(deadlocking(DEADLOCK_TRIES - 1, runs), nothing_unclaimed, most=16)
    assert await ask_together(batches, [1, 2, 3]) == {1: 2, 2: 4, 3: 6}
    assert runs == [[1, 2, 3]] * DEADLOCK_TRIES  # one batch, run until it was not the victim


async def test_a_batch_that_keeps_losing_fails_each_request_as_the_database_unavailable():
    runs: list[list[int]] = []
    batches = Batches(deadlocking(DEADLOCK_TRIES, runs), nothing_unclaimed, most=16)
    got = await ask_together(batches, [1, 2])
    assert len(runs) == DEADLOCK_TRIES
    assert all(isinstance(e, DatabaseUnavailable) for e in got.values()) and len(got) == 2
    assert got[1] is not got[2]  # each request its own exception


@pytest.mark.parametrize("losses", [0, DEADLOCK_TRIES - 1])
async def test_a_lone_request_without_the_server_is_a_batch_of_its_own(losses):
    runs: list[list[int]] = []
    batches = Batches(deadlocking(losses, runs), nothing_unclaimed, most=16)
    assert await batches.submit(5) == 10
    assert runs == [[5]] * (losses + 1)
