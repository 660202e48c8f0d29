"""Whole games played through `--keys` in a real subprocess (dummy SDL drivers), judged by the
spoken transcript: options announced, counts on every toggle, down/distance/spot after every
result, scores when they change, both drives, a safety ending the game, and the final message."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from game_script import plan_game

from sudden_death.engine import events as ev
from sudden_death.ui.run.loop import APOLOGY

ROOT = Path(__file__).resolve().parent.parent
TOUCHDOWN_SEED = 0
FINAL_CALLS = re.compile(r"(Final calls: )?[A-Z][A-Za-z ]+ against [A-Z][A-Za-z ]+\.")
# Any phrasing of a new set of downs ("First down at their 32!", "That moves the chains: first
# down at their 32!"), each ending with the spot.
FIRST_DOWN_RE = re.compile(r"(?i)first (down|and goal) at (your own|their own|your|their) \d+!$")
DOWN_RE = re.compile(r"\b(1st|2nd|3rd|4th) and (\d+|goal) at (your own \d+|their own \d+|"
                     r"your \d+|their \d+|midfield)")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    return env


def run_game(tmp_path: Path, seed: int, keys: list[str]) -> tuple[list[dict], str]:
    key_file = tmp_path / "keys.txt"
    key_file.write_text("\n".join(keys) + "\n", encoding="utf-8")
    out = tmp_path / "transcript.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", str(seed),
         "--keys", str(key_file), "--transcript", str(out), "--config", str(tmp_path / "cfg")],
        cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return records, result.stderr


def speech(records: list[dict]) -> list[str]:
    return [r["text"] for r in records if r.get("kind") == "speech"]


@pytest.fixture(scope="module")
def touchdown_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], list]:
    keys, events = plan_game(TOUCHDOWN_SEED)
    records, stderr = run_game(tmp_path_factory.mktemp("td"), TOUCHDOWN_SEED, keys)
    assert "Traceback" not in stderr
    return records, events


def test_the_first_words_welcome_and_offer_help(touchdown_game) -> None:
    lines = speech(touchdown_game[0])
    assert lines[0].startswith("Welcome to Sudden Death")
    assert "F1" in lines[0]
    assert touchdown_game[0][0]["t"] >= 0


def test_every_decision_announces_its_options(touchdown_game) -> None:
    """The first time in a game a decision explains itself in full; afterwards it is a few
    words and the focus, which names the first option and how many there are."""
    lines = speech(touchdown_game[0])
    assert lines[lines.index("Coin toss: heads or tails?") + 1] == "Heads, 1 of 2"
    fourth = [i for i, line in enumerate(lines) if line.startswith("Fourth down")]
    assert fourth and all(lines[i + 1] == "Go for it, 1 of 3" for i in fourth)
    assert lines[fourth[0]].startswith("Fourth down: go for it with your cards, punt, or try")
    assert not any("Play or kick" in line for line in lines)  # no key spent before downs 1-3
    picks = [line for line in lines if line.startswith(("A fresh pick", "Your cards"))]
    full = [line for line in picks if line.startswith("A fresh pick")]
    assert len(full) == 2  # a side's first down, once in each drive; later "Your cards..."
    assert "2 players and 3 calls" in full[0] and "Calls: " in full[0]
    offense = next(line for line in full if line.startswith("A fresh pick for offense"))
    assert offense.endswith("To punt or kick a field goal instead, Tab past Confirm.")
    again = [line for line in picks if line not in full]
    assert len(again) > 6
    # Last down's cards are read with the lesson that they come checked again, then not
    # read back: the player picked them.
    assert re.fullmatch(r"Your cards: [A-Z][\w ]+, [A-Z][\w ]+; [A-Z][\w ]+, [A-Z][\w ]+, "
                        r"[A-Z][\w ]+\. Last down's cards are checked again: Enter plays "
                        r"them, or change a card first\.", again[0])
    assert all(line.startswith("Your cards.") for line in again[1:])
    assert any(line.startswith("Now you may answer their cards: keep all yours, or replace "
                               "one player or one call.") for line in lines)
    assert "Keep or replace?" in lines and "Final call?" in lines
    assert any(line.startswith("Final call: which of your three calls") for line in lines)
    assert APOLOGY not in lines


def test_counts_are_spoken_on_every_toggle(touchdown_game) -> None:
    records, _events = touchdown_game
    lines = speech(records)
    toggles = [line for line in lines
               if re.fullmatch(r"[A-Z][\w ]+, (un)?checked, (\d picked, \d to go|"
                               r"(players|calls) full(\. .*)?)", line)]
    assert len(toggles) == 5 * 2  # the first cards of each drive; later downs keep them
    assert sum(", 1 picked, 1 to go" in t for t in toggles) == 2
    # A full players list hands the focus to the calls; a full hand says how to confirm.
    assert any(t.startswith(("Scatback, checked, players full. Calls: Inside Run, 1 of 6",
                             "Edge Setter, checked, players full. Calls: Stack the Box, 1 of 6"))
               for t in toggles)
    assert any(t.endswith(", checked, calls full. Enter confirms.") for t in toggles)


def test_each_result_says_down_distance_and_spot(touchdown_game) -> None:
    lines = speech(touchdown_game[0])
    starts = [i for i, line in enumerate(lines) if FINAL_CALLS.fullmatch(line)]
    assert starts
    for index in starts:
        following = lines[index + 1 : index + 12]
        said = next((x for x in following if DOWN_RE.search(x) or FIRST_DOWN_RE.search(x)
                     or x.startswith(("Drive 2 of 2", "Final score"))), None)
        assert said is not None, following


def test_scores_are_announced_when_they_change(touchdown_game) -> None:
    """Each new score is said once: after the last points of a play, or in the final score."""
    records, events = touchdown_game
    lines = speech(records)
    # The score each drive ended with (its last change) is heard; 6 before the extra point
    # is not, since the extra point's result is said straight after it.
    last_change: ev.ScoreChanged | None = None
    ended_with = []
    for event in events:
        if isinstance(event, ev.ScoreChanged):
            last_change = event
        elif isinstance(event, ev.DriveEnded) and last_change is not None:
            ended_with.append(last_change.scores)
            last_change = None
    assert ended_with, "seed 0 should score"
    for home, away in ended_with:
        assert any(f"Hawks {home}, Bears {away}." in line for line in lines), (home, away)
    assert any("touchdown" in line.lower() for line in lines)
    assert not any("Hawks 0, Bears 6." in line or "Hawks 6, Bears 0." in line
                   for line in lines)


def test_both_drives_happen_and_the_final_message(touchdown_game) -> None:
    lines = speech(touchdown_game[0])
    assert any(re.fullmatch(r"Drive 1 of 2: (Hawks|Bears) ball, 1st and 10 at "
                            r"(your|their) own 25\.", line) for line in lines)
    assert any(re.match(r"Drive 2 of 2: (Hawks|Bears) ball, 1st and 10 at", line)
               for line in lines)
    finals = [line for line in lines if line.startswith("Final score")]
    assert len(finals) == 1
    assert lines[-2:] == ["Play again or quit?", "Play again, 1 of 2"]


def _safety_seed() -> int:
    """The first seed whose scripted game ends on a safety (found with the engine alone)."""
    for seed in range(1200, 6000):
        if any(isinstance(event, ev.Safety) for event in plan_game(seed)[1]):
            return seed
    raise AssertionError("no safety seed found")


def test_a_safety_ends_the_game(tmp_path: Path) -> None:
    seed = _safety_seed()
    keys, _ = plan_game(seed)
    records, stderr = run_game(tmp_path, seed, keys)
    assert "Traceback" not in stderr
    lines = speech(records)
    safety = next(i for i, line in enumerate(lines) if line.startswith("Safety!"))
    final = next(i for i, line in enumerate(lines) if line.startswith("Final score"))
    assert safety < final
    assert "ended on a safety" in lines[final]
    assert not any(line.startswith(("Play or kick?", "Your cards", "Pick your"))
                   for line in lines[safety:])
    cues = [r["name"] for r in records if r.get("kind") == "cue"]
    assert "safety" in cues


def test_keys_from_stdin_report_waiting(tmp_path: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", "1",
         "--keys", "-", "--transcript", "-", "--config", str(tmp_path / "cfg")],
        cwd=ROOT, env=_env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    ) as proc:  # the with block closes the pipes and reaps the game however the test ends
        timer = threading.Timer(30, proc.kill)
        timer.start()
        try:
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write("s\nreturn\n")
            proc.stdin.flush()
            seen: list[dict] = []
            while True:
                line = proc.stdout.readline()
                assert line, "the game ended before it waited"
                seen.append(json.loads(line))
                if seen[-1] == {"kind": "waiting"} and any(
                    r.get("text", "").startswith("No game yet") for r in seen
                ):
                    break
            proc.stdin.close()
            assert proc.wait(timeout=20) == 0
        finally:
            timer.cancel()
            if proc.poll() is None:
                proc.kill()
    assert any(r.get("text", "").startswith("Your team's name") for r in seen)
