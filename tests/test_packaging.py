"""The packaged executable builds from a clean copy and plays a whole game offline.

Runs tools/build_check.py (under a minute here: a PyInstaller build and one scripted game).
PyInstaller is part of the `test` extra in pyproject.toml, so `python3 tasks.py test` (and CI)
installs it; the test is skipped only if it is truly missing from the environment running it.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(importlib.util.find_spec("PyInstaller") is None,
                    reason="PyInstaller is not installed (pip install -e .[build])")
def test_packaged_app_plays_a_whole_game_with_bundled_espeak() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_check.py"), "--seed", "3"],
        capture_output=True, text=True, timeout=1200,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "build check: OK" in result.stdout
