"""Set up and run Sudden Death with nothing but Python (3.10 or newer; 3.10 to 3.13 are tested).

`python3 tasks.py play` starts the game and `python3 tasks.py test` runs the whole test suite.
Both create `.venv/` beside this file on first use and install the project into it, so a fresh
machine needs no other step: `play` installs only what the game needs, `test` adds the test
tools. The install is redone only when `pyproject.toml` changes.
`test` spreads the suite over the processors (pytest-xdist, a test file to a worker).
`python3 tasks.py test-pythons` runs the test suite again under every other supported Python
found on the machine, each in its own `.venvs/<version>/` (CI runs it after `test`);
`python3 tasks.py setup-pythons` only sets up those environments (CI, while `test` runs).
`python3 tasks.py build` also installs the build extra (PyInstaller) and builds the packaged game
into dist/sudden-death/; on Linux, `python3 tasks.py build-windows` builds the Windows game under
Wine into dist/windows/ (docs/packaging.md); `python3 tasks.py build-web` builds the page that
plays the computer with no server, with Pyodide's core, into dist/web/ (tools/web_build.py).
`python3 tasks.py mutants` runs mutation testing (the mutants extra, mutmut) over the rules and
the number words (docs/testing.md).
`python3 tasks.py serve-cluster [N]` starts a private PostgreSQL, a private Valkey and N table
server processes on one port, prints the address for players, and stops them all on Ctrl+C
(docs/server.md).
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
import venv
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENVS = ROOT / ".venvs"  # one per other Python, for test-pythons
STAMP_NAME = "installed.stamp"
EXTRAS = "test"
PLAY_EXTRAS = ""  # a player's first start installs the game alone
BUILD_EXTRAS = "test,build"
MUTANT_EXTRAS = "test,mutants"
SPEC = ROOT / "build.spec"
# Every Python the game is tested on; pyproject.toml's requires-python says the same.
PYTHONS = ("3.10", "3.11", "3.12", "3.13")
# Under the other Pythons, the builds (PyInstaller, Wine) are left to the default one: they
# check the packaging, not the interpreter, and take minutes. So are the soaks (hundreds of
# fuzzed or silent games, a minute and a half a suite): the same code by volume, which each
# other Python still plays in their few-game versions (the fuzz with real speech, 25 games
# with real audio) to keep CI under 30 minutes. So are the page's tests in Chromium (`browser`:
# the page's HTML and JavaScript are the same bytes whatever serves them; the view behind them
# runs under every Python in tests/test_web_view.py) and the benchmarks' short runs (`bench`:
# they check a measuring script, whose code the server and cluster tests run under each).
OTHER_PYTHON_MARKERS = "not build and not soak and not browser and not bench"
# A Python between the oldest and the newest (3.12; 3.11 is the default) runs only the tests
# marked `runtime` (tests/conftest.py RUNTIME_FILES: the event loop, the collector, threads):
# the rest is code that says the same on every interpreter, and what runs on 3.11 and on 3.13
# runs on 3.12. Three minutes less of CI, which had reached 34.
BETWEEN_PYTHON_MARKERS = OTHER_PYTHON_MARKERS + " and runtime"
MAX_WORKERS = 4  # spread_args: the most pytest-xdist workers a suite gets
# pyproject.toml maps the top-level sounds/ to the package sudden_death.sounds, so setuptools makes
# the editable install an import hook and prints a box about it ("Editable installation.": a
# folder named like the package in the working directory could be imported first). It is for
# whoever lays out a package, nothing a player can act on: the first start stays quiet.
EDITABLE_NOTICE = "ignore:Editable installation."


def venv_python(venv_dir: Path = VENV) -> Path:
    """The interpreter inside a virtual environment, wherever the platform puts it."""
    if os.name == "nt":
        return venv_dir / "Scripts" / "python.exe"
    return venv_dir / "bin" / "python"


def _version(python: Path | str) -> str:
    """'3.12' for the interpreter `python`."""
    found = subprocess.run(
        [str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True, text=True, check=True,
    )
    return found.stdout.strip()


def _wanted_stamp(extras: str, version: str) -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    return f"{digest} {extras or '-'} {version}"


def _stamp_covers(stamp: Path, extras: str, version: str) -> bool:
    """True if the last install matches pyproject.toml and included every extra in `extras`
    (so `play` after `build` does not reinstall just because the build extra is also there)."""
    if not stamp.exists():
        return False
    installed = stamp.read_text().split(" ", 2)
    wanted = _wanted_stamp(extras, version).split(" ", 2)
    if len(installed) != 3 or installed[0] != wanted[0] or installed[2] != wanted[2]:
        return False
    return _extras(extras) <= _extras(installed[1])


def _extras(extras: str) -> set[str]:
    return {extra for extra in extras.split(",") if extra and extra != "-"}


def ensure_environment(extras: str = EXTRAS, venv_dir: Path = VENV,
                       base: str | None = None) -> Path:
    """Create the virtual environment (from `base`, or this interpreter) and install the
    project into it if it is missing or stale; returns its python."""
    python = venv_python(venv_dir)
    name = venv_dir.relative_to(ROOT)
    if not python.exists():
        print(f"Creating {name} (first run only)...", flush=True)
        if base is None:
            venv.EnvBuilder(with_pip=True, clear=True).create(venv_dir)
        else:
            subprocess.run([base, "-m", "venv", "--clear", str(venv_dir)], check=True)
    version = _version(python) if base is not None else "{}.{}".format(*sys.version_info[:2])
    stamp = venv_dir / STAMP_NAME
    if not _stamp_covers(stamp, extras, version):
        what = "Sudden Death" if not _extras(extras) else "Sudden Death and its test tools"
        print(f"Installing {what} into {name}...", flush=True)
        quiet = ["--quiet", "--disable-pip-version-check"]
        subprocess.run(
            [str(python), "-m", "pip", "install", *quiet, "--upgrade", "pip"], check=True
        )
        _leave_pygame(python)
        target = f".[{extras}]" if _extras(extras) else "."
        subprocess.run(
            [str(python), "-m", "pip", "install", *quiet, "-e", target],
            check=True,
            cwd=ROOT,
            env=install_env(),
        )
        stamp.write_text(_wanted_stamp(extras, version))
    return python


def install_env() -> dict[str, str]:
    """The environment pip installs the project in: this one, without setuptools' editable
    install notice (EDITABLE_NOTICE); the player's own warning filters are kept."""
    warnings = [os.environ.get("PYTHONWARNINGS", ""), EDITABLE_NOTICE]
    return {**os.environ, "PYTHONWARNINGS": ",".join(filter(None, warnings))}


def _leave_pygame(python: Path) -> None:
    """An environment made before the move to pygame-ce holds pygame, whose files pygame-ce
    would be installed over (both are imported as `pygame`): pygame goes first."""
    found = subprocess.run(
        [str(python), "-c", "import importlib.metadata as m; m.version('pygame')"],
        capture_output=True)
    if found.returncode == 0:
        subprocess.run([str(python), "-m", "pip", "uninstall", "--quiet", "--yes", "pygame"],
                       check=True)


def find_python(version: str) -> str | None:
    """A working interpreter for `version`: the newest pyenv install ($PYENV_ROOT or ~/.pyenv,
    then /root/.pyenv), else `pythonX.Y` on PATH. Each is asked its version, because a pyenv
    shim is on PATH even when it cannot run that version. None if none works."""
    candidates: list[str] = []
    roots = [os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv"), "/root/.pyenv"]
    for root in dict.fromkeys(filter(None, roots)):
        found = glob.glob(os.path.join(root, "versions", f"{version}.*", "bin",
                                       f"python{version}"))

        def patch(path: str) -> int:
            release = Path(path).parent.parent.name.split(".")[2]
            return int(release) if release.isdigit() else -1

        candidates += sorted(found, key=patch, reverse=True)
    on_path = shutil.which(f"python{version}")
    if on_path:
        candidates.append(on_path)
    for candidate in candidates:
        try:
            if _version(candidate) == version:
                return candidate
        except (OSError, subprocess.CalledProcessError):
            continue
    return None


def spread_args(processors: int | None = None) -> list[str]:
    """pytest-xdist's arguments that spread a suite over the processors, a test file to a
    worker (a file's tests share its set-up, and some run in order); none on one processor.
    At most MAX_WORKERS: the suite starts servers, speech and X displays of its own, and more
    workers than that gained nothing here."""
    count = min(MAX_WORKERS, processors if processors is not None else (os.cpu_count() or 1))
    return ["-n", str(count), "--dist", "loadfile"] if count > 1 else []


def setup_pythons() -> tuple[dict[str, str], list[tuple[str, Path]]]:
    """Each other supported Python's environment, set up one at a time (pip installs the
    project from this one folder): what became of each version not ready, and the ready ones
    with their interpreters. CI runs this (`tasks.py setup-pythons`) while the default suite
    runs, since it mostly waits on downloads; test-pythons then finds them ready."""
    current = "{}.{}".format(*sys.version_info[:2])
    results: dict[str, str] = {}
    ready: list[tuple[str, Path]] = []
    for version in PYTHONS:
        if version == current:
            results[version] = "the default interpreter: `python3 tasks.py test`"
            continue
        base = find_python(version)
        if base is None:
            results[version] = f"MISSING: no python{version} on PATH or under pyenv"
            continue
        print(f"== Python {version} ({base}): setting up .venvs/{version}", flush=True)
        try:
            ready.append((version, ensure_environment(EXTRAS, VENVS / version, base)))
        except subprocess.CalledProcessError as failure:
            results[version] = f"FAILED to set up (exit {failure.returncode})"
    return results, ready


def test_pythons(pytest_args: list[str], processors: int | None = None) -> int:
    """The test suite under every supported Python except this one (which `test` covers),
    each in .venvs/<version>; a missing interpreter is a failure, named, never a skip.

    The environments are set up first (pip installs the project from this one folder, so one
    at a time); then the suites run one after another, each spread over the processors like
    `test`'s (spread_args), with one worker more than processors: these suites wait on their
    servers and processes as much as they compute (two workers kept two processors half idle:
    3.12's runtime tests used 275 s of CPU in 276 s), and without the builds no worker
    competes with a compiler. Side by side, two whole suites left the third alone on one
    processor at the end, and CI's time went past its limit on a slow machine."""
    results, ready = setup_pythons()
    with tempfile.TemporaryDirectory() as scratch:
        for version, python in ready:
            markers = other_python_markers(version)
            print(f"== Python {version}: the suite starts (-m \"{markers}\")", flush=True)
            report = Path(scratch) / f"{version}.xml"
            started = time.perf_counter()
            code = subprocess.run(
                [str(python), "-m", "pytest", "-q", "-m", markers,
                 *spread_args((processors or os.cpu_count() or 1) + 1),
                 f"--junit-xml={report}", *pytest_args],
                cwd=ROOT).returncode
            seconds = time.perf_counter() - started
            outcome = "passed" if code == 0 else f"FAILED (pytest exit {code})"
            if markers == BETWEEN_PYTHON_MARKERS:
                outcome += " (the runtime tests)"
            results[version] = (f"{outcome} in {seconds:.0f} s"
                                f"{skip_words(skip_reasons(report))}")
    print("Python versions:")
    for version in PYTHONS:
        print(f"  {version}: {results[version]}")
    return 1 if any(o.startswith(("FAILED", "MISSING")) for o in results.values()) else 0


def other_python_markers(version: str) -> str:
    """The marker expression of the suite run under `version` by test-pythons: the oldest and
    the newest run everything but the builds and soaks; one between them the `runtime` tests."""
    if version in (PYTHONS[0], PYTHONS[-1]):
        return OTHER_PYTHON_MARKERS
    return BETWEEN_PYTHON_MARKERS


def skip_reasons(junit_xml: Path) -> Counter[str]:
    """How many tests skipped for each reason, from pytest's JUnit report (none if unreadable),
    so the run's summary says what was not tested under each Python."""
    try:
        root = ET.parse(junit_xml).getroot()
    except (OSError, ET.ParseError):
        return Counter()
    return Counter(skipped.get("message", "no reason given").removeprefix("Skipped: ")
                   for skipped in root.iter("skipped"))


def skip_words(skips: Counter[str]) -> str:
    """'; 2 skipped: python3-brlapi ... (2)' for the summary line; '' with no skips."""
    if not skips:
        return ""
    reasons = "; ".join(f"{reason} ({count})" for reason, count in sorted(skips.items()))
    return f"; {sum(skips.values())} skipped: {reasons}"


def _supported_here() -> bool:
    """3.10 to 3.13 are tested; a newer Python is said in one line and goes on, an older one
    cannot run the game."""
    current = "{}.{}".format(*sys.version_info[:2])
    if current in PYTHONS:
        return True
    if sys.version_info[:2] > tuple(int(part) for part in PYTHONS[-1].split(".")):
        print(f"Sudden Death is tested on Python {PYTHONS[0]} to {PYTHONS[-1]}; going on with "
              f"{current}.", file=sys.stderr)
        return True
    print(f"Sudden Death needs Python {PYTHONS[0]} or newer; this is {current}. Run this file "
          f"with a newer one, for example: python{PYTHONS[-1]} tasks.py play", file=sys.stderr)
    return False


def main(argv: list[str]) -> int:
    commands = {
        "play": ["-m", "sudden_death"],
        "test": ["-m", "pytest"],
        "simulate": ["-m", "sudden_death.simulate"],
        # Extract, merge and compile the translation catalogs (docs/translating.md).
        "catalogs": [str(ROOT / "tools" / "catalogs.py")],
        # Onedir dist/sudden-death/; SUDDEN_DEATH_ONEFILE=1: one file dist/sudden-death-onefile.
        "build": ["-m", "PyInstaller", "--noconfirm", "--distpath", str(ROOT / "dist"),
                  "--workpath", str(ROOT / "build"), str(SPEC)],
        # The page that plays without a server, dist/web/ (tools/web_build.py, docs/playing.md).
        "build-web": [str(ROOT / "tools" / "web_build.py")],
        # Linux only: the Windows game under Wine, dist/windows/ (tools/windows_build.py).
        "build-windows": [str(ROOT / "tools" / "windows_build.py")],
        # Mutation testing of the rules and number words, in build/mutants/ (docs/testing.md).
        "mutants": [str(ROOT / "tools" / "mutants.py")],
        # A throwaway PostgreSQL, Valkey and N table servers on one port (docs/server.md).
        "serve-cluster": [str(ROOT / "tools" / "serve_cluster.py")],
        "setup": None,
        "test-pythons": None,
        "setup-pythons": None,
    }
    if not argv or argv[0] not in commands:
        print(f"usage: python3 tasks.py {{{'|'.join(commands)}}} [arguments...]", file=sys.stderr)
        return 2
    if not _supported_here():
        return 2
    if argv[0] == "test-pythons":
        return test_pythons(argv[1:])
    if argv[0] == "setup-pythons":
        results, _ = setup_pythons()
        return 1 if any(o.startswith(("FAILED", "MISSING")) for o in results.values()) else 0
    extras = {"build": BUILD_EXTRAS, "mutants": MUTANT_EXTRAS,
              "play": PLAY_EXTRAS}.get(argv[0], EXTRAS)
    python = ensure_environment(extras)
    command = commands[argv[0]]
    if command is None:
        return 0
    if argv[0] == "test":
        command = [*command, *spread_args()]  # the player's own arguments after, so theirs win
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
