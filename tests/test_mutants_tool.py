"""tools/mutants.py, the mutation-testing report (`python3 tasks.py mutants`), without running
mutmut: it reads mutmut's result lines right, counts a mutant as killed only when the tests
stopped it, and every equivalent mutant docs/testing.md lists names code that still exists."""

from __future__ import annotations

import importlib
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from scripts import load_script

if sys.version_info >= (3, 11):
    import tomllib
else:  # 3.10: pip's own copy of the same parser
    from pip._vendor import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def load_tool() -> Any:
    return load_script("tools/mutants.py", "mutants_tool")


# As `mutmut results --all true` prints them (mutmut 3.8): methods carry their class between
# two 'ǁ' marks.
RESULTS = """\
    sudden_death.engine.kicks.x_field_goal_needs__mutmut_1: killed
    sudden_death.engine.kicks.x_field_goal_needs__mutmut_2: survived
    sudden_death.engine.game.xǁGameǁ_play__mutmut_7: no tests
    sudden_death.engine.game.xǁGameǁ_play__mutmut_8: timeout
    sudden_death.ui.words.plays.x__rolls__mutmut_3: not checked
    sudden_death.ui.words.plays.x__rolls__mutmut_4: segfault
"""


def test_result_lines_are_read_with_their_status() -> None:
    found = load_tool().statuses(RESULTS)
    assert found == {
        "sudden_death.engine.kicks.x_field_goal_needs__mutmut_1": "killed",
        "sudden_death.engine.kicks.x_field_goal_needs__mutmut_2": "survived",
        "sudden_death.engine.game.xǁGameǁ_play__mutmut_7": "no tests",
        "sudden_death.engine.game.xǁGameǁ_play__mutmut_8": "timeout",
        "sudden_death.ui.words.plays.x__rolls__mutmut_3": "not checked",
        "sudden_death.ui.words.plays.x__rolls__mutmut_4": "segfault",
    }


def test_only_a_mutant_the_tests_stopped_counts_as_killed() -> None:
    tool = load_tool()
    # Survived, reached by no test, or never run: each still needs a test or a reason.
    assert tool.survivors(tool.statuses(RESULTS)) == {
        "sudden_death.engine.kicks.x_field_goal_needs__mutmut_2",
        "sudden_death.engine.game.xǁGameǁ_play__mutmut_7",
        "sudden_death.ui.words.plays.x__rolls__mutmut_3",
    }


def test_the_report_names_unexplained_survivors_and_stale_reasons(tmp_path: Path) -> None:
    tool = load_tool()
    doc = tmp_path / "testing.md"
    doc.write_text(
        "Equivalent:\n\n"
        "- `sudden_death.engine.game.xǁGameǁ_play__mutmut_7`: only a log line changes\n"
        "- `sudden_death.engine.kicks.x_field_goal_needs__mutmut_1`: was equivalent once\n",
        encoding="utf-8")
    equivalent = tool.equivalent_mutants(doc)
    assert equivalent["sudden_death.engine.game.xǁGameǁ_play__mutmut_7"] == \
        "only a log line changes"
    unexplained, stale = tool.report(tool.statuses(RESULTS), equivalent)
    assert unexplained == ["sudden_death.engine.kicks.x_field_goal_needs__mutmut_2",
                           "sudden_death.ui.words.plays.x__rolls__mutmut_3"]
    assert stale == ["sudden_death.engine.kicks.x_field_goal_needs__mutmut_1"]  # killed now


NAME = re.compile(r"^(?P<module>[\w.]+)\.x(?:ǁ(?P<cls>\w+)ǁ|_)(?P<function>\w+)__mutmut_\d+$")


def test_every_listed_equivalent_mutant_names_code_that_exists() -> None:
    listed = load_tool().equivalent_mutants()
    for name in listed:
        match = NAME.match(name)
        assert match, f"not a mutmut mutant name: {name}"
        module = importlib.import_module(match["module"])
        owner = getattr(module, match["cls"]) if match["cls"] else module
        assert hasattr(owner, match["function"]), f"{name}: no such function any more"
        assert len(listed[name].split()) >= 3, f"{name}: say why it is equivalent"


def test_the_configured_modules_and_tests_exist() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    mutmut = config["tool"]["mutmut"]
    for path in [*mutmut["only_mutate"], *mutmut["pytest_add_cli_args_test_selection"]]:
        assert (ROOT / path).is_file(), path
    for path in mutmut["also_copy"]:
        assert (ROOT / path).exists(), path


@pytest.mark.parametrize("module", ["field", "kicks", "resolve", "game", "actions"])
def test_every_rule_module_is_mutated(module: str) -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert f"sudden_death/engine/{module}.py" in config["tool"]["mutmut"]["only_mutate"]


def test_narrowing_keeps_only_the_engine_tests_in_the_selection() -> None:
    tool = load_tool()
    text = tool.narrowed((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    selection = tomllib.loads(text)["tool"]["mutmut"]["pytest_add_cli_args_test_selection"]
    assert selection == tool.ENGINE_TESTS
    assert all((ROOT / name).is_file() for name in selection)
    with pytest.raises(ValueError):
        tool.narrowed("[tool.mutmut]\n")
