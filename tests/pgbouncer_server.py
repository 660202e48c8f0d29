"""A private PgBouncer in front of a test's private PostgreSQL cluster (issue 73): the pooler
an operator puts between many table server processes and one database, in transaction
pooling (each transaction may run on another server connection), as docs/server.md advises.

Debian's `pgbouncer` package, installed with apt-get when SUDDEN_DEATH_REQUIRE_POSTGRES is set
(CI, as root; the PostgreSQL tests' own switch), else the tests that need it skip. It refuses to
run as root, so as root it runs as the `postgres` user, as the cluster does; it trusts loopback
(auth_type trust), as the cluster does, and is stopped on the way out whatever the test did.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from apt_install import ensure_packages
from postgres_server import SERVER_USER, PostgresCluster
from table_driver import free_port

REQUIRE_ENV = "SUDDEN_DEATH_REQUIRE_POSTGRES"
PGBOUNCER = Path("/usr/sbin/pgbouncer")
READY_S = 20.0


def require_pgbouncer() -> Path:
    """PgBouncer's program; skip without it, or fail when CI requires PostgreSQL's tools."""
    found = ensure_packages(("pgbouncer",), REQUIRE_ENV, lambda: PGBOUNCER.is_file())
    if not found:
        if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
            pytest.fail("PgBouncer is required (SUDDEN_DEATH_REQUIRE_POSTGRES) but could not "
                        "be installed")
        pytest.skip("PgBouncer is not installed (SUDDEN_DEATH_REQUIRE_POSTGRES=1 installs it)")
    return PGBOUNCER


@contextmanager
def pgbouncer(cluster: PostgresCluster, pool_size: int = 4) -> Iterator[int]:
    """A PgBouncer on a free loopback port (yielded) serving every database of `cluster` in
    transaction pooling, with at most `pool_size` server connections a database."""
    program = require_pgbouncer()
    folder = Path(tempfile.mkdtemp(prefix="sudden-death-pgbouncer-"))
    port = free_port()
    (folder / "users.txt").write_text(f'"{SERVER_USER}" ""\n')
    (folder / "pgbouncer.ini").write_text(
        "[databases]\n"
        f"* = host=127.0.0.1 port={cluster.port}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {folder / 'users.txt'}\n"
        f"pool_mode = transaction\ndefault_pool_size = {pool_size}\n"
        "max_client_conn = 500\n"
        f"logfile = {folder / 'pgbouncer.log'}\npidfile = {folder / 'pgbouncer.pid'}\n"
        "ignore_startup_parameters = extra_float_digits,options\n")
    command = [str(program), str(folder / "pgbouncer.ini")]
    if os.geteuid() == 0:
        shutil.chown(folder, user=SERVER_USER)
        for name in ("users.txt", "pgbouncer.ini"):
            shutil.chown(folder / name, user=SERVER_USER)
        command = [shutil.which("runuser") or "/usr/sbin/runuser", "-u", SERVER_USER, "--",
                   *command]
    process = subprocess.Popen(command, cwd=folder, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ends = time.monotonic() + READY_S
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > ends:
                    log = (folder / "pgbouncer.log")
                    raise RuntimeError("PgBouncer did not start: " + (
                        log.read_text() if log.exists() else "(no log)")) from None
                time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)
