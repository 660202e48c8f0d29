"""Report a problem: one plain text file with what a helper needs (the version, the system, the
sound, the settings, the last lines said, the log's end) and nothing else of the computer's:
no home folder but the report's own path, no table password, no seat token."""

from __future__ import annotations

import platform
import sys
from pathlib import Path

import pygame
import pytest
from app_driver import started_app
from recording import RecordingCues, RecordingSpeaker

from sudden_death import __version__
from sudden_death.audio.protocols import Category
from sudden_death.storage.report import FILE_NAME, ReportFacts, report_text
from sudden_death.storage.seat_file import SavedSeat, save_seat
from sudden_death.storage.settings import Settings, save_settings
from sudden_death.ui.run.cli import Options
from sudden_death.ui.run.loop import run_app
from sudden_death.ui.run.report_facts import copy_to_clipboard

PASSWORD = "hunter-two-secret"
TOKEN = "Zq8vK3mWx7LpR2nT5bYc9dFh"  # shaped as secrets.token_urlsafe(18) gives
# Seed 1 with heads: the player wins the toss; then one whole down with the first cards.
ONE_DOWN = ["return", "type Jets", "return", "return", "return", "return",
            "1", "2", "1", "2", "3", "return", "return", "return"]
# Settings (O) from anywhere: End is Done, then Reset, then Report a problem.
SETTINGS_REPORT = ["o", "end", "up", "up", "return"]
TITLE_REPORT = ["end", "up", "up", "return"]  # the title: Report a problem, Play a friend, Quit


def run(tmp_path: Path, keys: list[str], folder: Path) -> RecordingSpeaker:
    key_file = tmp_path / "keys.txt"
    key_file.write_text("\n".join(keys) + "\n", encoding="utf-8")
    speaker = RecordingSpeaker()
    options = Options(seed=1, headless=True, keys=str(key_file), no_sound=True, config=folder)
    assert run_app(options, speaker=speaker, cues=RecordingCues()) == 0
    return speaker


def with_secrets(folder: Path) -> None:
    assert save_settings(Settings(table_password=PASSWORD, speech_rate=222), folder) is None
    save_seat(folder, SavedSeat("ws://127.0.0.1:8765", "ABCD", TOKEN, "Bears"))


def test_a_report_after_a_down_holds_what_helps_and_no_secret(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))  # the player's files are in their home
    folder = tmp_path / "cfg"
    with_secrets(folder)
    # The title offers the saved seat's table first: Down to Start a game.
    speaker = run(tmp_path, ["down", *ONE_DOWN, *SETTINGS_REPORT], folder)
    path = folder / FILE_NAME
    said = [m.text for m in speaker.spoken]
    assert f"A problem report was written to {path}. Send that file to whoever helps you." \
        in said  # no clipboard without a real window, and not a word about one
    text = path.read_text(encoding="utf-8")
    assert f"version: {__version__}" in text
    assert f"system: {platform.platform()}" in text
    assert f"python: {sys.version.split()[0]}" in text
    assert "speech output: builtin" in text and "sound: RecordingCues" in text
    assert "speech_rate: 222" in text and "table_password: \"(set, not shown)\"" in text
    game = [m.text for m in speaker.spoken if m.category in (Category.RESULT, Category.DECISION)]
    assert "Inside Run against Blitz." in text and game[-1] in text  # the last lines said
    assert "Sudden Death" in text.split("== the log's end ==")[1]  # the log's first line
    assert PASSWORD not in text and TOKEN not in text
    assert str(tmp_path) not in text  # only the spoken path names the home folder


def test_the_title_screen_item_says_the_whole_path(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    speaker = run(tmp_path, TITLE_REPORT, folder)
    said = [m.text for m in speaker.spoken]
    assert "Main menu: Start a game, 1 of 12" in said and "Report a problem" in said
    assert said[-1] == (f"A problem report was written to {folder / FILE_NAME}. Send that "
                        "file to whoever helps you.")
    assert (folder / FILE_NAME).is_file()


def test_a_report_that_cannot_be_written_is_said_plainly(tmp_path: Path) -> None:
    folder = tmp_path / "cfg"
    (folder / FILE_NAME).mkdir(parents=True)  # where the file would go: a folder
    speaker = run(tmp_path, TITLE_REPORT, folder)
    said = [m.text for m in speaker.spoken]
    assert said[-1].startswith("The problem report could not be written: ")
    assert "Traceback" not in " ".join(said) and "Error" not in said[-1]
    assert not list(folder.glob(".report-*"))  # no temporary file left


def test_the_home_folder_is_written_as_a_tilde_and_secrets_masked() -> None:
    home = str(Path.home())
    facts = ReportFacts(version="1", system="Linux", python="3", back_ends=[("voice", "x")],
                        settings=Settings(table_password="pw-long-enough"),
                        said=[*[f"line {n}" for n in range(300)],
                              f"Exported to {home}/Documents/x.csv", "the pw-long-enough"],
                        log=None, secrets=["pw-long-enough", "TOKEN123abcXYZ"], home=home)
    text = report_text(facts)
    assert home not in text and "~/Documents/x.csv" in text
    assert "pw-long-enough" not in text and "the ***" in text
    assert "line 101\n" not in text and "line 102\n" in text  # the last 200 lines


def test_the_first_fault_notice_says_how_to_report_it_once(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    heard = len(speaker.spoken)
    app.tell_notice("Settings could not be saved.", cue=False)  # no fault cue: no offer
    app.tell_notice("The voice stopped: no sound device.")
    app.tell_notice("The sound effects stopped: no sound device.")
    assert [m.text for m in speaker.spoken[heard:]] == [
        "Settings could not be saved.", "The voice stopped: no sound device.",
        "To tell someone, choose Report a problem on the title screen or in settings.",
        "The sound effects stopped: no sound device."]


def test_no_clipboard_under_the_dummy_driver() -> None:
    """SDL's dummy driver "keeps" a clipboard text only for itself: the game says nothing."""
    pygame.display.init()
    assert pygame.display.get_driver() == "dummy"
    assert copy_to_clipboard("/a/path") is False
