"""The benchmarks import each other without a circle (issue 72): a shared measure lives in
benchmarks/measures.py, and a benchmark that runs another imports it one way only."""

from __future__ import annotations

import ast
from pathlib import Path

from test_structure import cycles

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def graph() -> dict[str, set[str]]:
    """Each benchmark module and the benchmark modules it imports (at the top or inside a
    function: a late import still ties the two together)."""
    names = {path.stem for path in BENCHMARKS.glob("*.py")}
    found: dict[str, set[str]] = {}
    for path in sorted(BENCHMARKS.glob("*.py")):
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                targets.add(node.module.split(".")[0])
        found[path.stem] = (targets & names) - {path.stem}
    return found


def test_the_benchmarks_import_each_other_without_a_circle() -> None:
    edges = graph()
    assert "measures" in edges["server_load"] and "cluster_load" in edges["server_load"]
    assert not cycles(edges), cycles(edges)


def test_the_check_sees_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert not cycles({"a": {"b"}, "b": set()})
