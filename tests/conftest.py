"""Shared test set-up: headless SDL drivers for every test that touches pygame, the tests folder
on the import path for the small helper modules beside the tests, every user folder of every
platform redirected into the session's temporary folder, and a check at the end that the run
wrote nothing into the source tree."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.configuration import set_hypothesis_home_dir
from valkey_server import ValkeyServer, flushed, require_valkey, valkey_server

from sudden_death import language

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Property tests are seeded like everything else (the same examples on every run and machine),
# and keep no example database (their other files go to a temporary folder: see below). No
# deadline: none of them measures time (what they check is what happens, and the benchmarks
# measure how fast), and Hypothesis's 200 ms per example only failed them on a busy machine
# (issue 71: test_contract_fanout.py, two processes on Valkey, 465 ms). A test that means a
# time limit says so itself, with its reason.
settings.register_profile("sudden_death", derandomize=True, database=None, deadline=None)
settings.load_profile("sudden_death")

ROOT = Path(__file__).resolve().parent.parent
# What a run may leave in the source tree: interpreters' own files, the environments, pytest's
# cache, the Windows build's download cache (tools/windows_build.py, 40 MB, kept on purpose) and
# the mutation tool's copy (tools/mutants.py, which may be running meanwhile).
MAY_WRITE = {".git", ".venv", ".venvs", "__pycache__", ".pytest_cache", "sudden_death.egg-info"}
MAY_WRITE_UNDER = ("build/windows-cache", "build/mutants", "build/web-cache")
# pytest-xdist hands out whole test files in the order they are collected (tasks.spread_args).
# These take longest (the Windows build alone is about four minutes), so they start first and
# no worker is left running one of them alone at the end while the others wait.
LONGEST_FIRST = ("test_windows_build.py", "test_packaging.py", "test_reliability_fuzz.py",
                 "test_reliability_long.py", "test_audio_crowd.py", "test_screen_reader_linux.py")
# What behaves differently from one interpreter to the next at run time, not in what the code
# says: the event loop and sockets (the servers, the network, the stores and engines behind
# them), the collector, threads (audio, speech, the screen reader's link, the loop's threads)
# and files written while killed. A Python between the oldest and the newest runs these alone
# (tasks.other_python_markers).
RUNTIME_FILES = ("test_server", "test_serve_cluster", "test_net", "test_online",
                 "test_postgres", "test_valkey", "test_contract", "test_stopping",
                 "test_audio", "test_speech", "test_screen_reader", "test_reliability",
                 "test_ui_loop", "test_record")
# The page's tests in a real Chromium: marked `browser`, which the default Python alone runs
# (tasks.OTHER_PYTHON_MARKERS): the page is the same bytes whatever serves it.
BROWSER_FILES = ("test_web_browser", "test_browser_harness", "test_web_cluster")
_TREE = pytest.StashKey[dict[str, int]]()
_HYPOTHESIS_HOME = pytest.StashKey[Path]()


def source_tree_files() -> dict[str, int]:
    """Every file under the project root outside MAY_WRITE, with its modification time."""
    found: dict[str, int] = {}
    for folder, subfolders, files in os.walk(ROOT):
        here = Path(folder).relative_to(ROOT).as_posix()
        subfolders[:] = [name for name in subfolders if name not in MAY_WRITE
                         and not f"{here}/{name}".removeprefix("./").startswith(MAY_WRITE_UNDER)]
        for name in files:
            path = Path(folder, name)
            try:
                found[path.relative_to(ROOT).as_posix()] = path.stat().st_mtime_ns
            except OSError:
                continue
    return found


def pytest_configure(config: pytest.Config) -> None:
    """Hypothesis keeps its files in a temporary folder, not ./.hypothesis in the source tree
    (it writes some while the tests are collected, before any fixture runs)."""
    folder = Path(tempfile.mkdtemp(prefix="sudden-death-hypothesis-"))
    config.stash[_HYPOTHESIS_HOME] = folder
    set_hypothesis_home_dir(folder)


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_HYPOTHESIS_HOME, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """LONGEST_FIRST's files first; every file's tests stay together and in their order. The
    tests of RUNTIME_FILES are marked `runtime`, those of BROWSER_FILES `browser`."""
    rank = {name: index for index, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
    for item in items:
        if item.path.name.startswith(RUNTIME_FILES):
            item.add_marker(pytest.mark.runtime)
        if item.path.name.startswith(BROWSER_FILES):
            item.add_marker(pytest.mark.browser)


def pytest_sessionstart(session: pytest.Session) -> None:
    # Not in mutmut's copy (build/mutants/mutants/, `tasks.py mutants`), which is its to write.
    if "MUTANT_UNDER_TEST" not in os.environ and ROOT.name != "mutants":
        session.config.stash[_TREE] = source_tree_files()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if a test wrote into the source tree (tests write to temporary folders)."""
    before = session.config.stash.get(_TREE, None)
    if before is None:
        return
    after = source_tree_files()
    changed = sorted(name for name, mtime in after.items() if before.get(name) != mtime)
    if changed:
        shown = ", ".join(changed[:10]) + (" ..." if len(changed) > 10 else "")
        session.config.get_terminal_writer().line(
            f"The tests wrote into the source tree ({len(changed)} files): {shown}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED



@pytest.fixture(autouse=True, scope="session")
def _never_the_users_config_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A launch that forgets --config must still not read or write the player's files, on any
    platform: the home folder (macOS's ~/Library, the Linux fallbacks) and every per-user
    config, data, state, cache and log location point into the session's temporary folder."""
    folder = tmp_path_factory.mktemp("user-config")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(folder / "home"))
        patch.setenv("USERPROFILE", str(folder / "home"))
        for name in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME",
                     "APPDATA", "LOCALAPPDATA"):
            patch.setenv(name, str(folder / name.lower()))
        # Never start the machine's own speech-dispatcher (its client would, when asked for
        # a screen reader with none running); tests that want one start their own.
        patch.setenv("SPEECHD_CMD", str(folder / "no-speech-dispatcher-here"))
        patch.delenv("SPEECHD_ADDRESS", raising=False)
        patch.delenv("BRLAPI_HOST", raising=False)
        # The game follows the system's language: tests expect English unless they ask.
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            patch.delenv(name, raising=False)
        patch.setenv("LANG", "C.UTF-8")
        yield


@pytest.fixture(autouse=True)
def _english_unless_a_test_chooses() -> Iterator[None]:
    """Each test starts in English, and a language setting it changes ends with it."""
    with language.using(language.english()):
        yield


@pytest.fixture(scope="session")
def valkey_engine() -> Iterator[ValkeyServer]:
    """One private Valkey (tests/valkey_server.py) for this worker's tests that ask for it,
    started on first use: skipped without one, unless CI requires it."""
    require_valkey()
    with valkey_server() as server:
        yield server


@pytest.fixture
def valkey(valkey_engine: ValkeyServer) -> ValkeyServer:
    """The worker's Valkey, emptied for each test: the servers of one test count the
    limits of 127.0.0.1 there (new lines, wrong codes), and the next test's must start
    from none. A test that stops or kills it starts it again; one that needs an outage of
    its own starts its own."""
    valkey_engine.start()  # a test before may have left it stopped
    assert flushed(valkey_engine.port), "the tests' Valkey did not empty itself"
    return valkey_engine
