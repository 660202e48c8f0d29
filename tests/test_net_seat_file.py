"""The seat a crashed game goes back to: kept whole, and a damaged file is set aside with a
line in the log, never offered and never deleted."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from sudden_death.storage.seat_file import FILE_NAME, SavedSeat, forget_seat, load_seat, save_seat


def test_a_kept_seat_comes_back_whole_and_is_gone_once_forgotten(tmp_path: Path) -> None:
    seat = SavedSeat("ws://127.0.0.1:8765", "472931", "token-é", "Bears")
    assert load_seat(tmp_path) is None
    save_seat(tmp_path, seat)
    assert load_seat(tmp_path) == seat
    assert [path.name for path in tmp_path.iterdir()] == [FILE_NAME]  # no temporary file left
    forget_seat(tmp_path)
    assert load_seat(tmp_path) is None


@pytest.mark.parametrize("text", ["{", "[]", '{"url": "ws://x"}', "\u0000" * 10,
                                  '{"url": "http://x", "code": "1", "token": "t", "theirs": "B"}',
                                  "[" * 5000])
def test_a_damaged_seat_file_is_set_aside_and_named_in_the_log(
        tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / FILE_NAME).write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sudden_death.seat"):
        assert load_seat(tmp_path) is None
    assert "set aside" in caplog.text
    assert (tmp_path / (FILE_NAME + ".damaged")).read_text(encoding="utf-8") == text
    assert not (tmp_path / FILE_NAME).exists()


def test_a_folder_that_cannot_be_written_only_loses_the_resume(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture
                                                               ) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with caplog.at_level(logging.WARNING, logger="sudden_death.seat"):
        save_seat(blocker, SavedSeat("ws://h:1", "1", "t", "B"))  # must not raise
    assert "could not be kept" in caplog.text
