"""The style gate: ruff's format and lint and mypy's types over the tree, with the settings of
pyproject.toml ([tool.ruff], [tool.mypy]), run as a developer runs them from the repository's root.
A finding fails the test and is shown as the tool printed it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(tool: str, *args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`tool` as installed beside this Python (the venv's ruff and mypy, from the test extra)."""
    command = Path(sys.executable).with_name(tool)
    return subprocess.run([str(command), *args], cwd=cwd, capture_output=True, text=True)


def findings(result: subprocess.CompletedProcess[str]) -> str:
    return f"exit {result.returncode}\n{result.stdout}{result.stderr}"


def test_the_tree_is_formatted():
    result = run("ruff", "format", "--check", ".")
    assert result.returncode == 0, findings(result)


def test_the_tree_passes_the_linter():
    result = run("ruff", "check", ".")
    assert result.returncode == 0, findings(result)


def test_the_tree_passes_the_type_checker():
    # the packages come from [tool.mypy] files; the cache in .mypy_cache makes a second run quick
    result = run("mypy")
    assert result.returncode == 0, findings(result)
    assert "Success: no issues found" in result.stdout


def test_the_lower_layers_are_held_to_strict_and_the_rest_is_checked(tmp_path):
    """A function without annotations fails in svc.core (strict) and passes in svc.world, where
    its body is still checked: a wrong type inside it fails there."""
    for package in ("svc", "svc/core", "svc/world"):
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "svc/core/untyped.py").write_text("def half(n):\n    return n // 2\n")
    (tmp_path / "svc/world/untyped.py").write_text("def half(n):\n    return n // 2\n")
    (tmp_path / "svc/world/wrong.py").write_text("def count(items):\n    total: str = len(items)\n    return total\n")
    result = run(
        "mypy",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--cache-dir",
        str(tmp_path / "cache"),
        "svc/core/untyped.py",
        "svc/world/untyped.py",
        "svc/world/wrong.py",
        cwd=tmp_path,
    )
    out = result.stdout
    assert "svc/core/untyped.py:1: error: Function is missing a type annotation  [no-untyped-def]" in out, out
    assert "svc/world/untyped.py" not in out, out
    assert 'svc/world/wrong.py:2: error: Incompatible types in assignment (expression has type "int"' in out, out
    assert "Found 2 errors in 2 files" in out, out


MAX_LINES_OF_CODE = 400  # a module a reader takes in at one sitting; data files aside
CODE_FOLDERS = ("svc", "svc_live", "svc_hooks", "tests", "ops")


def lines_of_code(path: Path) -> int:
    """Lines that are neither blank nor only a comment (docstrings count: they are read too)."""
    return sum(
        1
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    )


def test_no_module_is_over_400_lines_of_code():
    modules = [p for folder in CODE_FOLDERS for p in (ROOT / folder).rglob("*.py")] + [ROOT / "dev.py"]
    assert len(modules) > 200  # the walk found the tree
    over = {str(p.relative_to(ROOT)): n for p in modules if (n := lines_of_code(p)) > MAX_LINES_OF_CODE}
    assert not over, f"split by concern: {over}"
