"""A table server in a process of its own, as an operator runs it (`python -m
sudden_death.server --port 0 ...`), for the tests that start, stop and kill real ones; or
with limits of a test's choosing (`limits=`, tests/limited_server.py), where a test must send
more than an operator's server allows one client."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from sudden_death.server.lines.limits import Limits

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 60


class Running:
    """A server process, stopped (SIGKILL if need be) when the block ends."""

    def __init__(self, *args: str, env: dict[str, str] | None = None,
                 limits: Limits | None = None, wait: bool = True) -> None:
        """`wait`: until it listens (else call `listening` later: a test that holds its
        start, and acts meanwhile)."""
        launcher = ["-m", "sudden_death.server"] if limits is None else [
            str(Path(__file__).with_name("limited_server.py")), json.dumps(asdict(limits))]
        self.proc = subprocess.Popen(
            [sys.executable, *launcher, "--port", "0", *args], cwd=ROOT,
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.url = ""
        self.said: dict[str, str] = {}  # its first line: where it listens
        if wait:
            self.listening()

    def listening(self) -> str:
        """Its URL, once it says it listens."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            _out, err = self.proc.communicate(timeout=START_TIMEOUT_S)
            raise AssertionError(f"no listening line; exit {self.proc.returncode}: {err}")
        self.said = json.loads(line)
        self.url = self.said["listening"]
        return self.url

    def __enter__(self) -> Running:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate(timeout=20)

    def stopped(self) -> str:
        """SIGTERM: a clean stop (exit 0); its stderr."""
        self.proc.terminate()
        _out, err = self.proc.communicate(timeout=20)
        assert self.proc.returncode == 0, err
        return err

    def killed(self) -> None:
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.communicate(timeout=20)
        assert self.proc.returncode == -signal.SIGKILL
