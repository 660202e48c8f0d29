"""tasks.py: the promised Pythons are exactly the ones tested, and a missing one fails loudly.

`python3 tasks.py test-pythons` (run by .ci/run) runs the whole suite under each; these tests
check the parts that decide what runs, without creating environments.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def tasks() -> ModuleType:
    return load_script("tasks.py", "tasks_under_test")


def test_pyproject_promises_every_python_from_the_oldest_tested(tasks: ModuleType) -> None:
    from packaging.specifiers import SpecifierSet

    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("requires-python"))
    allowed = SpecifierSet(line.split("=", 1)[1].strip().strip('"'))
    candidates = [f"3.{minor}" for minor in range(6, 20)]
    # No upper cap: a newer Python than those tested may install it (and is told so).
    assert [v for v in candidates if f"{v}.0" in allowed] == \
        [v for v in candidates if int(v.split(".")[1]) >= 10]
    assert tasks.PYTHONS[0] == "3.10"
    for version in tasks.PYTHONS:
        assert f"Programming Language :: Python :: {version}" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "Python 3.10, 3.11, 3.12 or 3.13" in readme
    assert "{}.{}".format(*sys.version_info[:2]) in tasks.PYTHONS  # this run is one of them


def test_the_running_interpreter_is_found_by_its_version(tasks: ModuleType) -> None:
    version = "{}.{}".format(*sys.version_info[:2])
    found = tasks.find_python(version)
    assert found is not None and tasks._version(found) == version
    assert tasks.find_python("2.9") is None


def test_a_missing_python_fails_the_run_and_is_named(
        tasks: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    current = "{}.{}".format(*sys.version_info[:2])
    monkeypatch.setattr(tasks, "PYTHONS", (current, "3.99"))

    def no_environment(*args: object) -> None:
        raise AssertionError("nothing may be installed for a missing Python")

    monkeypatch.setattr(tasks, "ensure_environment", no_environment)
    assert tasks.test_pythons([]) == 1
    out = capsys.readouterr().out
    assert "3.99: MISSING" in out
    assert f"{current}: the default interpreter" in out


def test_a_newer_python_is_told_what_is_tested_and_goes_on(
        tasks: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tasks, "PYTHONS", ("3.8", "3.9"))  # this Python is newer than both
    ran: list[str] = []
    monkeypatch.setattr(tasks, "ensure_environment", lambda extras: ran.append(extras) or
                        Path(sys.executable))
    monkeypatch.setattr(tasks.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(
        a, 0))
    assert tasks.main(["play"]) == 0
    err = capsys.readouterr().err
    current = "{}.{}".format(*sys.version_info[:2])
    assert err.strip() == f"Sudden Death is tested on Python 3.8 to 3.9; going on with {current}."
    assert ran == [tasks.PLAY_EXTRAS]  # play installs the game alone


def test_an_older_python_is_told_which_to_use(
        tasks: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tasks, "PYTHONS", ("3.98", "3.99"))
    assert tasks.main(["play"]) == 2
    err = capsys.readouterr().err
    assert "needs Python 3.98 or newer" in err and "python3.99 tasks.py play" in err


def test_play_installs_the_game_alone_and_test_adds_the_tools(tasks: ModuleType,
                                                             tmp_path: Path) -> None:
    stamp = tmp_path / "stamp"
    stamp.write_text(tasks._wanted_stamp(tasks.PLAY_EXTRAS, "3.11"))
    assert tasks._stamp_covers(stamp, tasks.PLAY_EXTRAS, "3.11")
    assert not tasks._stamp_covers(stamp, tasks.EXTRAS, "3.11")  # test needs its tools
    stamp.write_text(tasks._wanted_stamp(tasks.EXTRAS, "3.11"))
    assert tasks._stamp_covers(stamp, tasks.PLAY_EXTRAS, "3.11")  # play after test: no install


def test_the_summary_names_each_skip_reason_from_a_real_run(
        tasks: ModuleType, tmp_path: Path) -> None:
    (tmp_path / "test_two_skips.py").write_text(
        "import pytest\n"
        "def test_runs():\n    assert True\n"
        "@pytest.mark.parametrize('n', [1, 2])\n"
        "def test_braille(n):\n    pytest.skip('python3-brlapi is built for Debian Python')\n"
        "def test_other():\n    pytest.skip('no display')\n")
    report = tmp_path / "junit.xml"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    f"--junit-xml={report}", "test_two_skips.py"],
                   cwd=tmp_path, capture_output=True, timeout=120, check=True)
    skips = tasks.skip_reasons(report)
    assert skips == {"python3-brlapi is built for Debian Python": 2, "no display": 1}
    assert tasks.skip_words(skips) == (
        "; 3 skipped: no display (1); python3-brlapi is built for Debian Python (2)")
    assert tasks.skip_words(tasks.skip_reasons(tmp_path / "missing.xml")) == ""


def test_the_other_pythons_suites_run_one_after_another_each_spread_over_the_processors(
        tasks: ModuleType, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capfd: pytest.CaptureFixture[str]) -> None:
    """Two stand-in Pythons (this one, twice) each run two test files, each on its own
    pytest-xdist worker (three of them on two processors); the summary lists every version in
    order, with its time."""
    current = "{}.{}".format(*sys.version_info[:2])
    monkeypatch.setattr(tasks, "PYTHONS", ("3.97", current, "3.98"))
    monkeypatch.setattr(tasks, "find_python", lambda version: sys.executable)
    monkeypatch.setattr(tasks, "ensure_environment", lambda *args: Path(sys.executable))
    log = tmp_path / "workers.log"
    for name in ("first", "second"):
        (tmp_path / f"test_{name}.py").write_text(
            "import os, pathlib\n"
            f"def test_{name}():\n"
            f"    with pathlib.Path({str(log)!r}).open('a') as out:\n"
            f"        out.write('{name} ' + os.environ['PYTEST_XDIST_WORKER'] + '\\n')\n")
    selection = ["-p", "no:cacheprovider", f"--rootdir={tmp_path}",
                 str(tmp_path / "test_first.py"), str(tmp_path / "test_second.py")]
    assert tasks.test_pythons(selection, processors=2) == 0
    out = capfd.readouterr().out
    assert out.index("== Python 3.97: the suite starts") < out.index(
        "== Python 3.98: the suite starts")
    assert f'-m "{tasks.OTHER_PYTHON_MARKERS}"' in out  # the oldest and the newest: all
    assert out.count("2 passed") == 2
    runs = [line.split() for line in log.read_text().splitlines()]
    for suite in (runs[:2], runs[2:]):  # each suite: both files, each on its own worker
        assert sorted(name for name, _ in suite) == ["first", "second"]
        workers = [worker for _, worker in suite]
        assert len(set(workers)) == 2 and set(workers) <= {"gw0", "gw1", "gw2"}
    summary = out[out.index("Python versions:"):].splitlines()[1:]
    assert [line.split(":")[0].strip() for line in summary] == ["3.97", current, "3.98"]
    assert summary[0].startswith("  3.97: passed in ") and summary[2].startswith("  3.98: passed")


def test_a_python_between_the_oldest_and_the_newest_runs_the_runtime_tests_only(
        tasks: ModuleType) -> None:
    """3.12 runs the tests marked `runtime` (conftest.RUNTIME_FILES): a server test is one,
    the rules' are not; 3.10 and 3.13 run every test but the builds, soaks, browser tests and
    benchmarks' short runs."""
    assert tasks.other_python_markers(tasks.PYTHONS[0]) == tasks.OTHER_PYTHON_MARKERS
    assert tasks.other_python_markers(tasks.PYTHONS[-1]) == tasks.OTHER_PYTHON_MARKERS
    between = tasks.other_python_markers("3.12")
    assert between == tasks.OTHER_PYTHON_MARKERS + " and runtime"
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-m", between, "tests/test_stopping.py", "tests/test_engine_kicks.py"],
        cwd=ROOT, capture_output=True, text=True, timeout=300).stdout
    files = {line.split("::")[0] for line in listed.splitlines() if "::" in line}
    assert files == {"tests/test_stopping.py"}, listed


def test_the_other_pythons_leave_the_browser_and_the_benchmarks_runs_to_the_default(
        tasks: ModuleType) -> None:
    """The page in Chromium (conftest.BROWSER_FILES) and a benchmark run short (`bench`) are
    the default Python's; the relay's own tests beside its benchmark's still run elsewhere."""
    import conftest

    assert all((ROOT / "tests" / f"{name}.py").is_file() for name in conftest.BROWSER_FILES)
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-m", tasks.OTHER_PYTHON_MARKERS, "tests/test_valkey_relay.py",
         *(f"tests/{name}.py" for name in conftest.BROWSER_FILES)],
        cwd=ROOT, capture_output=True, text=True, timeout=300).stdout
    tests = [line for line in listed.splitlines() if "::" in line]
    assert tests and {line.split("::")[0] for line in tests} == {"tests/test_valkey_relay.py"}
    assert not [line for line in tests if "benchmark" in line], tests


def test_the_suite_is_spread_over_the_processors_a_file_to_a_worker(tasks: ModuleType) -> None:
    assert tasks.spread_args(2) == ["-n", "2", "--dist", "loadfile"]
    assert tasks.spread_args(64) == ["-n", str(tasks.MAX_WORKERS), "--dist", "loadfile"]
    assert tasks.spread_args(1) == []  # one processor: no workers to start


def test_the_longest_files_are_handed_out_first() -> None:
    """conftest.LONGEST_FIRST names files that exist (a renamed one would quietly go back to
    the end of the run), and they are collected first, in that order."""
    import conftest

    assert all((ROOT / "tests" / name).is_file() for name in conftest.LONGEST_FIRST)
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "tests/test_tasks.py", *(f"tests/{name}" for name in conftest.LONGEST_FIRST[::-1])],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=True).stdout
    files = [line.split("::")[0].removeprefix("tests/") for line in listed.splitlines()
             if "::" in line]
    in_order = list(dict.fromkeys(files))
    assert in_order == [*conftest.LONGEST_FIRST, "test_tasks.py"]


def test_setup_pythons_sets_up_each_other_python_in_turn_and_names_a_missing_one(
        tasks: ModuleType, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    current = "{}.{}".format(*sys.version_info[:2])
    monkeypatch.setattr(tasks, "PYTHONS", ("3.97", current, "3.98"))
    monkeypatch.setattr(tasks, "find_python", lambda version: f"/usr/bin/python{version}")
    made: list[tuple[str, Path, str | None]] = []
    monkeypatch.setattr(tasks, "ensure_environment", lambda extras, folder, base: made.append(
        (extras, folder, base)) or folder / "bin" / "python")
    assert tasks.main(["setup-pythons"]) == 0
    assert made == [(tasks.EXTRAS, tasks.VENVS / "3.97", "/usr/bin/python3.97"),
                    (tasks.EXTRAS, tasks.VENVS / "3.98", "/usr/bin/python3.98")]
    monkeypatch.setattr(tasks, "find_python",
                        lambda version: None if version == "3.98" else f"/usr/bin/python{version}")
    assert tasks.main(["setup-pythons"]) == 1
    assert "setting up .venvs/3.97" in capsys.readouterr().out
    results, ready = tasks.setup_pythons()
    assert results["3.98"].startswith("MISSING") and [v for v, _ in ready] == ["3.97"]
