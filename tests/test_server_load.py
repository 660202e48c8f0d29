"""The table server process under load, and its faults: many bot tables at once (every game
finishes, no seat hears the other's choice early, no token in the log), a SIGKILL in the middle
of it (every table comes back at its last step, every seat reconnects), and a data folder it
cannot use. The timing goals live in benchmarks/server_load.py, not here."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from table_bots import Stats, play_tables
from table_driver import free_port
from websockets.asyncio.client import connect

from sudden_death.server.stores.sqlite_tables import FILE_NAME
from sudden_death.wire import protocol as p

ROOT = Path(__file__).resolve().parent.parent


class ServerProcess:
    """`python -m sudden_death.server` with JSON log lines, on `port` (0: a free one)."""

    def __init__(self, *args: str, port: int = 0, limit_file_bytes: int | None = None) -> None:
        def limited() -> None:  # a full disk: every write past this size fails (EFBIG)
            if limit_file_bytes is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_bytes, limit_file_bytes))

        self.proc = subprocess.Popen(
            [sys.executable, "-m", "sudden_death.server", "--port", str(port), "--log-json",
             *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=limited)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        self.url: str = json.loads(line)["listening"] if line else ""
        self.log = ""

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        _out, err = self.proc.communicate(timeout=20)
        self.log += err
        return self.proc.returncode

    def log_lines(self) -> list[dict[str, str]]:
        return [json.loads(line) for line in self.log.splitlines() if line.strip()]


def test_fifty_tables_at_once_all_finish_and_nobody_hears_a_choice_before_its_reveal(
        tmp_path: Path) -> None:
    server = ServerProcess("--seed", "7", "--per-address", "500", "--data", str(tmp_path))
    try:
        stats = asyncio.run(asyncio.wait_for(play_tables(
            server.url, 50, seed=3, games=2,
            think=lambda rng: rng.choice((0.0, 0.0, 0.01))), 300))
    finally:
        code = server.stop()
    assert stats.errors == [], stats.errors[:5]
    assert stats.games == 100 and stats.connected == 100
    assert stats.steps > 100 * 5  # random play kicks early: a game is about 11 steps
    assert code == 0
    lines = server.log_lines()  # every line is JSON, and no seat's token is in any of them
    assert any("opened" in line["message"] for line in lines)
    assert not [token for token in stats.tokens if token in server.log]


def open_tables_in(data: Path) -> int:
    """The tables a killed server's file holds as not over (read as the restart will)."""
    db = sqlite3.connect(data / FILE_NAME)
    try:
        return int(db.execute("SELECT count(*) FROM tables WHERE over = 0").fetchone()[0])
    finally:
        db.close()


def test_a_server_killed_under_load_comes_back_with_every_step_and_every_seat(
        tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess("--seed", "9", "--per-address", "500", "--data", str(tmp_path),
                           port=port)
    stats = Stats()
    in_play = 0  # tables still playing when the server is killed, as the players count
    open_on_disk = 0  # and as the server had them: not over in its file

    async def scenario() -> None:
        nonlocal server, in_play, open_on_disk
        playing = asyncio.ensure_future(play_tables(
            server.url, 20, seed=5, think=lambda rng: rng.uniform(0.01, 0.05),
            comeback_s=30.0, stats=stats))
        # Under way at every table: both seats of all 20 sat (on a busy machine the last
        # table may sit after the others' first 60 steps) and 60 steps played.
        while (stats.steps < 60 or stats.connected < 40) and not playing.done():
            await asyncio.sleep(0.01)
        assert stats.connected == 40
        server.stop(signal.SIGKILL)
        in_play = 20 - stats.games
        open_on_disk = open_tables_in(tmp_path)
        await asyncio.sleep(0.5)
        server = ServerProcess("--seed", "9", "--per-address", "500", "--data",
                               str(tmp_path), port=port)
        await asyncio.wait_for(playing, 240)

    try:
        asyncio.run(scenario())
    finally:
        code = server.stop()
    assert stats.errors == [], stats.errors[:5]
    assert stats.games == 20  # every game went on to its end
    assert in_play >= 15
    # The server's own record at the kill: every table it had not seen end is restored, and
    # both seats of each come back. A game whose last step the server kept but whose seats
    # had not yet heard it is over on disk: its seats come back too, to hear how it ended,
    # so the seats that resumed lie between the two counts, with no margin.
    restored = [int(line["message"].split()[0]) for line in server.log_lines()
                if line["message"].endswith("tables restored")]
    assert restored == [open_on_disk], (restored, open_on_disk)
    assert stats.resumed % 2 == 0
    assert 2 * open_on_disk <= stats.resumed <= 2 * in_play, (open_on_disk, in_play)
    assert stats.behind == 0  # and found the server at least where it had heard it
    assert code == 0


def test_a_full_disk_refuses_new_tables_in_words_and_says_so_in_the_log(tmp_path: Path) -> None:
    server = ServerProcess("--data", str(tmp_path), limit_file_bytes=40_000)

    async def scenario() -> list[dict[str, object]]:
        answers = []
        for _ in range(30):  # each table takes a few kilobytes: the file soon cannot grow
            async with connect(server.url) as client:
                await client.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
                answers.append(json.loads(await asyncio.wait_for(client.recv(), 10)))
        return answers

    try:
        answers = asyncio.run(scenario())
    finally:
        code = server.stop()
    kinds = [answer["type"] for answer in answers]
    assert kinds[0] == "seated" and "refused" in kinds, kinds
    refusal = answers[kinds.index("refused")]
    assert refusal["code"] == p.NO_ROOM and "cannot keep a new table" in str(refusal["text"])
    assert code == 0
    errors = [line for line in server.log_lines() if line["level"] == "error"]
    assert errors and "cannot be written" in errors[0]["message"]


def test_a_data_folder_that_cannot_be_one_stops_the_server_with_its_reason(
        tmp_path: Path) -> None:
    not_a_folder = tmp_path / "tables"
    not_a_folder.write_text("a file where the folder should be")
    result = subprocess.run([sys.executable, "-m", "sudden_death.server", "--port", "0",
                             "--data", str(not_a_folder)], cwd=ROOT, capture_output=True,
                            text=True, timeout=30)
    assert result.returncode == 2 and result.stdout == ""
    assert "sudden_death.server:" in result.stderr and "Traceback" not in result.stderr
    assert os.path.isfile(not_a_folder)  # nothing of it was touched
