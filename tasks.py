"""Set up and run Sudden Death with nothing but Python 3.10+.

`python3 tasks.py play` starts the game and `python3 tasks.py test` runs the whole test suite.
Both create `.venv/` beside this file on first use and install the project into it, so a fresh
machine needs no other step. The install is redone only when `pyproject.toml` changes.
`python3 tasks.py build` also installs the build extra (PyInstaller) and builds the packaged game
into dist/sudden-death/; on Linux, `python3 tasks.py build-windows` builds the Windows game under
Wine into dist/windows/ (docs/packaging.md).
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
BUILD_EXTRAS = "test,build"
SPEC = ROOT / "build.spec"


def venv_python() -> Path:
    """The interpreter inside `.venv`, wherever the platform puts it."""
    if os.name == "nt":
        return VENV / "Scripts" / "python.exe"
    return VENV / "bin" / "python"


def _wanted_stamp(extras: str = EXTRAS) -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest} {extras} {sys.version_info[:2]}"


def _stamp_covers(extras: str) -> bool:
    """True if the last install matches pyproject.toml and included every extra in `extras`
    (so `play` after `build` does not reinstall just because the build extra is also there)."""
    if not STAMP.exists():
        return False
    installed = STAMP.read_text().split(" ", 2)
    wanted = _wanted_stamp(extras).split(" ", 2)
    if len(installed) != 3 or installed[0] != wanted[0] or installed[2] != wanted[2]:
        return False
    return set(extras.split(",")) <= set(installed[1].split(","))


def ensure_environment(extras: str = EXTRAS) -> Path:
    """Create the virtual environment and install the project if it is missing or stale."""
    python = venv_python()
    if not python.exists():
        print("Creating .venv (first run only)...", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    wanted = _wanted_stamp(extras)
    if not _stamp_covers(extras):
        print("Installing Sudden Death and its test tools into .venv...", flush=True)
        quiet = ["--quiet", "--disable-pip-version-check"]
        subprocess.run(
            [str(python), "-m", "pip", "install", *quiet, "--upgrade", "pip"], check=True
        )
        subprocess.run(
            [str(python), "-m", "pip", "install", *quiet, "-e", f".[{extras}]"],
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
        # Onedir dist/sudden-death/; SUDDEN_DEATH_ONEFILE=1: one file dist/sudden-death-onefile.
        "build": ["-m", "PyInstaller", "--noconfirm", "--distpath", str(ROOT / "dist"),
                  "--workpath", str(ROOT / "build"), str(SPEC)],
        # Linux only: the Windows game under Wine, dist/windows/ (tools/windows_build.py).
        "build-windows": [str(ROOT / "tools" / "windows_build.py")],
        "setup": None,
    }
    if not argv or argv[0] not in commands:
        print(f"usage: python3 tasks.py {{{'|'.join(commands)}}} [arguments...]", file=sys.stderr)
        return 2
    python = ensure_environment(BUILD_EXTRAS if argv[0] == "build" else EXTRAS)
    command = commands[argv[0]]
    if command is None:
        return 0
    code = subprocess.run([str(python), *command, *argv[1:]], cwd=ROOT).returncode
    if argv[0] == "build" and code == 0:
        _say_where_built()
    return code


def _say_where_built() -> None:
    """Tell the player-facing result's place and how to start it."""
    suffix = ".exe" if os.name == "nt" else ""
    onefile = os.environ.get("SUDDEN_DEATH_ONEFILE", "").strip() not in ("", "0")
    if onefile:
        print(f"Built the one-file game: {ROOT / 'dist' / ('sudden-death-onefile' + suffix)}")
        return
    folder = ROOT / "dist" / "sudden-death"
    print(f"Built the game folder: {folder}")
    print(f"Start it with: {folder / ('sudden-death' + suffix)} (or double-click it there)")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
