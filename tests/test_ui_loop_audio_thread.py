"""While a game runs, the loop keeps the mixer's audio thread from waiting: the GIL changes
hands often (a short switch interval) and what was made before the game stays out of the
collector's full passes (gc.freeze). Both are process-wide, so both are put back afterwards."""

from __future__ import annotations

import gc
import sys
from pathlib import Path
from typing import Any

import pytest
from recording import RecordingCues, RecordingSpeaker

from sudden_death.ui.run import loop
from sudden_death.ui.run.cli import Options


class WitnessSpeaker(RecordingSpeaker):
    """Notes the interpreter's state at each line said, that is, inside the running loop."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, float, int]] = []

    def say(self, text: str, *args: Any, **kwargs: Any) -> None:
        self.seen.append((text, sys.getswitchinterval(), gc.get_freeze_count()))
        super().say(text, *args, **kwargs)


def test_the_loop_shortens_the_switch_interval_and_freezes_then_puts_both_back(
        tmp_path: Path) -> None:
    before = sys.getswitchinterval()
    assert before != loop.GIL_SWITCH_SECONDS  # the interpreter's default (5 ms)
    key_file = tmp_path / "keys.txt"
    key_file.write_text("return\ntype Jets\nreturn\n", encoding="utf-8")
    speaker = WitnessSpeaker()
    options = Options(seed=1, headless=True, keys=str(key_file), no_sound=True,
                      config=tmp_path / "cfg")
    assert loop.run_app(options, speaker=speaker, cues=RecordingCues()) == 0
    answers = [seen for seen in speaker.seen if seen[0] == "Name set: Jets."]
    assert answers, speaker.seen  # said in answer to a key, so from inside the loop
    for _text, interval, frozen in answers:
        assert interval == pytest.approx(loop.GIL_SWITCH_SECONDS, abs=1e-6)  # microseconds
        assert frozen > 0
    assert sys.getswitchinterval() == before
    assert gc.get_freeze_count() == 0
