"""Shared by the audio tests: waiting, briefly and boundedly, for the speech worker."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], object], timeout: float = 5.0) -> bool:
    """Poll `condition` every 2 ms; True once it holds, False if `timeout` passes first."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True
