"""Hostile input outside the key scripts: transcript targets, settings files, the config
option and SIGTERM. Each ends in a one-line reason and a non-zero exit where the game cannot go
on, or in the game going on with a notice where it can; never a traceback, a hang or a loss.
(Key scripts: tests/test_hostile_keys.py. eSpeak's data: tests/test_espeak_data.py.)
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sudden_death.storage.settings import (
    FILE_NAME,
    MAX_FILE_BYTES,
    STALE_TEMP_SECONDS,
    Settings,
    load_settings,
    save_settings,
)

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


def game(tmp_path: Path, *args: str, keys: str = "escape\ndown\nreturn\n",
         timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """A short game: the main menu, then Escape and Yes to quit."""
    script = tmp_path / "keys.txt"
    script.write_text(keys)
    return subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", "1",
         "--keys", str(script), "--config", str(tmp_path / "cfg"), *args],
        cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=timeout,
    )


def live_game(tmp_path: Path) -> subprocess.Popen[str]:
    """The game reading keys from its stdin and writing the transcript to its stdout."""
    return subprocess.Popen(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", "1",
         "--keys", "-", "--transcript", "-", "--config", str(tmp_path / "cfg")],
        cwd=tmp_path, env=ENV, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )


def one_line_error(result: subprocess.CompletedProcess[str], code: int) -> str:
    assert result.returncode == code, result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux paths")
@pytest.mark.parametrize(("target", "reason"), [
    ("missing/folder/t.jsonl", "No such file or directory"),
    (".", "Is a directory"),
    ("/proc/transcript.jsonl", "No such file or directory"),
])
def test_an_unwritable_transcript_is_one_line_and_exit_2(tmp_path: Path, target: str,
                                                         reason: str) -> None:
    line = one_line_error(game(tmp_path, "--transcript", target), 2)
    assert line == f"sudden_death: cannot write the transcript to {target}: {reason}"


@pytest.mark.parametrize(("option", "value"), [("--transcript", ""), ("--config", "")])
def test_empty_names_are_refused_not_taken_as_here(tmp_path: Path, option: str,
                                                   value: str) -> None:
    result = game(tmp_path, option, value)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f"argument {option}: needs a" in result.stderr
    assert not (tmp_path / FILE_NAME).exists()  # nothing written into the current folder


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_stops_the_transcript_and_ends_the_game_cleanly(tmp_path: Path) -> None:
    line = one_line_error(game(tmp_path, "--transcript", "/dev/full"), 1)
    assert line == ("sudden_death: the transcript could not be written (No space left on "
                    "device); it stops here and the game ends.")


def test_a_closed_pipe_stops_the_transcript_and_ends_the_game_cleanly(tmp_path: Path) -> None:
    """`| head -1`: the reader leaves after one line while the game waits for keys."""
    with live_game(tmp_path) as proc:
        assert proc.stdout is not None and proc.stdin is not None and proc.stderr is not None
        assert json.loads(proc.stdout.readline())["kind"] == "speech"
        proc.stdout.close()  # the reader is gone
        proc.stdin.write("down\nup\ndown\n")
        proc.stdin.flush()
        code = proc.wait(timeout=30)
        err = proc.stderr.read()
        proc.stdin.close()
    assert code == 1, err
    assert "Traceback" not in err and "Exception ignored" not in err, err
    assert err.count("the transcript could not be written (Broken pipe)") == 1, err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
@pytest.mark.timeout(30)  # the old bug was a hang
def test_a_settings_fifo_is_not_read_nor_replaced(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / FILE_NAME)
    settings, notice = load_settings(tmp_path)  # used to block for ever, waiting for a writer
    assert settings == Settings() and notice and "not a regular file" in notice
    failed = save_settings(Settings(speech_rate=200), tmp_path)
    assert failed and "not a regular file" in failed
    assert (tmp_path / FILE_NAME).is_fifo()  # someone's FIFO is left alone


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_settings_linked_to_an_endless_device_are_refused(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).symlink_to("/dev/zero")
    settings, notice = load_settings(tmp_path)  # used to read until MemoryError
    assert settings == Settings() and notice and "not a regular file" in notice
    assert save_settings(Settings(speech_rate=200), tmp_path) is None  # replaces the link only
    assert load_settings(tmp_path)[0].speech_rate == 200 and Path("/dev/zero").exists()


def test_an_oversized_settings_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_text(" " * (MAX_FILE_BYTES + 1))
    settings, notice = load_settings(tmp_path)
    assert settings == Settings() and notice and "too big" in notice


def test_a_byte_order_mark_is_read_as_text(tmp_path: Path) -> None:
    """Notepad saves UTF-8 with a BOM: the file is read, not called damaged (which would let
    the next change overwrite the hand-edited values)."""
    (tmp_path / FILE_NAME).write_bytes(b"\xef\xbb\xbf" + json.dumps(
        {"speech_rate": 250, "verbosity": "short"}).encode())
    assert load_settings(tmp_path) == (Settings(speech_rate=250, verbosity="short"), None)


def test_temp_files_left_by_a_killed_save_are_cleaned_up(tmp_path: Path) -> None:
    stale = tmp_path / ".settings-abc123.tmp"
    fresh = tmp_path / ".settings-def456.tmp"
    for temp in (stale, fresh):
        temp.write_text("{")
    old = time.time() - STALE_TEMP_SECONDS - 5
    os.utime(stale, (old, old))
    save_settings(Settings(), tmp_path)
    load_settings(tmp_path)
    assert not stale.exists()
    assert fresh.exists()  # it may be another game's save in progress


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or sys.platform == "win32",
                    reason="POSIX signals")
def test_sigterm_ends_the_game_with_143(tmp_path: Path) -> None:
    with live_game(tmp_path) as proc:
        assert proc.stdout is not None and proc.stdin is not None and proc.stderr is not None
        while json.loads(proc.stdout.readline()).get("kind") != "waiting":
            pass
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=10)
        err = proc.stderr.read()
        proc.stdin.close()
    assert code == 143, err
    assert "Traceback" not in err, err
