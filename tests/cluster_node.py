"""A cluster's server process as an operator runs one under systemd: on a port of its own that
it keeps across restarts (a game reconnects to the address it was given), its stderr kept in a
file (appended to at each restart), stopped by SIGTERM or SIGKILL. For the tests and the
benchmark that stop processes mid-game (tests/test_valkey_drain.py, benchmarks/node_loss.py).

`faults` reads that file for what a clean process never writes: a traceback, a task destroyed
while pending, a pool used after it closed; each named by the file and line.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 60
FAULTS = ("Traceback", "Task was destroyed", "is already closed", "after the server stopped")


class Node:
    """`python -m sudden_death.server --port PORT --name NAME ARGS...`, started at once."""

    def __init__(self, name: str, port: int, args: tuple[str, ...], log: Path) -> None:
        self.name, self.port, self.args, self.log = name, port, args, log
        self.proc: subprocess.Popen[str] | None = None
        self._err: IO[str] | None = None
        self.url = f"ws://127.0.0.1:{port}"
        self.start()

    def start(self) -> None:
        """Started (again), once it says it listens."""
        self._err = self.log.open("a", encoding="utf-8")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sudden_death.server", "--port", str(self.port),
             "--name", self.name, *self.args], cwd=ROOT, stdout=subprocess.PIPE,
            stderr=self._err, text=True)
        assert self.proc.stdout is not None
        deadline = time.monotonic() + START_TIMEOUT_S
        line = self.proc.stdout.readline()
        if not line or time.monotonic() > deadline:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"{self.name} did not start: see {self.log}")
        assert json.loads(line)["listening"] == self.url, line

    def terminate(self, timeout: float = 30) -> tuple[int, float]:
        """SIGTERM: its exit code and the seconds it took to exit."""
        assert self.proc is not None
        began = time.perf_counter()
        self.proc.terminate()
        code = self._reaped(timeout)
        return code, time.perf_counter() - began

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self._reaped(30)

    def _reaped(self, timeout: float) -> int:
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        if self._err is not None:
            self._err.close()
        return code

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def faults(self) -> list[str]:
        """Each line of its log that a clean process never writes, as FILE:LINE: text."""
        found = []
        for number, line in enumerate(self.log.read_text(encoding="utf-8").splitlines(), 1):
            if any(fault in line for fault in FAULTS):
                found.append(f"{self.log}:{number}: {line.strip()}")
        return found

    def __enter__(self) -> Node:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.alive():
            self.kill()
