"""The package type-checks with mypy (configuration in pyproject.toml: the rules engine under
mypy's --strict flags, the rest with every function's annotations checked). Run by every CI
interpreter, so a type error fails the build like a failing test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_reports_nothing(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache")],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found")
