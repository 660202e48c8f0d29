"""Set up and run Sudden Death with nothing but Python 3.10+.

`python3 tasks.py play` starts the game and `python3 tasks.py test` runs the whole test suite.
Both create `.venv/` beside this file on first use and install the project into it, so a fresh
machine needs no other step. The install is redone only when `pyproject.toml` changes.
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
STAMP = VENV / "installed.stamp"
EXTRAS = "test"


def venv_python() -> Path:
    """The interpreter inside `.venv`, wherever the platform puts it."""
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def _wanted_stamp() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest} {EXTRAS} {sys.version_info[:2]}"


def ensure_environment() -> Path:
    """Create the virtual environment and install the project if it is missing or stale."""
    python = venv_python()
    if not python.exists():
        print("Creating .venv (first run only)...", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    wanted = _wanted_stamp()
    if not STAMP.exists() or STAMP.read_text() != wanted:
        print("Installing Sudden Death and its test tools into .venv...", flush=True)
        quiet = ["--quiet", "--disable-pip-version-check"]
        subprocess.run(
            [str(python), "-m", "pip", "install", *quiet, "--upgrade", "pip"], check=True
        )
        subprocess.run(
            [str(python), "-m", "pip", "install", *quiet, "-e", f".[{EXTRAS}]"],
            check=True,
            cwd=ROOT,
        )
        STAMP.write_text(wanted)
    return python


def main(argv: list[str]) -> int:
    commands = {
        "play": ["-m", "sudden_death"],
        "test": ["-m", "pytest"],
        "simulate": ["-m", "sudden_death.simulate"],
        "setup": None,
    }
    if not argv or argv[0] not in commands:
        print(f"usage: python3 tasks.py {{{'|'.join(commands)}}} [arguments...]", file=sys.stderr)
        return 2
    python = ensure_environment()
    command = commands[argv[0]]
    if command is None:
        return 0
    return subprocess.run([str(python), *command, *argv[1:]], cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
