"""The rules engine never imports audio or window code, and importing it has no side effects."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "sudden_death" / "engine"
FORBIDDEN = ("pygame", "pyttsx3", "espeakng_loader", "sudden_death.audio", "sudden_death.ui")


def test_engine_source_imports_nothing_forbidden():
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"


def test_importing_the_engine_and_simulator_loads_no_audio_or_window_module():
    code = (
        "import sys, threading\n"
        "import sudden_death.engine, sudden_death.simulate.games, sudden_death.engine.stats\n"
        f"bad = [m for m in sys.modules if m.startswith({FORBIDDEN!r})]\n"
        "assert not bad, bad\n"
        "assert threading.active_count() == 1\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
