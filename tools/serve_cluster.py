"""`python3 tasks.py serve-cluster [N]`: a whole cluster of table servers on this machine.

Starts a private PostgreSQL and a private Valkey (or Redis), each in a temporary folder of its
own on a free loopback port (the tests' own helpers: tests/postgres_server.py and
tests/valkey_server.py; as root, either is installed with apt-get when missing), then N server
processes (default 3) sharing them and one port (`--reuse-port`: the kernel spreads new
connections over them, and each reaches every table through the relay). It prints the one
address to give players, then runs until Ctrl+C or SIGTERM, when it stops the server
processes (SIGTERM, each finishing its writes), then the engines, and removes their folders.

For trying a cluster and for the tests: the engines are throwaway (the database's fsync is
off, everything is gone when it stops). Should the tool itself be killed (SIGKILL), its server
processes stop with it (each is told by the kernel: PR_SET_PDEATHSIG); the engines and their
temporary folders are left. docs/server.md shows an operator the same with
systemd units, an engine of their own and TLS in front.

    python3 tasks.py serve-cluster [N] [--host 127.0.0.1] [--port 8765]
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from postgres_server import REQUIRE_ENV as REQUIRE_POSTGRES  # noqa: E402
from postgres_server import postgres_cluster  # noqa: E402
from valkey_server import REQUIRE_ENV as REQUIRE_VALKEY  # noqa: E402
from valkey_server import valkey_server  # noqa: E402

START_TIMEOUT_S = 60
STOP_TIMEOUT_S = 20
PR_SET_PDEATHSIG = 1  # prctl(2)


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python3 tasks.py serve-cluster",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("processes", type=int, nargs="?", default=3,
                        help="server processes (default 3)")
    parser.add_argument("--host", default="127.0.0.1", help="where the players' port listens")
    parser.add_argument("--port", type=int, default=8765, help="the players' one port")
    options = parser.parse_args(argv)
    if not 1 <= options.processes <= 64:
        parser.error("from 1 to 64 processes")
    if options.port <= 0:
        parser.error("--port needs a port of its own: every process listens on it")
    return options


def start_server(index: int, options: argparse.Namespace, postgres: str, valkey: str
                 ) -> tuple[subprocess.Popen[str], str]:
    """One server process of the cluster, once it listens: the process and its address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "sudden_death.server", "--host", options.host,
         "--port", str(options.port), "--reuse-port", "--postgres", postgres,
         "--valkey", valkey, "--name", f"node{index}"],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, preexec_fn=_die_with_parent)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not line:
        process.wait(START_TIMEOUT_S)
        raise SystemExit(f"serve-cluster: server process {index} did not start "
                         f"(exit {process.returncode}); its messages are above")
    return process, json.loads(line)["listening"]


def _die_with_parent() -> None:
    """In the server process before it starts (Linux): SIGTERM when this tool dies, however
    it dies (SIGKILL too), so no server outlives it holding the port."""
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def stop_servers(processes: list[subprocess.Popen[str]]) -> None:
    """SIGTERM to each (a clean stop: its last writes kept), SIGKILL to any still running."""
    for process in processes:
        if process.poll() is None:
            process.terminate()
    for process in processes:
        try:
            process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main(argv: list[str] | None = None) -> int:
    options = parse(sys.argv[1:] if argv is None else argv)
    # Missing engines are installed (apt-get, as root), as the tests' CI does.
    os.environ.setdefault(REQUIRE_POSTGRES, "1")
    os.environ.setdefault(REQUIRE_VALKEY, "1")
    done = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: done.set())
    processes: list[subprocess.Popen[str]] = []
    with postgres_cluster() as postgres, valkey_server() as valkey:
        try:
            for index in range(1, options.processes + 1):
                process, url = start_server(index, options, postgres.url, valkey.url)
                processes.append(process)
            print(json.dumps({"cluster": url, "processes": [each.pid for each in processes],
                              "postgres": postgres.url, "valkey": valkey.url}), flush=True)
            print(f"{options.processes} table servers on one address: give players {url} "
                  "(Ctrl+C stops them all)", file=sys.stderr, flush=True)
            while not done.wait(0.5):
                if any(process.poll() is not None for process in processes):
                    print("serve-cluster: a server process ended; stopping the others",
                          file=sys.stderr, flush=True)
                    return 1
        finally:
            stop_servers(processes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
