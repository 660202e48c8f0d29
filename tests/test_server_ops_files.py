"""The operator's shipped files (issue 70), checked as far as a machine without Docker or a
running systemd allows: the systemd units pass `systemd-analyze verify` (their ExecStart
pointed at this Python) and say what the docs promise (the drain's stop timeout, a restart on
failure, a user of their own, the state directory --data uses); the compose file's servers
each run a command line the server's own parser accepts, wait for healthy engines, are
healthchecked on /readyz and given the drain's grace; the proxy's configuration names exactly
those servers and checks /readyz too; the image installs the server extra. And a server-only
install's promise: the server, its page and its metrics run with the game's own libraries
(pygame, the speech, zeroconf) impossible to import.
"""

from __future__ import annotations

import configparser
import json
import re
import shlex
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from sudden_death.server.__main__ import parse

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
UNITS = ("sudden-death-server.service", "sudden-death-server@.service")
SERVERS = ("server-1", "server-2", "server-3")
DRAIN_S = 30  # the stop timeout every file gives the drain
# What ${...} in a unit's ExecStart stands for (its EnvironmentFile's example) and systemd's
# specifiers (%i: the instance, %H: the host's name).
UNIT_VALUES = {"${SD_POSTGRES}": "postgresql://sudden_death@db.internal/sudden_death",
               "${SD_VALKEY}": "redis://valkey.internal:6379/0", "%i": "1", "%H": "tables1"}
GAME_ONLY = ("pygame", "pyttsx3", "espeakng_loader", "zeroconf", "prism")


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # systemd's keys keep their case
    parser.read(PACKAGING / name, encoding="utf-8")
    return parser


def exec_start(parsed: configparser.ConfigParser) -> list[str]:
    """ExecStart as the server's argv, its variables and specifiers filled in."""
    line = parsed["Service"]["ExecStart"]
    for key, value in UNIT_VALUES.items():
        line = line.replace(key, value)
    return shlex.split(line)


@pytest.mark.parametrize("name", UNITS)
def test_a_systemd_unit_runs_the_server_as_the_docs_say(name: str) -> None:
    parsed = unit(name)
    service = parsed["Service"]
    assert service["TimeoutStopSec"] == str(DRAIN_S)
    assert service["KillSignal"] == "SIGTERM"
    assert service["Restart"] == "on-failure"
    assert service.get("DynamicUser") == "yes" or "User" in service
    argv = exec_start(parsed)
    assert argv[0].endswith("/bin/python") and argv[1:3] == ["-m", "sudden_death.server"]
    options = parse(argv[3:])  # the server's own parser: exits on an option it refuses
    assert options.metrics_networks, "the operator's metrics are read from this machine"
    if options.data is not None:  # SQLite: kept in the state directory systemd makes for it
        assert options.data == Path("/var/lib") / service["StateDirectory"]
    else:
        assert options.postgres and options.valkey and options.reuse_port
        assert options.metrics_port == 9101  # %i = 1: each process's own port
    assert parsed["Install"]["WantedBy"] == "multi-user.target"


@pytest.mark.parametrize("name", UNITS)
def test_systemd_verifies_each_unit(name: str, tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (the keys are checked above)")
    # Its ExecStart pointed at this Python (verify checks the program exists); a template
    # verified as its first instance.
    text = (PACKAGING / name).read_text(encoding="utf-8")
    text = re.sub(r"^ExecStart=\S+", f"ExecStart={sys.executable}", text, flags=re.MULTILINE)
    copy = tmp_path / name.replace("@.", "@1.")
    copy.write_text(text, encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    said = [line for line in (done.stdout + done.stderr).splitlines()
            if copy.name in line or "Unknown" in line]
    assert said == [], said  # no unknown key or section, no bad value


def test_the_verify_check_is_not_blind(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    text = (PACKAGING / UNITS[0]).read_text(encoding="utf-8")
    text = re.sub(r"^ExecStart=\S+", f"ExecStart={sys.executable}", text, flags=re.MULTILINE)
    copy = tmp_path / UNITS[0]
    copy.write_text(text.replace("TimeoutStopSec=", "TimeoutStopSecs="), encoding="utf-8")
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True,
                          timeout=60)
    assert "Unknown key" in done.stderr


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((PACKAGING / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_compose_runs_three_servers_the_server_accepts_on_healthy_engines() -> None:
    services = compose()["services"]
    assert set(services) == {"postgres", "valkey", "proxy", *SERVERS}
    names, relays = set(), set()
    for name in SERVERS:
        server = services[name]
        options = parse(server["command"])  # exits on an option the server refuses
        names.add(options.name)
        relays.add(options.relay_address)
        assert options.relay_address == name and options.relay_port != 0  # reachable
        assert options.postgres.startswith("postgresql://") and "@postgres:" in options.postgres
        assert options.valkey == "redis://valkey:6379/0"
        assert options.host == "0.0.0.0" and options.port == 8765
        assert options.per_address >= 100  # every player comes from the proxy's address
        assert options.metrics_port is not None
        assert server["ports"] == [f"127.0.0.1:{9100 + int(name[-1])}:{options.metrics_port}"]
        assert urlsplit(options.postgres).password is None  # PGPASSWORD: never in ps
        test = server["healthcheck"]["test"]
        assert test[0] == "CMD" and "http://127.0.0.1:8765/readyz" in " ".join(test)
        assert server["stop_grace_period"] == f"{DRAIN_S}s"
        assert {engine: wait["condition"] for engine, wait in server["depends_on"].items()} \
            == {"postgres": "service_healthy", "valkey": "service_healthy"}
        assert server["build"]["dockerfile"] == "packaging/Dockerfile"
    assert names == set(SERVERS) and relays == set(SERVERS)  # each its own
    assert "/readyz" not in json.dumps(services["postgres"]["healthcheck"])
    assert services["proxy"]["ports"] == ["8765:8765"]  # the players' one port
    published = [port for service in services.values() for port in service.get("ports", [])]
    assert [port for port in published if not port.startswith("127.0.0.1:")] == ["8765:8765"]


def test_the_proxy_sends_players_to_exactly_the_ready_servers_of_compose() -> None:
    config = (PACKAGING / "haproxy.cfg").read_text(encoding="utf-8")
    servers = re.findall(r"^\s*server (\S+) (\S+)$", config, re.MULTILINE)
    assert servers == [(name, f"{name}:8765") for name in SERVERS]
    assert re.search(r"^\s*bind :8765$", config, re.MULTILINE)
    assert re.search(r"http-check send meth GET uri /readyz\b", config)
    assert re.search(r"http-check expect status 200$", config, re.MULTILINE)
    assert "./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in \
        compose()["services"]["proxy"]["volumes"]


def test_the_image_installs_the_server_extra_and_runs_the_server() -> None:
    dockerfile = (PACKAGING / "Dockerfile").read_text(encoding="utf-8")
    assert "pip install --no-cache-dir '/src[server]'" in dockerfile
    assert 'ENTRYPOINT ["python", "-m", "sudden_death.server"]' in dockerfile
    ignored = (PACKAGING / "Dockerfile.dockerignore").read_text(encoding="utf-8").split()
    assert {".git", ".venv"} <= set(ignored)


BLOCKER = f"""
import sys
class NoGame:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {GAME_ONLY!r}:
            raise ImportError("a server-only install has no " + name)
sys.meta_path.insert(0, NoGame())
from sudden_death.server.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


def test_the_server_its_page_and_its_metrics_need_none_of_the_games_own_libraries() -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", BLOCKER, "--port", "0", "--metrics-from", "127.0.0.1"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        said = json.loads(process.stdout.readline() or "{}")
        assert "listening" in said, process.stderr.read() if process.stderr else ""
        base = said["page"].rstrip("/")
        for path in ("/healthz", "/readyz", "/metrics", "/"):
            with urllib.request.urlopen(base + path, timeout=5) as answer:
                assert answer.status == 200, path
    finally:
        process.terminate()
        _out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    assert "a server-only install has no" not in err
    # Not blind: the game itself cannot start so.
    game = BLOCKER.replace("from sudden_death.server.__main__ import main", "import pygame")
    tried = subprocess.run([sys.executable, "-c", game], cwd=ROOT, capture_output=True,
                           text=True, timeout=60)
    assert "a server-only install has no pygame" in tried.stderr
