"""A real, private PostgreSQL cluster for the tests of what the table server keeps in it
(issue 61). A mock would not show what matters there: a committed row surviving a crash, a
connection cut by a restart. Each cluster lives in its own temporary folder on its own loopback
port, so parallel test workers never share one, and it is stopped and removed on the way out.

`ensure_postgres` may install Debian's `postgresql` package with apt, but only when
SUDDEN_DEATH_REQUIRE_POSTGRES asks for it, so a developer's machine is never changed behind
their back. Debian keeps the server's binaries in /usr/lib/postgresql/<version>/bin/, off PATH.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from apt_install import ensure_packages
from table_driver import free_port

REQUIRE_ENV = "SUDDEN_DEATH_REQUIRE_POSTGRES"
LIB_ROOT = Path("/usr/lib/postgresql")
TOOLS = ("initdb", "pg_ctl", "postgres")
SERVER_USER = "postgres"  # the system user Debian's package creates; initdb refuses root
READY_TIMEOUT = 30  # seconds pg_ctl waits for a start, restart or stop
STOP_GRACE = 5.0
START_ATTEMPTS = 3  # a free port can be taken by another worker before the server binds it


def _version_key(name: str) -> tuple[int, ...]:
    """'16' > '9.6': versions compare as numbers, not as text."""
    return tuple(int(part) for part in name.split(".") if part.isdigit())


def find_postgres_bin(lib_root: Path = LIB_ROOT) -> Path | None:
    """The bin folder of the newest PostgreSQL under `lib_root` that has all of TOOLS, or None."""
    if not lib_root.is_dir():
        return None
    versions = [entry for entry in lib_root.iterdir()
                if entry.is_dir() and _version_key(entry.name)]
    for version in sorted(versions, key=lambda entry: _version_key(entry.name), reverse=True):
        bin_dir = version / "bin"
        if all(os.access(bin_dir / tool, os.X_OK) for tool in TOOLS):
            return bin_dir
    return None


def ensure_postgres(lib_root: Path = LIB_ROOT) -> Path | None:
    """The PostgreSQL bin folder, installing the `postgresql` package with apt first when
    SUDDEN_DEATH_REQUIRE_POSTGRES is set (and not "0") and we run as root; None when the
    server is still missing."""
    ensure_packages(("postgresql",), REQUIRE_ENV, lambda: find_postgres_bin(lib_root) is not None)
    return find_postgres_bin(lib_root)


def _children(pid: int) -> list[int]:
    """Every live descendant of `pid` (Linux's /proc), so none is missed when killing a tree."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name, in parentheses, may hold spaces: the fields after it are fixed.
        fields = stat.rsplit(")", 1)[1].split()
        parents[int(entry.name)] = int(fields[1])
    found: list[int] = []
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        kids = [child for child, ppid in parents.items() if ppid == parent]
        found += kids
        frontier += kids
    return found


def process_alive(pid: int) -> bool:
    """Whether `pid` is a running process (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class PostgresCluster:
    """One private cluster: its data folder, port and log, and the pg_ctl calls that drive it.
    As root every tool runs as the `postgres` user (runuser), because initdb and the server
    refuse to run as root; otherwise as the current user."""

    def __init__(self, bin_dir: Path, folder: Path, fsync: bool = False) -> None:
        self.bin_dir = bin_dir
        self.fsync = fsync
        self.folder = folder
        self.data_dir = folder / "data"
        self.log = folder / "postgres.log"
        self.port = 0
        self._as_root = os.geteuid() == 0

    @property
    def url(self) -> str:
        return f"postgresql://{SERVER_USER}@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin_dir / tool), *args]
        if self._as_root:
            runuser = shutil.which("runuser") or "/usr/sbin/runuser"
            command = [runuser, "-u", SERVER_USER, "--", *command]
        # The folder as working directory: the postgres user may not enter the caller's.
        result = subprocess.run(command, cwd=self.folder, stdin=subprocess.DEVNULL,
                                capture_output=True, text=True, timeout=READY_TIMEOUT + 30,
                                check=False)
        if check and result.returncode != 0:
            raise RuntimeError(f"{tool} {' '.join(args)} failed ({result.returncode}):\n"
                               f"{result.stdout}{result.stderr}\nserver log:\n{self.log_text()}")
        return result

    def log_text(self) -> str:
        try:
            return self.log.read_text(errors="replace").strip() or "(empty)"
        except OSError:
            return "(no log)"

    def _options(self) -> str:
        # fsync off by default: a test's cluster need not survive a power cut, only a server
        # crash. A benchmark asks for it on, an operator's setting: every commit flushed.
        return (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                f"-c fsync={'on' if self.fsync else 'off'}")

    def init(self) -> None:
        """A fresh cluster whose `postgres` superuser needs no password from loopback."""
        if self._as_root:
            shutil.chown(self.folder, user=SERVER_USER)
        self._run("initdb", "-D", str(self.data_dir), "-A", "trust", "-U", SERVER_USER,
                  "-E", "UTF8", "--locale=C", "--no-sync")

    def start(self) -> None:
        """Start on a free loopback port, trying another port if that one was taken meanwhile."""
        for attempt in range(START_ATTEMPTS):
            self.port = free_port()
            result = self._run("pg_ctl", "-D", str(self.data_dir), "-w", "-t", str(READY_TIMEOUT),
                               "-l", str(self.log), "start", "-o", self._options(),
                               check=attempt == START_ATTEMPTS - 1)
            if result.returncode == 0:
                return

    def start_again(self) -> None:
        """Start a stopped cluster on the port it had, so its clients' URL leads to it again
        (the port may have been taken meanwhile: then this fails, said by pg_ctl)."""
        self._run("pg_ctl", "-D", str(self.data_dir), "-w", "-t", str(READY_TIMEOUT),
                  "-l", str(self.log), "start", "-o", self._options())

    def restart(self, mode: str = "immediate") -> None:
        """Restart the server (immediate: a crash, no checkpoint; the next start replays the
        write-ahead log) on the same port; returns once it accepts connections again."""
        self._run("pg_ctl", "-D", str(self.data_dir), "-w", "-t", str(READY_TIMEOUT),
                  "-m", mode, "-l", str(self.log), "restart", "-o", self._options())

    def postmaster_pid(self) -> int | None:
        """The running server's process id, from its pid file; None when it is not running."""
        try:
            first = (self.data_dir / "postmaster.pid").read_text().split("\n", 1)[0]
        except OSError:
            return None
        return int(first) if first.strip().isdigit() else None

    def pids(self) -> list[int]:
        """The server and every process it started (backends, checkpointer, WAL writer...)."""
        pid = self.postmaster_pid()
        if pid is None or not process_alive(pid):
            return []
        return [pid, *_children(pid)]

    def stop(self) -> None:
        """A fast shutdown; if pg_ctl fails, every process of the cluster is killed, so none
        outlives the test."""
        pids = self.pids()
        if not pids:
            return
        self._run("pg_ctl", "-D", str(self.data_dir), "-m", "fast", "-w", "-t",
                  str(READY_TIMEOUT), "stop", check=False)
        deadline = time.monotonic() + STOP_GRACE
        while any(process_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in pids:
            if process_alive(pid):
                with suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


@contextmanager
def postgres_cluster(lib_root: Path = LIB_ROOT, fsync: bool = False
                     ) -> Iterator[PostgresCluster]:
    """Yield a started private cluster (`.url`, `.port`, `.restart()`, `.stop()`); on the way
    out it is stopped, no process of it is left, and its folder is removed. `fsync`: whether
    the server flushes its commits to the disk (off for the tests, which need only survive a
    crash of the server; on for benchmarks/server_load.py, as an operator runs it)."""
    bin_dir = ensure_postgres(lib_root)
    if bin_dir is None:
        raise RuntimeError(
            "PostgreSQL is not installed; install the 'postgresql' package or set "
            f"{REQUIRE_ENV}=1 (as root, with apt-get) to install it automatically"
        )
    folder = Path(tempfile.mkdtemp(prefix="sudden-death-pg-"))
    folder.chmod(0o755)  # the postgres user must reach the data folder and the socket
    cluster = PostgresCluster(bin_dir, folder, fsync)
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        try:
            cluster.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)
