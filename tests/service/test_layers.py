"""The layers of docs/architecture.md, kept by import-linter's contract in pyproject.toml:
every import points down, and the modules of one line never import each other."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("svc", "svc_live", "svc_hooks")


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """lint-imports with the project's contract, on the packages found under `root`."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    command = Path(sys.executable).with_name("lint-imports")  # installed beside this Python by import-linter
    return subprocess.run(
        [str(command), "--config", str(ROOT / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
    )


def test_the_code_keeps_its_layers():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 1 kept, 0 broken." in result.stdout


def copy_with(tmp_path: Path, module: str, line: str) -> Path:
    """The packages copied under tmp_path with `line` added to `module`."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    path = tmp_path / (module.replace(".", "/") + ".py")
    path.write_text(path.read_text() + "\n" + line + "\n")
    return tmp_path


def test_a_lower_layer_importing_a_higher_one_is_refused(tmp_path):
    result = lint_imports(copy_with(tmp_path, "svc.core.clock", "import svc.web.app  # noqa"))
    assert result.returncode != 0
    assert "svc.core.clock -> svc.web.app" in result.stdout


def test_the_hub_importing_the_simulator_is_refused(tmp_path):
    result = lint_imports(copy_with(tmp_path, "svc_live.hub", "import svc.world.feed.feed  # noqa"))
    assert result.returncode != 0
    assert "svc_live.hub -> svc.world.feed.feed" in result.stdout
