"""A real speech-dispatcher and a real BRLTTY for the screen-reader tests, each private to one
test: its own configuration, socket and log in a temporary folder, no sound card (speech goes to
ALSA's null device) and no braille hardware (BRLTTY's TTY driver draws the display on a
pseudo-terminal the test reads).

The Debian packages come from apt when SUDDEN_DEATH_REQUIRE_SPEECHD is set (CI), never on a
developer's machine otherwise; the tests then skip, or fail when the variable asks for them.
"""

from __future__ import annotations

import os
import pty
import select
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from apt_install import ensure_packages

REQUIRE_ENV = "SUDDEN_DEATH_REQUIRE_SPEECHD"
PACKAGES = ("speech-dispatcher", "speech-dispatcher-espeak-ng", "python3-speechd", "brltty",
            "python3-brlapi")
SYSTEM_PYTHON = Path("/usr/lib/python3/dist-packages")
READY_TIMEOUT = 15.0
ESPEAK_MODULE_CONF = Path("/etc/speech-dispatcher/modules/espeak-ng.conf")


def _installed() -> bool:
    return (shutil.which("speech-dispatcher") is not None
            and shutil.which("brltty", path="/usr/sbin:/usr/bin:/sbin:/bin") is not None
            and (SYSTEM_PYTHON / "speechd" / "__init__.py").is_file()
            and any(SYSTEM_PYTHON.glob("brlapi*.so")))


def ensure_speech_servers() -> bool:
    """Whether speech-dispatcher, BRLTTY and their Python clients are here (installing them
    with apt first when CI asks)."""
    return ensure_packages(PACKAGES, REQUIRE_ENV, _installed)


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(5)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@dataclass
class SpeechDispatcherServer:
    folder: Path
    address: str  # what SPEECHD_ADDRESS takes
    log: Path

    def log_lines(self) -> list[str]:
        """What the server logged, without its time stamps."""
        if not self.log.exists():
            return []
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return [line.split("speechd:", 1)[-1].strip() for line in text.splitlines()]

    def queued(self) -> list[str]:
        """The messages queued for speech, in order."""
        return [line.split("|")[1] for line in self.log_lines()
                if line.startswith("Queueing message |")]

    def spoken(self) -> list[str]:
        """The messages handed to the synthesizer (queued ones cancelled first never are)."""
        found = []
        for line in self.log_lines():
            if line.startswith("Command sent to output module: |<speak>"):
                found.append(line.split("<speak>", 1)[1].split("</speak>", 1)[0])
        return found

    def wait_for(self, check: object, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if callable(check) and check():
                return True
            time.sleep(0.05)
        return False


@contextmanager
def speech_dispatcher(folder: Path) -> Iterator[SpeechDispatcherServer]:
    """A speech-dispatcher listening on a socket in `folder`, logging everything it is sent."""
    config, logs = folder / "config", folder / "log"
    (config / "modules").mkdir(parents=True)
    logs.mkdir()
    shutil.copy(ESPEAK_MODULE_CONF, config / "modules" / ESPEAK_MODULE_CONF.name)
    (config / "speechd.conf").write_text(
        "LogLevel 5\n"
        f'LogDir "{logs}"\n'
        'AudioOutputMethod "alsa"\n'
        'AudioALSADevice "null"\n'
        'AddModule "espeak-ng" "sd_espeak-ng" "espeak-ng.conf"\n'
        "DefaultModule espeak-ng\n"
        'DefaultLanguage "en"\n',
        encoding="utf-8")
    socket = folder / "speechd.sock"
    server = subprocess.Popen(
        ["speech-dispatcher", "-s", "-t", "0", "-C", str(config), "-c", "unix_socket",
         "-S", str(socket), "-P", str(folder / "speechd.pid")],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        log = logs / "speech-dispatcher.log"
        running = SpeechDispatcherServer(folder, f"unix_socket:{socket}", log)
        ready = running.wait_for(
            lambda: socket.exists() and any("waiting for clients" in line
                                            for line in running.log_lines()),
            READY_TIMEOUT)
        if not ready:
            raise RuntimeError(f"speech-dispatcher did not start (exit {server.poll()})")
        yield running
    finally:
        _stop(server)


@dataclass
class BrailleServer:
    host: str  # what BRLAPI_HOST takes
    terminal: int  # the pseudo-terminal's reading end: the display, drawn by BRLTTY
    shown: bytes = b""

    def read(self, timeout: float = 0.3) -> str:
        """Everything drawn on the display so far."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.terminal], [], [], left)[0]:
                break
            try:
                self.shown += os.read(self.terminal, 4096)
            except OSError:
                break
        return self.shown.decode(errors="replace")

    def wait_for(self, text: str, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.read(0.2):
                return True
        return False


@contextmanager
def brltty(folder: Path, number: int) -> Iterator[BrailleServer]:
    """BRLTTY with its TTY driver drawing a 40-cell display on a pseudo-terminal, BrlAPI on the
    local socket `number`, without authentication, and no screen or speech of its own."""
    folder.mkdir(parents=True, exist_ok=True)
    terminal, device = pty.openpty()
    server = subprocess.Popen(
        [shutil.which("brltty", path="/usr/sbin:/usr/bin:/sbin:/bin") or "brltty",
         "-n", "-e", "-q", "-Z", "-b", "tt", "-d", f"serial:{os.ttyname(device)}",
         "-x", "no", "-s", "no", "-A", f"host=:{number},auth=none",
         "-W", str(folder), "-U", str(folder), "-P", str(folder / "brltty.pid"),
         "-f", "/dev/null", "-F", "/dev/null"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    running = BrailleServer(f":{number}", terminal)
    try:
        if not running.wait_for("no screen", READY_TIMEOUT):  # what it shows with no client
            raise RuntimeError(f"BRLTTY did not start (exit {server.poll()})")
        yield running
    finally:
        _stop(server)
        os.close(terminal)
        os.close(device)
