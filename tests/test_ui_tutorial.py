"""How to play and the guided first drive: reachable from the title screen and spoken, checked on
the transcript of a real scripted run in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sudden_death.ui.aids.lesson import lesson_end, tip
from sudden_death.ui.keys.keymap import KeyMap
from sudden_death.ui.words.rules import rules_sections

ROOT = Path(__file__).resolve().parent.parent
SEED = 1  # heads wins the toss, so the guided down is played on offense


def run(tmp_path: Path, keys: list[str]) -> list[str]:
    key_file = tmp_path / "keys.txt"
    key_file.write_text("\n".join(keys) + "\n", encoding="utf-8")
    out = tmp_path / "transcript.jsonl"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", str(SEED),
         "--config", str(tmp_path / "cfg"), "--keys", str(key_file), "--transcript", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return [r["text"] for r in records if r.get("kind") == "speech"]


def test_rules_then_guided_first_drive_from_the_title_screen(tmp_path: Path) -> None:
    sections = rules_sections()
    keys = ["down", "down", "return"]  # How to play
    keys += ["down"] * (len(sections) - 1) + ["down", "return", "f1", "escape"]
    keys += ["up", "return"]  # Guided first drive
    keys += ["return", "return", "1", "2", "1", "2", "3", "return",
             "return", "return"]
    spoken = run(tmp_path, keys)
    assert spoken[0].startswith("Welcome")
    assert "Guided first drive" in spoken and "How to play" in spoken  # arrowed to
    intro = f"How to play, {len(sections)} short sections."
    opened = spoken.index(next(s for s in spoken if s.startswith(intro)))
    title, text = sections[0]
    assert spoken[opened].endswith(f"{title}. {text} 1 of {len(sections)}.")
    for number, (title, text) in enumerate(sections[1:], 2):
        assert f"{title}. {text} {number} of {len(sections)}." in spoken
    last = f"{sections[-1][0]}. {sections[-1][1]} {len(sections)} of {len(sections)}."
    assert spoken.count(last) == 2  # reached, then Enter again
    assert f"{sections[-1][0]}, {len(sections)} of {len(sections)}" in spoken  # the edge
    assert any(s.startswith("How to play: the rules in short sections") for s in spoken)
    assert any(s.startswith("Back. Main menu: How to play") for s in spoken)
    lesson = spoken.index(next(s for s in spoken if s.startswith("Guided first drive. We will")))
    after = spoken[lesson:]
    keys = KeyMap.default()
    for key in ("coin", "side", "selection", "substitution", "final"):
        assert after.count(tip(key, keys)) == 1, key
    # Each tip follows its screen's own question and focus.
    assert after[after.index(tip("coin", keys)) - 2].startswith("Coin toss")
    assert after[after.index(tip("final", keys)) - 2].startswith("Final call")
    assert any(s.startswith("Final calls:") for s in after)  # told in detail
    assert any("Bands run from minus 3 to plus 3" in s for s in after)
    assert any(s.startswith("Yardage roll ") and "of 100" in s for s in after)
    assert after.count(tip("result", keys)) == 1  # after the first down: S, L, the history
    assert lesson_end(keys) not in after  # the lesson lasts the whole drive now


def test_rules_are_our_own_short_sections() -> None:
    seed = (ROOT.parent / "shared" / "seeds" / "000_8f150de418b24387.txt")
    sections = rules_sections()
    assert len(sections) >= 8
    for title, text in sections:
        assert title and 80 < len(text) < 520, title
    if seed.exists():  # no sentence copied from the seed's rules
        source = seed.read_text(encoding="utf-8")
        for _, text in sections:
            for sentence in text.split(". "):
                assert len(sentence) < 40 or sentence.strip(".") not in source, sentence
