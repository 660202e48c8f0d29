"""A real X server (Xvfb) for the few tests that must see what SDL's dummy driver hides: window
creation, resizing and the events a real video driver sends. The machines that run the tests have
no display, so these tests start a private, virtual one; `ensure_xvfb` may install Xvfb with apt,
but only when SUDDEN_DEATH_REQUIRE_XVFB asks for it, so a developer's machine is never changed
behind their back."""

from __future__ import annotations

import os
import select
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from apt_install import ensure_packages

REQUIRE_ENV = "SUDDEN_DEATH_REQUIRE_XVFB"
READY_TIMEOUT = 15.0
STOP_TIMEOUT = 5.0


def _find_xvfb() -> str | None:
    found = shutil.which("Xvfb")
    if found:
        return found
    # A test runner's PATH can be trimmed; apt always puts the binary here.
    fallback = Path("/usr/bin/Xvfb")
    return str(fallback) if os.access(fallback, os.X_OK) else None


def ensure_xvfb() -> str | None:
    """The path of the Xvfb binary, installing it with apt first when SUDDEN_DEATH_REQUIRE_XVFB
    is set (and not "0") and we run as root; None when Xvfb is still missing."""
    ensure_packages(("xvfb",), REQUIRE_ENV, lambda: _find_xvfb() is not None)
    return _find_xvfb()


def _stderr_text(log: IO[bytes]) -> str:
    log.flush()
    log.seek(0)
    return log.read().decode(errors="replace").strip() or "(no output)"


def _read_display(read_fd: int, server: subprocess.Popen[bytes], deadline: float) -> str | None:
    """The display number Xvfb writes to the -displayfd pipe once it accepts connections, or
    None if it exits or the deadline passes first."""
    received = b""
    while b"\n" not in received:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return None
        ready, _, _ = select.select([read_fd], [], [], min(remaining, 0.5))
        if not ready:
            if server.poll() is not None:
                return None
            continue
        chunk = os.read(read_fd, 64)
        if not chunk:  # Xvfb exited: the write end is closed.
            return None
        received += chunk
    number = received.split(b"\n", 1)[0].strip()
    return number.decode() if number.isdigit() else None


def _stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is not None:
        return
    server.terminate()
    try:
        server.wait(timeout=STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@contextmanager
def xvfb(width: int = 1280, height: int = 1024, depth: int = 24) -> Iterator[str]:
    """Start a private Xvfb on a display number it picks itself (so parallel runs never
    collide), yield its DISPLAY string such as ":99", and stop it on the way out."""
    binary = ensure_xvfb()
    if binary is None:
        raise RuntimeError(
            f"Xvfb is not installed; install the 'xvfb' package or set {REQUIRE_ENV}=1 "
            "(as root, with apt-get) to install it automatically"
        )
    read_fd, write_fd = os.pipe()
    with tempfile.TemporaryFile() as log:
        try:
            server = subprocess.Popen(
                [
                    binary,
                    "-displayfd",
                    str(write_fd),
                    "-screen",
                    "0",
                    f"{width}x{height}x{depth}",
                    "-nolisten",
                    "tcp",
                    "-noreset",
                ],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                pass_fds=(write_fd,),
                start_new_session=True,
            )
        finally:
            # Only Xvfb holds the write end now, so its exit shows up here as end of file.
            os.close(write_fd)
        try:
            deadline = time.monotonic() + READY_TIMEOUT
            try:
                number = _read_display(read_fd, server, deadline)
            finally:
                os.close(read_fd)
            if number is None:
                if time.monotonic() >= deadline:
                    state = f"was not ready within {READY_TIMEOUT:g} s"
                else:
                    # End of file on the pipe can come a moment before the exit status.
                    try:
                        state = f"exited with status {server.wait(timeout=1.0)}"
                    except subprocess.TimeoutExpired:
                        state = "closed its display pipe without a display number"
                _stop(server)
                raise RuntimeError(f"Xvfb {state}; its output:\n{_stderr_text(log)}")
            yield f":{number}"
        finally:
            _stop(server)
