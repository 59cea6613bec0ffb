#!/usr/bin/env python3
"""The two commands of the README, for a fresh machine with only Python 3.11+.

    python3 dev.py serve [serve options]   # install what is needed, bring the service up
    python3 dev.py test  [pytest options]  # install what is needed, run the whole test suite

Everything goes into ./.venv; it is reinstalled when pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
STAMP = VENV / ".installed-from"


def ensure_environment() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not PYTHON.exists():
        print("creating .venv", file=sys.stderr)
        venv.create(VENV, with_pip=True)
    print("installing dependencies into .venv", file=sys.stderr)
    subprocess.run([str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                    "-e", f"{ROOT}[test]"], check=True)
    STAMP.write_text(wanted)


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in ("serve", "test"):
        print(__doc__, file=sys.stderr)
        return 2
    ensure_environment()
    command, rest = sys.argv[1], sys.argv[2:]
    os.chdir(ROOT)
    if command == "serve":
        argv = [str(PYTHON), "-m", "svc", "serve", *rest]
    else:
        argv = [str(PYTHON), "-m", "pytest", *rest]
    os.execv(argv[0], argv)


if __name__ == "__main__":
    sys.exit(main())
