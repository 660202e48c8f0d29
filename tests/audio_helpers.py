"""Shared by the audio tests: waiting, briefly and boundedly, for the speech worker."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from array import array
from collections.abc import Callable
from pathlib import Path


def wait_for(condition: Callable[[], object], timeout: float = 5.0) -> bool:
    """Poll `condition` every 2 ms; True once it holds, False if `timeout` passes first."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


ROOT = Path(__file__).resolve().parent.parent


def play_on_disk(tmp_path: Path, child: str, *args: str, name: str = "played.raw",
                 timeout: float = 60) -> tuple[dict, array]:
    """Run `child` (with `args`) under SDL's disk driver; its JSON report (last stdout line)
    and every sample the device played. A subprocess: one process gets one mixer and one
    speech engine."""
    out = tmp_path / name
    env = {**os.environ, "SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": str(out),
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    result = subprocess.run([sys.executable, "-c", child, *args], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1]), array("h", out.read_bytes())
