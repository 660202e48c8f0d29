"""The automation transcript: one JSON object per line for every spoken line and cue.

Tests, benchmarks and accessibility checks read it, so its shape is a contract (see SPEC.md).
Each line is flushed at once so a reader on a pipe sees it while the game waits.
"""

from __future__ import annotations

import contextlib
import json
import os
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
        self.failed: str | None = None  # why writing stopped (a closed pipe, a full disk)

    @classmethod
    def open(cls, target: str | None, start: float) -> Transcript:
        """`target` is a path, "-" for standard output, or None for no transcript. Raises
        OSError with a reason a person can act on when the file cannot be written."""
        if target is None:
            return cls(None, start)
        if target == "-":
            return cls(sys.stdout, start)
        if not target.strip():
            raise OSError("the transcript needs a file name, or - for standard output")
        try:
            return cls(open(target, "w", encoding="utf-8"), start, owns=True)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            raise OSError(f"cannot write the transcript to {target}: {reason}") from None

    def _write(self, record: dict[str, Any]) -> None:
        with self._lock:
            if self._stream is None:
                return
            try:
                self._stream.write(json.dumps(record) + "\n")
                self._stream.flush()
            except (OSError, ValueError) as error:  # a closed pipe, a full disk, a closed file
                self._give_up(error)

    def _give_up(self, error: BaseException) -> None:
        """Stop writing, say why once on stderr; the loop sees `failed` and ends the game
        (whoever reads the transcript can no longer follow it)."""
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        self.failed = reason
        stream, self._stream = self._stream, None
        with contextlib.suppress(OSError, ValueError):
            print(f"sudden_death: the transcript could not be written ({reason}); "
                  "it stops here and the game ends.", file=sys.stderr, flush=True)
        if stream is not None and stream is sys.stdout:
            # Python flushes stdout again at exit and would complain about the pipe there.
            with contextlib.suppress(OSError, ValueError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, stream.fileno())
                os.close(devnull)
        elif stream is not None and self._owns:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _now(self) -> float:
        return round(time.perf_counter() - self._start, 4)

    def speech(self, text: str) -> None:
        self._write({"t": self._now(), "kind": "speech", "text": text})

    def cue(self, name: str) -> None:
        self._write({"t": self._now(), "kind": "cue", "name": name})

    def record(self, kind: str, **fields: object) -> None:
        """Anything else a script may follow: a table's code, the player's turn at a table."""
        self._write({"t": self._now(), "kind": kind, **fields})

    def waiting(self) -> None:
        self._write({"kind": "waiting"})

    def error(self, text: str) -> None:
        """A key-script line that could not be used (the game goes on)."""
        self._write({"t": self._now(), "kind": "error", "text": text})

    def close(self) -> None:
        with self._lock:
            if self._stream is not None and self._owns:
                try:
                    self._stream.close()  # flushes: a full disk shows here too
                except (OSError, ValueError) as error:
                    self._stream = None
                    self._give_up(error)
            self._stream = None
