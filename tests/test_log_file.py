"""The log file and a game with no console: a windowed build (the Windows .exe) has
sys.stdout, sys.stderr and sys.stdin set to None, so nothing may write to them, what went wrong
goes to the log in the log folder, and --transcript - / --keys - are said to need a console."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from table_driver import ROOT, game_env

from sudden_death.ui.run.cli import Options
from sudden_death.ui.run.log_file import BACKUPS, FILE_NAME, MASK, MAX_BYTES, Redact, open_log
from sudden_death.ui.run.loop import _without_console

TOKEN = "vSLvtuL8Osjmo5Av8i_Aw7rm"  # secrets.token_urlsafe(18)'s shape


def line(text: str, secrets: tuple[str, ...] = ()) -> str:
    record = logging.LogRecord("sudden_death.net", logging.WARNING, __file__, 1, text, None,
                               None)
    Redact(secrets).filter(record)
    return record.getMessage()


def test_secrets_and_token_shaped_runs_never_reach_the_log() -> None:
    assert line(f"resume {TOKEN} refused") == f"resume {MASK} refused"
    assert line("password hunter2 given", ("hunter2",)) == f"password {MASK} given"
    plain = ("the record could not be read: [Errno 28] No space left on device "
             "/home/player/.local/share/sudden-death/record.sqlite3")
    assert line(plain) == plain  # paths, words and numbers stay


def test_the_log_rotates_and_keeps_two_old_files(tmp_path: Path) -> None:
    logger = logging.getLogger("sudden_death.test_rotation")
    handler = open_log(tmp_path / "log", logger)
    assert handler is not None and not (tmp_path / "log" / FILE_NAME).exists()  # on first line
    try:
        for number in range(3 * MAX_BYTES // 100):
            logger.warning("line %d %s", number, "x" * 90)
    finally:
        logger.removeHandler(handler)
        handler.close()
    files = sorted(path.name for path in (tmp_path / "log").iterdir())
    assert files == [FILE_NAME, *(f"{FILE_NAME}.{n}" for n in range(1, BACKUPS + 1))]
    assert all(path.stat().st_size <= MAX_BYTES + 200 for path in (tmp_path / "log").iterdir())


def test_standard_streams_asked_for_with_none_are_dropped_and_said(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdout", None)
    monkeypatch.setattr(sys, "stdin", None)
    options, said = _without_console(Options(transcript="-", keys="-"))
    assert (options.transcript, options.keys) == (None, None)
    assert said[0].startswith("The transcript goes to standard output, and this game window "
                              "has none: start sudden-death-console")
    assert said[1].startswith("Keys from standard input need a console")
    kept, nothing = _without_console(Options(transcript="t.jsonl", keys="k.txt"))
    assert (kept.transcript, kept.keys, nothing) == ("t.jsonl", "k.txt", [])


WINDOWED = """
import sys
sys.stdout = sys.stderr = sys.stdin = None  # as PyInstaller's windowed (GUI) build has them
sys.argv = ["sudden-death", *sys.argv[1:]]
from sudden_death.__main__ import main
raise SystemExit(main())
"""


def test_a_windowed_game_plays_writes_its_log_and_nothing_to_a_missing_stdout(
        tmp_path: Path) -> None:
    keys = tmp_path / "keys.txt"
    keys.write_text("escape\ndown\nreturn\n")  # quit from the title: Yes
    transcript = tmp_path / "transcript.jsonl"
    config = tmp_path / "config"
    done = subprocess.run(
        [sys.executable, "-c", WINDOWED, "--headless", "--no-sound", "--config", str(config),
         "--keys", str(keys), "--transcript", str(transcript)],
        cwd=ROOT, env=game_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""
    said = [json.loads(row).get("text") for row in transcript.read_text().splitlines()]
    assert "Goodbye." in said
    log = (config / FILE_NAME).read_text(encoding="utf-8")
    assert "Sudden Death 0.1.0 started (from source, windowed" in log
