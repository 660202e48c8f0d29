"""The automation transcript: one JSON object per line for every spoken line and cue.

Tests, benchmarks and accessibility checks read it, so its shape is a contract (see SPEC.md).
Each line is flushed at once so a reader on a pipe sees it while the game waits.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import IO, Any


class Transcript:
    """Writes `{"t", "kind", ...}` lines; `t` is seconds since `start` (the launch)."""

    def __init__(self, stream: IO[str] | None, start: float, owns: bool = False) -> None:
        self._stream = stream
        self._start = start
        self._owns = owns
        # Cues that open a spoken line are played (and recorded) from the speech worker.
        self._lock = threading.Lock()

    @classmethod
    def open(cls, target: str | None, start: float) -> Transcript:
        """`target` is a path, "-" for standard output, or None for no transcript."""
        if target is None:
            return cls(None, start)
        if target == "-":
            return cls(sys.stdout, start)
        return cls(open(target, "w", encoding="utf-8"), start, owns=True)

    def _write(self, record: dict[str, Any]) -> None:
        with self._lock:
            if self._stream is None:
                return
            self._stream.write(json.dumps(record) + "\n")
            self._stream.flush()

    def _now(self) -> float:
        return round(time.perf_counter() - self._start, 4)

    def speech(self, text: str) -> None:
        self._write({"t": self._now(), "kind": "speech", "text": text})

    def cue(self, name: str) -> None:
        self._write({"t": self._now(), "kind": "cue", "name": name})

    def waiting(self) -> None:
        self._write({"kind": "waiting"})

    def close(self) -> None:
        with self._lock:
            if self._stream is not None and self._owns:
                self._stream.close()
            self._stream = None
