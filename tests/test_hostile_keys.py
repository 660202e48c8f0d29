"""Hostile key scripts (`--keys`): bytes that are not UTF-8, lines too long for pygame's queue,
endless devices and pipes, huge files, unknown key names on a live standard input, and Alt+F4.

A file that can't be used is refused before the game starts: exit 2 and one line on stderr
naming the file (and line), never a traceback, a hang or gigabytes read. On standard input a bad
line is an `error` record in the transcript, and the game goes on waiting for the next line.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pygame
import pytest

from sudden_death.ui.run.key_script import (
    MAX_LINE,
    MAX_SCRIPT_BYTES,
    KeyScriptError,
    KeySource,
    Step,
    StepError,
    parse_script,
    parse_step,
    post_step,
)

ENV = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


def command(tmp_path: Path, keys: str) -> list[str]:
    return [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", "1",
            "--keys", keys, "--transcript", "-", "--config", str(tmp_path / "cfg")]


def refused(tmp_path: Path, keys: str, timeout: float = 30) -> str:
    """Run the game on a key script that must be refused; the one line it writes to stderr.
    `timeout` guards a hang (a refusal that waits for more input)."""
    result = subprocess.run(command(tmp_path, keys), cwd=tmp_path, env=ENV, capture_output=True,
                            timeout=timeout)
    err = result.stderr.decode("utf-8", "replace")
    assert result.returncode == 2, err[-2000:]
    assert "Traceback" not in err and "Error" not in err, err[-2000:]
    assert result.stdout == b"", "refused before the game starts: nothing said"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and len(lines[0]) < 200, err[-2000:]
    return lines[0]


# -- 1. bytes that are not UTF-8 ----------------------------------------------------------------

def test_a_file_that_is_not_utf8_is_refused_with_its_line(tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_bytes(b"tab\nreturn\n\xff\xfe caf\xe9\ns\n")
    line = refused(tmp_path, "keys.txt")
    assert line == "sudden_death: key script keys.txt, line 3: not UTF-8 text"


def test_a_byte_order_mark_is_read_as_text(tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_bytes("\ufefftab\r\nshift+tab\r\n".encode())
    assert KeySource.from_file(str(tmp_path / "keys.txt")).next(0) == Step(key="tab")


# -- 2. a line too long for pygame's event queue ------------------------------------------------

def test_a_type_line_too_long_for_the_event_queue_is_refused(tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_text("return\ntype " + "x" * 70_000 + "\nreturn\n")
    line = refused(tmp_path, "keys.txt")
    assert line == ("sudden_death: key script keys.txt, line 2: longer than 1000 characters: "
                    "'type xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'...")


def test_the_longest_line_allowed_is_typed_whole() -> None:
    text = "é" * (MAX_LINE - len("type "))
    steps = parse_script([f"type {text}\n"])
    assert steps == [Step(text=text)]
    with pytest.raises(KeyScriptError, match="line 2: longer than 1000 characters"):
        parse_script(["tab", f"type {text}x"])


# -- 3. not a regular file: endless devices, pipes, folders -------------------------------------

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux devices")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_at_once(tmp_path: Path, device: str) -> None:
    line = refused(tmp_path, device, timeout=20)
    assert line.startswith(f"sudden_death: key script {device}: a device, not a file")


def test_a_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "scripts").mkdir()
    assert "a directory, not a file" in refused(tmp_path, "scripts")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "keys.fifo")  # opening it to read would wait for a writer forever
    assert "key script keys.fifo: a pipe, not a file" in refused(tmp_path, "keys.fifo", 20)


def test_a_missing_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(KeyScriptError, match=r"key script nowhere\.txt: can't be read \(No such"):
        KeySource.from_file("nowhere.txt")


# -- 4. huge files, and bad lines deep in a file ------------------------------------------------

def test_a_huge_file_is_refused_at_once_with_its_size(tmp_path: Path) -> None:
    with open(tmp_path / "keys.txt", "wb") as huge:
        huge.truncate(50 * 1024 * 1024)  # sparse: 50 MB of NULs, made in no time
    line = refused(tmp_path, "keys.txt", timeout=20)
    assert line == ("sudden_death: key script keys.txt: too large (52428800 bytes; "
                    "at most 1048576 bytes, 1 MiB)")


def test_a_file_at_the_size_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "keys.txt"
    path.write_bytes(b"s\n" * (MAX_SCRIPT_BYTES // 2))
    assert path.stat().st_size == MAX_SCRIPT_BYTES
    assert KeySource.from_file(str(path)).next(0) == Step(key="s")


def test_a_bad_line_deep_in_a_file_is_named_and_quoted_short(tmp_path: Path) -> None:
    (tmp_path / "keys.txt").write_text("tab\n" * 500 + "# comment\n\n" + "frob" * 200 + "\n")
    line = refused(tmp_path, "keys.txt")
    assert line == ("sudden_death: key script keys.txt, line 503: unknown key name "
                    "'frobfrobfrobfrobfrobfrobfrobfrobfrobfrob'...")


# -- 5. live standard input: a bad line is reported and the game goes on ------------------------

def read_until(stdout: Any, done: Any) -> list[dict]:
    seen: list[dict] = []
    while not done(seen):
        line = stdout.readline()
        assert line, f"the game ended early: {seen[-5:]}"
        seen.append(json.loads(line))
    return seen


def test_an_unknown_key_on_stdin_is_an_error_record_then_waiting(tmp_path: Path) -> None:
    # The with block closes the pipes and reaps the game however the test ends.
    with subprocess.Popen(command(tmp_path, "-"), cwd=tmp_path, env=ENV,
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as proc:
        timer = threading.Timer(30, proc.kill)
        timer.start()
        try:
            assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
            read_until(proc.stdout, lambda seen: seen and seen[-1] == {"kind": "waiting"})
            proc.stdin.write("frobnicate\n")
            proc.stdin.flush()
            seen = read_until(proc.stdout, lambda seen: len(seen) >= 2
                              and seen[-1] == {"kind": "waiting"} and seen[-2]["kind"] == "error")
            assert seen[-2]["text"] == "line 1: unknown key name 'frobnicate'"
            proc.stdin.write("return\n")  # Start a game: the game still listens
            proc.stdin.flush()
            seen = read_until(proc.stdout, lambda seen: any(
                r.get("text", "").startswith("Your team's name") for r in seen))
            proc.stdin.close()
            assert proc.wait(timeout=20) == 0
            err = proc.stderr.read()
        finally:
            timer.cancel()
            if proc.poll() is None:
                proc.kill()
    assert "Traceback" not in err, err
    assert "line 1: unknown key name 'frobnicate'" in err  # a copy for a person watching


def live_steps(data: bytes) -> list[Step | StepError]:
    source = KeySource.from_stdin(io.BytesIO(data))
    steps: list[Step | StepError] = []
    while (step := source.next(5)) is not None:
        assert step is not False, "the reader stalled"
        assert isinstance(step, (Step, StepError))
        steps.append(step)
    return steps


def test_bad_stdin_lines_are_errors_and_reading_goes_on(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    data = (b"tab\n\xff\xfe\nalt+frobnicate\n" + b"type " + b"y" * 100_000 + b"\n"
            + b"# a comment\n" + b"\x00\n" + b"z" * 10_000 + b"\nshift+tab")
    assert live_steps(data) == [
        Step(key="tab"),
        StepError("line 2: not UTF-8 text"),
        StepError("line 3: unknown key name 'frobnicate'"),
        StepError("line 4: longer than 1000 characters: "
                  "'type yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy'..."),
        StepError("line 6: unknown key name '\\x00'"),
        StepError("line 7: longer than 1000 characters: "
                  "'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'..."),
        Step(key="tab", shift=True),
    ]
    assert capsys.readouterr().err.count("sudden_death: key script (standard input), line") == 5


def test_stderr_copies_are_capped(capsys: pytest.CaptureFixture[str]) -> None:
    steps = live_steps(b"nope\n" * 500)
    assert len(steps) == 500 and all(isinstance(step, StepError) for step in steps)
    assert len(capsys.readouterr().err.splitlines()) == 20  # a stderr pipe nobody reads holds it


# -- 6. Alt, Meta and Alt+F4 ----------------------------------------------------------------------

def test_alt_f4_on_stdin_closes_the_game_like_the_window_manager(tmp_path: Path) -> None:
    proc = subprocess.Popen(command(tmp_path, "-"), cwd=tmp_path, env=ENV,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        read_until(proc.stdout, lambda seen: seen and seen[-1] == {"kind": "waiting"})
        proc.stdin.write("alt+f4\n")  # and standard input stays open
        proc.stdin.flush()
        code = proc.wait(timeout=20)
        err = proc.stderr.read()
        rest = proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None:
                pipe.close()
    assert code == 0, err
    assert err == "", err  # no "unknown key", no abort over stdin's lock at exit
    assert '"kind": "error"' not in rest


@pytest.fixture
def display() -> Any:
    pygame.display.init()
    pygame.display.set_mode((64, 48))
    pygame.event.clear()
    yield pygame
    pygame.event.clear()
    pygame.display.quit()


@pytest.mark.parametrize(("line", "mod"), [
    ("alt+s", pygame.KMOD_LALT),
    ("ALT+Tab", pygame.KMOD_LALT),
    ("meta+tab", pygame.KMOD_LGUI),
    ("gui+d", pygame.KMOD_LGUI),
    ("super+d", pygame.KMOD_LGUI),
    ("ctrl+alt+delete", pygame.KMOD_LCTRL | pygame.KMOD_LALT),
    ("control+shift+alt+meta+f4", pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT | pygame.KMOD_LALT
     | pygame.KMOD_LGUI),
    ("shift+tab", pygame.KMOD_LSHIFT),
    ("ctrl + c", pygame.KMOD_LCTRL),
])
def test_any_modifier_with_any_key_is_posted_with_its_mod(display: Any, line: str,
                                                          mod: int) -> None:
    step = parse_step(line)
    assert step is not None
    post_step(step)
    events = [e for e in pygame.event.get() if e.type in (pygame.KEYDOWN, pygame.KEYUP)]
    assert [e.type for e in events] == [pygame.KEYDOWN, pygame.KEYUP]
    assert all(e.mod == mod for e in events)
    assert events[0].key == pygame.key.key_code(line.rsplit("+", 1)[1].strip().lower())


def test_alt_f4_is_a_close_request_not_a_key(display: Any) -> None:
    step = parse_step("alt+f4")
    assert step == Step(key="f4", alt=True)
    post_step(step)
    kinds = [e.type for e in pygame.event.get()]
    assert pygame.QUIT in kinds and pygame.KEYDOWN not in kinds
    assert parse_script(["alt", "meta", "super", "shift++", "[+]", "keypad +"]) == [
        Step(key="left alt"), Step(key="left meta"), Step(key="left meta"),
        Step(key="+", shift=True), Step(key="[+]"), Step(key="keypad +")]
