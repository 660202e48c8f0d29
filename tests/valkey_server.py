"""A real, private Valkey (or Redis, the same protocol) for the tests of the table server's
cluster pieces (issue 62: fan-out, routing, presence). A mock would not show what matters there:
messages crossing two connections in order, a subscription lost with the engine and taken up
again when it is back. Each server lives in its own temporary folder on its own loopback port,
keeps nothing on disk (no snapshot, no append-only file), and is stopped on the way out; a test
never talks to, starts or stops a system-wide one.

`ensure_valkey` looks for `valkey-server` on PATH, then `redis-server` (Debian 12 has no Valkey
package; its Redis 7.0 speaks the protocol Valkey forked from). It may install Debian's
`redis-server` package with apt, but only when SUDDEN_DEATH_REQUIRE_VALKEY asks for it, so a
developer's machine is never changed behind their back.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest
from apt_install import ensure_packages
from table_driver import free_port

REQUIRE_ENV = "SUDDEN_DEATH_REQUIRE_VALKEY"
BINARIES = ("valkey-server", "redis-server")  # in the order preferred
PACKAGES = ("redis-server",)  # what apt installs on Debian 12 (Debian 13 has valkey-server too)
READY_TIMEOUT = 10.0  # seconds a start waits for the server to answer PING
STOP_GRACE = 5.0  # seconds a stop waits after SIGTERM before SIGKILL
START_ATTEMPTS = 3  # a free port can be taken by another worker before the server binds it


def find_valkey(path: str | None = None) -> Path | None:
    """The first of BINARIES on `path` (default: PATH), or None."""
    for name in BINARIES:
        found = shutil.which(name, path=path)
        if found is not None:
            return Path(found)
    return None


def ensure_valkey(path: str | None = None) -> Path | None:
    """The server binary, installing `redis-server` with apt first when
    SUDDEN_DEATH_REQUIRE_VALKEY is set (and not "0") and we run as root; None when still
    missing."""
    ensure_packages(PACKAGES, REQUIRE_ENV, lambda: find_valkey(path) is not None)
    return find_valkey(path)


def server_pid(port: int, timeout: float = 1.0) -> int | None:
    """The process id of the server on 127.0.0.1:`port` (INFO's process_id, inline as PING),
    or None when none answers. A start checks it is its own: on a port another worker's
    server took first, ours exits at once, but that one answers PING meanwhile."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(b"INFO server\r\n")
            said = b""
            while b"process_id:" not in said or not said.endswith(b"\r\n"):
                chunk = sock.recv(4096)
                if not chunk:
                    return None
                said += chunk
    except OSError:
        return None
    line = said.split(b"process_id:", 1)[1].split(b"\r\n", 1)[0]
    return int(line) if line.strip().isdigit() else None


def _answers(port: int, command: bytes, reply: bytes, timeout: float) -> bool:
    """Whether a server on 127.0.0.1:`port` answers the inline `command` with `reply` (no
    client library, so these helpers work before the server extra is installed)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            sock.sendall(command + b"\r\n")
            return sock.recv(64).startswith(reply)
    except OSError:
        return False


def flushed(port: int, timeout: float = 2.0) -> bool:
    """Whether the server on 127.0.0.1:`port` emptied itself (FLUSHALL)."""
    return _answers(port, b"FLUSHALL", b"+OK", timeout)


def ping(port: int, timeout: float = 1.0) -> bool:
    """Whether a server on 127.0.0.1:`port` answers PING."""
    return _answers(port, b"PING", b"+PONG", timeout)


class ValkeyServer:
    """One private server: its binary, folder, port and process. `start` (again after a stop
    or a kill: on the same port, so clients find it where it was), `stop` (a clean shutdown),
    `kill` (SIGKILL: the engine lost, as a crash or a cut machine would), `restart`."""

    def __init__(self, binary: Path, folder: Path) -> None:
        self.binary = binary
        self.folder = folder
        self.log = folder / "valkey.log"
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int | None:
        """The running server's process id; None when it is not running."""
        if self.process is None or self.process.poll() is not None:
            return None
        return self.process.pid

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace").strip() or "(empty)"
        except OSError:
            return "(no log)"

    def _command(self) -> list[str]:
        # No persistence at all: the tests' engine holds only what a test puts there, and a
        # restart starts it empty (as a lost, replaced engine would be).
        return [str(self.binary), "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(self.folder),
                "--logfile", str(self.log), "--daemonize", "no"]

    def _launch(self) -> bool:
        """Start on self.port; whether it answers PING, as itself, before READY_TIMEOUT (it
        exits at once when the port is taken)."""
        self.process = subprocess.Popen(self._command(), cwd=self.folder,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + READY_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            if ping(self.port, timeout=0.5):
                # Ours, not another worker's that held the port first (ours then exits).
                if server_pid(self.port) == self.process.pid:
                    return True
                self.kill()
                return False
            time.sleep(0.01)
        self.kill()
        return False

    def start(self) -> None:
        """Start the server: on a free loopback port the first time (another if that one was
        taken meanwhile), on the same port after a stop or a kill. Returns once it answers."""
        if self.pid is not None:
            return
        again = self.port != 0
        for _attempt in range(START_ATTEMPTS):
            if not again:
                self.port = free_port()
            if self._launch():
                return
            if again:
                time.sleep(0.2)  # the old socket may not have let the port go yet
        raise RuntimeError(f"{self.binary.name} did not start on port {self.port}:\n"
                           f"{self.log_text()}")

    def stop(self) -> None:
        """A clean shutdown (SIGTERM), then SIGKILL if it is still there after STOP_GRACE."""
        process = self.process
        if process is None or process.poll() is not None:
            return
        with suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(STOP_GRACE)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        """SIGKILL and reap: the engine is gone at once, its clients' sockets cut."""
        process = self.process
        if process is None or process.poll() is not None:
            return
        with suppress(ProcessLookupError):
            process.kill()
        process.wait()

    def restart(self, kill: bool = False) -> None:
        """Stop (or kill) and start again on the same port, empty; returns once it answers."""
        if kill:
            self.kill()
        else:
            self.stop()
        self.start()


@contextmanager
def valkey_server(path: str | None = None) -> Iterator[ValkeyServer]:
    """Yield a started private server (`.url`: redis://127.0.0.1:PORT/0, `.port`, `.pid`,
    `.restart()`, `.kill()`, `.start()`); on the way out it is stopped, no process of it is
    left, and its folder is removed."""
    binary = ensure_valkey(path)
    if binary is None:
        raise RuntimeError(
            "Valkey is not installed; install 'valkey-server' or 'redis-server', or set "
            f"{REQUIRE_ENV}=1 (as root, with apt-get) to install redis-server automatically"
        )
    folder = Path(tempfile.mkdtemp(prefix="sudden-death-valkey-"))
    server = ValkeyServer(binary, folder)
    try:
        server.start()
        yield server
    finally:
        try:
            server.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def process_alive(pid: int) -> bool:
    """Whether `pid` is a running process (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def require_valkey(path: str | None = None) -> Path:
    """The server binary; skip the calling test without it, or fail when CI requires it."""
    binary = ensure_valkey(path)
    if binary is None:
        if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
            pytest.fail("Valkey is required (SUDDEN_DEATH_REQUIRE_VALKEY) but could not be "
                        "installed")
        pytest.skip("Valkey is not installed: neither valkey-server nor redis-server on PATH "
                    "(SUDDEN_DEATH_REQUIRE_VALKEY=1 installs redis-server)")
    return binary
