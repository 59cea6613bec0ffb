"""The scheduler's two loops stay apart (docs/architecture.md, Two event loops): a try's outcome is
decided without I/O, and its record and the fan-out's round run on the database side only."""

from __future__ import annotations

import inspect

from svc.core.sqlrun import Tx
from svc_hooks import fanout, record, schedule


def first_parameter(fn) -> object:
    return next(iter(inspect.signature(fn, eval_str=True).parameters.values())).annotation


def test_the_decision_is_pure_and_the_writes_take_a_tx():
    source = inspect.getsource(schedule)
    assert "import trio" not in source and "svc.core" not in source
    assert first_parameter(record.record_try) is Tx
    assert first_parameter(fanout.make_deliveries) is Tx
    assert "import trio" not in inspect.getsource(record)
