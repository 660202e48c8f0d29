"""Mutation testing of the rules and of the words that state numbers (`python3 tasks.py mutants`).

mutmut (configured in pyproject.toml's [tool.mutmut]) changes the code one small edit at a time
(a `<=` into a `<`, a 17 into an 18, a word into another) and runs the tests that reach the
changed function; a mutant the tests still pass "survived". This runs it in a copy of the
project under build/mutants/ (mutmut writes its mutants/ folder there, never into the source
tree), then compares the survivors with the equivalent mutants listed, each with its reason, in
docs/testing.md. Exit 0 when every survivor is listed; else the unlisted ones are printed
(`mutmut show NAME` in build/mutants/ prints the edit) and the exit is 1.

    python3 tasks.py mutants [--keep] [--narrow]

--keep reuses build/mutants/ and the results already there (mutmut resumes); --narrow runs the
mutants still unchecked against the engine's own tests only (see docs/testing.md: the mutants
of functions every game passes through take minutes each under the whole selection).

A tool, not a CI gate: the whole set takes over an hour on two cores.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "build" / "mutants"
DOC = ROOT / "docs" / "testing.md"
# docs/testing.md lists an equivalent mutant as "- `name`: why it cannot change behaviour".
LISTED = re.compile(r"^- `(?P<name>[\w.]+__mutmut_\d+)`: (?P<why>.+)$", re.MULTILINE)
RESULT = re.compile(r"^\s*(?P<name>[\w.]+__mutmut_\d+): (?P<status>.+?)\s*$", re.MULTILINE)


def copy_project(target: Path) -> None:
    """The files git knows (and new ones it does not ignore), as the clean clone CI tests."""
    if target.exists():
        shutil.rmtree(target)
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    for name in listed.stdout.splitlines():
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def equivalent_mutants(doc: Path = DOC) -> dict[str, str]:
    """The mutants docs/testing.md explains as equivalent: name -> reason."""
    try:
        text = doc.read_text(encoding="utf-8")
    except OSError:
        return {}
    return {match["name"]: match["why"] for match in LISTED.finditer(text)}


def statuses(results_text: str) -> dict[str, str]:
    """`mutmut results --all true` output, as mutant name -> status ('killed', 'survived'...)."""
    return {match["name"]: match["status"] for match in RESULT.finditer(results_text)}


ENGINE_TESTS = ["tests/test_engine_actions.py", "tests/test_engine_data.py",
                "tests/test_engine_games.py", "tests/test_engine_input.py",
                "tests/test_engine_kicks.py", "tests/test_engine_rules.py"]
SELECTION = re.compile(r"^pytest_add_cli_args_test_selection = \[.*?^\]", re.MULTILINE | re.DOTALL)


def narrowed(pyproject_text: str) -> str:
    """pyproject.toml with mutmut's test selection cut to the engine's own tests."""
    listed = ", ".join(f'"{name}"' for name in ENGINE_TESTS)
    text, count = SELECTION.subn(f"pytest_add_cli_args_test_selection = [{listed}]",
                                 pyproject_text)
    if count != 1:
        raise ValueError("pyproject.toml has no [tool.mutmut] test selection to narrow")
    return text


# A mutant the tests stopped: failed, hung past mutmut's timeout (a mutated loop), or crashed.
KILLED = {"killed", "timeout", "segfault"}


def survivors(found: dict[str, str]) -> set[str]:
    """Every mutant not killed: passed ('survived'), reached by no test ('no tests'), or with
    an odd result ('suspicious', 'not checked'): each needs a test or a reason."""
    return {name for name, status in found.items() if status not in KILLED}


def report(found: dict[str, str], equivalent: dict[str, str]) -> tuple[list[str], list[str]]:
    """The survivors nobody explained, and the listed names that no longer survive (stale)."""
    alive = survivors(found)
    unexplained = sorted(alive - equivalent.keys())
    stale = sorted(name for name in equivalent if name not in alive)
    return unexplained, stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true",
                        help="reuse build/mutants/ instead of a fresh copy (mutmut resumes)")
    parser.add_argument("--narrow", action="store_true",
                        help="run the unchecked mutants against the engine's tests only")
    parser.add_argument("--max-children", default="2", help="parallel mutant runs (cores)")
    args = parser.parse_args(argv)
    mutmut = Path(sys.executable).parent / "mutmut"
    if not (args.keep and WORK.exists()):
        copy_project(WORK)
    if args.narrow:
        config = WORK / "pyproject.toml"
        config.write_text(narrowed(config.read_text(encoding="utf-8")), encoding="utf-8")
        (WORK / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)  # collect them again
    run = subprocess.run([str(mutmut), "run", "--max-children", args.max_children], cwd=WORK)
    if run.returncode not in (0, 1):  # 1: some mutants survived
        print(f"mutmut run failed (exit {run.returncode})", file=sys.stderr)
        return 2
    listed = subprocess.run([str(mutmut), "results", "--all", "true"], cwd=WORK,
                            capture_output=True, text=True, check=True)
    found = statuses(listed.stdout)
    equivalent = equivalent_mutants()
    unexplained, stale = report(found, equivalent)
    counts = Counter(found.values())
    alive = len(survivors(found))
    print(f"Mutants generated: {len(found)}; killed: {len(found) - alive} ("
          + ", ".join(f"{status} {counts[status]}" for status in sorted(KILLED) if counts[status])
          + f"); not killed: {alive}, of which {alive - len(unexplained)} are listed as "
          f"equivalent in docs/testing.md and {len(unexplained)} are not.")
    for name in unexplained:
        print(f"  {found[name]}, not explained: {name}  (cd build/mutants && mutmut show {name})")
    for name in stale:
        print(f"  listed as equivalent but no longer surviving: {name} ({found.get(name)})")
    return 1 if unexplained or stale else 0


if __name__ == "__main__":
    sys.exit(main())
