#!/usr/bin/env python3
"""The commands of the README, for a fresh machine with only Python 3.11+.

    python3 dev.py serve [serve options]   # install what is needed, bring the service up
    python3 dev.py test  [pytest options]  # install what is needed, run the whole test suite
    python3 dev.py wheel                   # build the service's wheel into dist/
    python3 dev.py zipapp [OUTPUT]         # build the service as one file (default dist/svc.pyz)

Everything goes into ./.venv; it is reinstalled when pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PYTHON = VENV / "bin" / "python"
STAMP = VENV / ".installed-from"


def ensure_environment() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 (dev.py runs under any python3, to say which it needs)
        sys.exit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not PYTHON.exists():
        print("creating .venv", file=sys.stderr)
        venv.create(VENV, with_pip=True)
    print("installing dependencies into .venv", file=sys.stderr)
    subprocess.run(
        [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", f"{ROOT}[test]"],
        check=True,
    )
    STAMP.write_text(wanted)


def build_wheel(python: Path, out_dir: Path) -> Path:
    """The service's wheel, built by `python`'s pip into `out_dir` from a fresh copy of the packages:
    setuptools builds inside the source tree and keeps its build/ folder from one build to the next,
    where a module deleted since would slip into the wheel."""
    with tempfile.TemporaryDirectory(prefix="svc-wheel-") as tmp:
        source = Path(tmp)
        shutil.copy2(ROOT / "pyproject.toml", source)
        for package in ("svc", "svc_live", "svc_hooks"):
            shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
        subprocess.run(
            [str(python), "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out_dir), str(source)],
            check=True,
        )
    return max(out_dir.glob("badminton_svc-*.whl"), key=lambda wheel: wheel.stat().st_mtime)


def build_zipapp(python: Path, wheel: Path, output: Path, *pip_args: str) -> None:
    """One file that runs `svc` with nothing installed but Python (the same minor version and
    platform: the compiled extensions and the PostgreSQL programs are built for them).

    shiv, because it unpacks the whole archive into a cache folder (~/.shiv, or SHIV_ROOT) on the
    first start, keyed by build: the embedded PostgreSQL's programs run, the compiled extensions load
    and the data folders are globbed and gzip-opened as the plain files they must be; and because it
    does only that, a small tool on top of pip. pex could do the same, with its own resolver, lock
    files and runtime, none of which one file needs. `pip_args` go to the pip shiv runs."""
    output.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            str(python),
            "-m",
            "shiv",
            "--console-script",
            "svc",
            "--output-file",
            str(output),
            "--python",
            "/usr/bin/env python3",
            *pip_args,
            str(wheel),
        ],
        check=True,
    )


def zipapp(output: Path) -> None:
    print(
        "building the wheel, then the zipapp (pip installs the dependencies into it: about a minute)", file=sys.stderr
    )
    with tempfile.TemporaryDirectory(prefix="svc-zipapp-") as tmp:
        wheel = build_wheel(PYTHON, Path(tmp))
        build_zipapp(PYTHON, wheel, output, "--quiet")
    print(f"{output}: {output.stat().st_size / 1e6:.0f} MB; run it with `python3 {output} serve`", file=sys.stderr)


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in ("serve", "test", "wheel", "zipapp"):
        print(__doc__, file=sys.stderr)
        return 2
    ensure_environment()
    command, rest = sys.argv[1], sys.argv[2:]
    if command == "wheel":
        print(build_wheel(PYTHON, ROOT / "dist"), file=sys.stderr)
        return 0
    if command == "zipapp":
        zipapp(Path(rest[0]).resolve() if rest else ROOT / "dist" / "svc.pyz")
        return 0
    os.chdir(ROOT)
    if command == "serve":
        argv = [str(PYTHON), "-m", "svc", "serve", *rest]
    else:
        argv = [str(PYTHON), "-m", "pytest", *rest]
    os.execv(argv[0], argv)


if __name__ == "__main__":
    sys.exit(main())
