"""The feed's two loops stay apart (docs/architecture.md, Two event loops): what a step decides is
computed without I/O, and what writes it runs on the database side only, reached from Trio through
Database.transaction."""

from __future__ import annotations

import ast
import importlib
import inspect

from svc.core.sqlrun import Tx

IO = {"trio", "asyncpg", "svc.core.db", "svc.core.sqlrun"}


def imported(module: str) -> set[str]:
    tree = ast.parse(inspect.getsource(importlib.import_module(module)))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_simulation_and_its_decisions_do_no_io():
    for module in ("svc.world.feed.simulate", "svc.world.feed.decisions", "svc.world.feed.play"):
        assert not imported(module) & IO, module


def test_the_writes_run_on_the_database_side_only():
    from svc.world.feed import persist, publish

    for module in (persist, publish):
        assert not imported(module.__name__) & {"trio", "svc.core.db"}, module.__name__
        for name, fn in inspect.getmembers(module, inspect.iscoroutinefunction):
            if fn.__module__ == module.__name__:
                first = next(iter(inspect.signature(fn, eval_str=True).parameters.values()))
                assert first.annotation is Tx, f"{module.__name__}.{name} takes a Tx first"
