"""Two real game processes at one table, each driven by its own live key script (a test and
benchmark helper). The game writes `{"kind": "turn"}` records at a table; the driver answers
each of its turns with the keys of a fixed strategy: call heads, take offense, go for it on
4th down, pick the first 2 players and 3 calls (later: the same cards again), keep them and
play the first call.

tools/build_check.py and tools/windows_build.py import it from the source they check (as they
import game_script.py), to play the same table game with the built games: hence `command`,
`cwd` and `env` on Server and Seat, and `sit_down` and `final_score`.

Server and Seat are context managers that end their process on leaving the block, and
`table` (or `seated`, after a Server of a test's own) gives a test a server and two seated
games that end whatever the test finds:

    with table(tmp_path, "--seed", "5") as (server, host, guest):
        ..."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import random
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TURN_TIMEOUT_S = 60.0
PAUSE_S = 120.0  # the longest a test holds a seat paused


def free_port() -> int:
    """A loopback port nothing listens on now, for a server restarted on it. Taken below
    Linux's ephemeral range (32768 and up): a game retrying to connect there while the server
    is down could otherwise be given that very port as its own end, and connect to itself."""
    rng = random.Random()
    while True:
        port = rng.randrange(20000, 32000)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


def game_env() -> dict[str, str]:
    return dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                PYGAME_HIDE_SUPPORT_PROMPT="1")


class Server:
    """`python -m sudden_death.server` on a free loopback port."""

    def __init__(self, *args: str, command: list[str] | None = None, cwd: Path | None = None,
                 timeout: float | None = None) -> None:
        """`command`: what runs the server (a built game's `sudden-death --serve`, perhaps
        inside a network namespace); `--port 0` and `args` follow it. `timeout`: how long to
        wait for its listening line (None: as long as it takes)."""
        start = command or [sys.executable, "-m", "sudden_death.server"]
        self.proc = subprocess.Popen(
            [*start, "--port", "0", *args], cwd=cwd or ROOT,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.log = ""  # its stderr, once stopped
        assert self.proc.stdout is not None
        watchdog = None if timeout is None else threading.Timer(timeout, self.proc.kill)
        if watchdog is not None:
            watchdog.start()
        try:
            line = self.proc.stdout.readline()
        finally:
            if watchdog is not None:
                watchdog.cancel()
        try:
            self.url: str = json.loads(line)["listening"]
            self.page: str = json.loads(line).get("page", "")  # the browser seat's
        except (ValueError, KeyError, TypeError):
            self.stop()  # never left running behind a failed start
            raise RuntimeError(f"the server's first line is not its address: {line!r}; "
                               f"exit {self.proc.returncode}; stderr: {self.log[-2000:]}"
                               ) from None

    def stop(self) -> int:
        """SIGTERM, then its exit code (its pipes closed; its stderr kept in `log`)."""
        if self.proc.poll() is None:
            self.proc.terminate()
        try:
            _out, err = self.proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _out, err = self.proc.communicate()
        self.log = err or self.log  # a second stop reads nothing more
        return self.proc.returncode

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()  # its exit code is not returned: a nonzero one would swallow exc


class Seat:
    """One game process reading keys from its stdin and writing its transcript to stdout."""

    def __init__(self, config: Path | str, *args: str, command: list[str] | None = None,
                 cwd: Path | None = None, env: Mapping[str, str] | None = None) -> None:
        """`command`: what runs the game (a benchmark's instrumented wrapper, a built game,
        a Windows game under Wine, whose `config` is then a Windows name); by default
        `python -m sudden_death --no-sound`. The script's own options follow it. `cwd` and
        `env`: the game's working folder (the checkout) and environment (game_env())."""
        start = command or [sys.executable, "-m", "sudden_death", "--no-sound"]
        self.proc = subprocess.Popen(
            [*start, "--headless", "--keys", "-", "--transcript", "-", "--config", str(config),
             *args],
            cwd=cwd or ROOT, env=dict(env) if env is not None else game_env(),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            bufsize=1)
        self.records: list[dict[str, Any]] = []
        self._queue: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.picked: set[str] = set()
        self._stderr: str | None = None
        self._killed = False  # by kill(): its play() then ends quietly
        self.pause_at = 0
        self.rematches = 0  # games over after which it plays again at the same table
        self.paused = threading.Event()
        self.go_on = threading.Event()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("{"):
                record = json.loads(line)
                self.records.append(record)
                self._queue.put(record)
        self._queue.put(None)

    def send(self, *keys: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(f"{key}\n" for key in keys))
        self.proc.stdin.flush()

    def next(self, kind: str, timeout: float = TURN_TIMEOUT_S) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            record = self._queue.get(timeout=max(0.01, deadline - time.monotonic()))
            if record is None:
                raise EOFError(f"the game ended before a {kind!r} record: {self.stderr()}")
            if record.get("kind") == kind:
                return record

    def until_said(self, words: str, timeout: float = TURN_TIMEOUT_S) -> None:
        """Wait until the game has said `words` (a whole line). It reads what the reader
        thread keeps, never the queue `play` takes its turns from."""
        deadline = time.monotonic() + timeout
        while words not in self.speech():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise AssertionError(f"never said {words!r}; said: {self.speech()[-5:]}")
            time.sleep(0.01)

    def said_starting(self, start: str, timeout: float = TURN_TIMEOUT_S) -> str:
        """The first line said that begins with `start`, once it has been said."""
        deadline = time.monotonic() + timeout
        while not (found := [line for line in self.speech() if line.startswith(start)]):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise AssertionError(f"never said {start!r}...; said: {self.speech()[-5:]}")
            time.sleep(0.01)
        return found[0]

    def play(self) -> None:
        """Answer every turn until the game is over, then quit. With `pause_at` set, stop
        before answering that many of its own turns, set `paused`, and wait for `go_on`.
        A game killed meanwhile (a test's doing) ends this quietly."""
        try:
            self._play()
        except (BrokenPipeError, EOFError, ValueError):
            # poll() may not see a game kill() is reaping meanwhile: it says None then.
            if self.proc.poll() is None and not self._killed:
                raise

    def _play(self) -> None:
        mine = 0
        while True:
            turn = self.next("turn", TURN_TIMEOUT_S + (PAUSE_S if self.pause_at else 0))
            if turn.get("over") and self.rematches:
                self.rematches -= 1
                self.picked.clear()  # a new game: no cards of a last down yet
                self.send("return")  # Game over: Play again
                continue
            if turn.get("over"):
                self.send("end", "return")  # Game over: Quit (the last choice)
                return
            if turn["mine"]:
                mine += 1
                if mine == self.pause_at:
                    self.paused.set()
                    self.go_on.wait(PAUSE_S)
                self.send(*self.keys_for(turn))

    def keys_for(self, turn: dict[str, Any]) -> list[str]:
        phase, role, down = turn["phase"], turn["role"], turn["down"]
        if phase in ("coin_toss", "side_choice", "substitution", "final_call"):
            return ["return"]
        if phase == "snap_choice" and down == 4:
            return ["return"]  # go for it
        if role in self.picked:
            return ["return"]  # last down's cards, checked again
        self.picked.add(role)
        return ["1", "2", "1", "2", "3", "return"]

    def finish(self, timeout: float = 30) -> int:
        """End of input: the game's exit code, once it has ended (its pipes closed)."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout)
        self._collect()
        return code

    def _collect(self) -> None:
        self._reader.join(10)
        if self._stderr is None and self.proc.stderr is not None:
            self._stderr = self.proc.stderr.read()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None and not stream.closed:
                with contextlib.suppress(OSError):  # keys still buffered for a killed game
                    stream.close()

    def stderr(self) -> str:
        """What the game wrote on stderr, once it has ended ("" before)."""
        if self.proc.poll() is None:
            return ""
        self._collect()
        return self._stderr or ""

    def speech(self) -> list[str]:
        return [r["text"] for r in list(self.records) if r.get("kind") == "speech"]

    def kill(self) -> None:
        self._killed = True
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self._collect()

    def __enter__(self) -> Seat:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


HOST_KEYS = ["end", "up", "return", "return", "type Hawks", "return"]  # Play a friend, Host
JOIN_KEYS = ["end", "up", "return", "down", "return", "type Bears", "return"]


def sit_down(host: Seat, guest: Seat) -> str:
    """The host opens a table (Play a friend, Host, as the Hawks) and the guest joins it with
    its code (as the Bears); returns the code. The game starts once both are seated."""
    host.send(*HOST_KEYS)
    code: str = host.next("table")["code"]
    guest.send(*JOIN_KEYS, f"type {code}", "return")
    return code


def seat_pair(tmp: Path, url: str) -> tuple[Seat, Seat]:
    """A host and a guest at one table of the server at `url`, the game about to start."""
    host = Seat(tmp / "host", "--server", url)
    guest = Seat(tmp / "guest", "--server", url)
    try:
        sit_down(host, guest)
    except BaseException:
        host.kill()
        guest.kill()
        raise
    return host, guest


def write_settings(config: Path, settings: Mapping[str, object]) -> None:
    """The settings.json a game started with the `config` folder reads."""
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps(settings))


@contextlib.contextmanager
def seated(tmp: Path, url: str, *, host_settings: Mapping[str, object] | None = None,
           guest_settings: Mapping[str, object] | None = None) -> Iterator[tuple[Seat, Seat]]:
    """seat_pair (in `tmp`/host and `tmp`/guest, with these settings.json written first) for
    the block; both games are killed when it ends, however it ends."""
    for name, settings in (("host", host_settings), ("guest", guest_settings)):
        if settings is not None:
            write_settings(tmp / name, settings)
    host, guest = seat_pair(tmp, url)
    with host, guest:
        yield host, guest


@contextlib.contextmanager
def table(tmp: Path, *server_args: str, host_settings: Mapping[str, object] | None = None,
          guest_settings: Mapping[str, object] | None = None
          ) -> Iterator[tuple[Server, Seat, Seat]]:
    """A Server started with `server_args` and two games seated at one of its tables (see
    `seated`) for the block; the games and the server end when it ends, however it ends."""
    with Server(*server_args) as server, seated(tmp, server.url, host_settings=host_settings,
                                                guest_settings=guest_settings) as (host, guest):
        yield server, host, guest


FINAL_SCORE = re.compile(r"Final score: (.+?) (\d+), (.+?) (\d+)\.")


def final_score(speech: list[str]) -> dict[str, int] | None:
    """The points of each team in the last "Final score" line said (English), or None. Each
    seat says its own team first, so two seats of one game agree on this, not on the line."""
    for line in reversed(speech):
        found = FINAL_SCORE.match(line)
        if found:
            mine, my_points, theirs, their_points = found.groups()
            return {mine: int(my_points), theirs: int(their_points)}
    return None


def start_playing(*seats: Seat) -> list[threading.Thread]:
    threads = [threading.Thread(target=seat.play, daemon=True) for seat in seats]
    for thread in threads:
        thread.start()
    return threads


def play_a_friend(tmp: Path, *server_args: str) -> tuple[Seat, Seat, Server]:
    """Host and guest play a whole game through a real server; returns them (finished)."""
    server = Server(*server_args)
    try:
        host, guest = seat_pair(tmp, server.url)
    except BaseException:
        server.stop()
        raise
    try:
        for thread in start_playing(host, guest):
            thread.join(600)
    except BaseException:
        host.kill()
        guest.kill()
        server.stop()
        raise
    return host, guest, server
