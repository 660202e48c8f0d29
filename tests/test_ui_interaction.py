"""Keys and screens in one process: the menu model, key-script parsing, and the spoken answers
to mistakes, help, sections, details, quitting and conceding."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from recording import RecordingCues, RecordingSpeaker

from sudden_death.ui.run.cli import Options, parse_options
from sudden_death.ui.run.key_script import Step, parse_step
from sudden_death.ui.run.loop import APOLOGY, run_app
from sudden_death.ui.screens.menu import Group, Item, ItemKind, Menu
from sudden_death.ui.words.verbosity import Telling, Verbosity

FULL_DETAIL, NORMAL_DETAIL, SHORT_DETAIL = (Telling.preset(level) for level in (
    Verbosity.DETAILED, Verbosity.NORMAL, Verbosity.SHORT))

ROOT = Path(__file__).resolve().parent.parent
# Both final calls, as every verbosity but detailed says them: "Inside Run against Blitz."
FINAL_CALLS = re.compile(r"(Final calls: )?[A-Z][A-Za-z ]+ against [A-Z][A-Za-z ]+\.")
# Seed 1 with heads: the player wins the toss, so the first decisions are known.
TO_SELECTION = ["return", "type Jets", "return", "return", "return", "return"]


def play(tmp_path: Path, keys: list[str], seed: int = 1) -> tuple[list[str], list[str]]:
    """Run the app in this process; return what was spoken and the cues played."""
    key_file = tmp_path / "keys.txt"
    key_file.write_text("\n".join(keys) + "\n", encoding="utf-8")
    speaker, cues = RecordingSpeaker(), RecordingCues()
    options = Options(seed=seed, headless=True, keys=str(key_file), no_sound=True,
                      config=tmp_path / "config")
    assert run_app(options, speaker=speaker, cues=cues) == 0
    return [m.text for m in speaker.spoken], cues.played


def test_key_steps_parse() -> None:
    assert parse_step("shift+tab") == Step(key="tab", shift=True)
    assert parse_step("ctrl+s") == Step(key="s", ctrl=True)
    assert parse_step("type Big Red") == Step(text="Big Red")
    assert parse_step("enter") == Step(key="return")
    assert parse_step("# comment") is None and parse_step("  ") is None


def test_options_parse() -> None:
    options = parse_options(["--seed", "5", "--headless", "--keys", "-", "--no-sound",
                             "--config", "/tmp/x", "--transcript", "-"])
    assert options.seed == 5 and options.headless and options.keys == "-"
    assert options.no_sound and options.transcript == "-" and str(options.config) == "/tmp/x"


def test_menu_positions_edges_limits_and_numbers() -> None:
    group = Group("Players", [Item(n, ItemKind.CHECKBOX, note="player") for n in "ABCD"],
                  limit=2, noun="players")
    menu = Menu("Pick", [group, Group("Go", [Item("Confirm")])], telling=FULL_DETAIL)
    menu.status = lambda: f"{len(group.checked())} of 2 players"
    assert menu.describe() == "A, player, not checked, 1 of 4"
    assert menu.move(-1).cue == "menu_edge"
    assert menu.pick(2).text == "B, checked, 1 of 2 players"  # a number key names the card
    assert menu.describe() == "B, player, checked, 2 of 4"
    menu.move(-1)
    assert menu.toggle().text == "Checked, 2 of 2 players"  # Space: the label was just heard
    menu.toggle()
    menu.move(1)
    menu.telling = NORMAL_DETAIL  # the state only when checked; the position on entering
    assert menu.describe() == "B, player, checked"
    assert menu.move(1).text == "C, player"
    assert menu.describe_group() == "Players: C, player, 3 of 4"
    menu.telling = SHORT_DETAIL  # no note either
    assert menu.describe() == "C" and menu.move(-1).text == "B, checked"
    menu.telling = FULL_DETAIL
    menu.pick(3)
    refused = menu.pick(4)
    assert refused.cue == "menu_error" and "already have 2 players" in refused.text
    assert menu.end().text.endswith("4 of 4") and menu.home().text.endswith("1 of 4")
    assert menu.pick(9).cue == "menu_error"
    assert menu.next_group(1).text == "Go: Confirm, 1 of 1"  # buttons are not called buttons
    assert menu.activate().activated is not None
    radio = Menu("R", [Group("Pick one", [Item(x, ItemKind.RADIO) for x in "XY"])])
    radio.move(1)
    assert [i.checked for i in radio.group.items] == [False, True]


def test_naming_echo_backspace_and_default(tmp_path: Path) -> None:
    spoken, _ = play(tmp_path, ["return", "type Ab", "backspace", "backspace", "backspace",
                                "return", "type Owls", "return"])
    assert "A" in spoken and "b" in spoken
    assert "Removed b." in spoken and "Removed A." in spoken
    assert any("name is empty" in s for s in spoken)
    assert "No name typed, so the default: Hawks." in spoken
    assert "You are the Hawks; the computer plays the Owls." in spoken


def test_wrong_counts_say_what_is_missing(tmp_path: Path) -> None:
    # 2 fills the players and moves to the calls; Shift+Tab goes back to try a third player.
    spoken, cues = play(tmp_path, [*TO_SELECTION, "1", "return", "2", "shift+tab", "3", "tab",
                                   "1", "return"])
    # A count is said as picked and to go, never as "N of M" (that is where the focus is).
    assert "Scatback, checked, players full. Calls: Inside Run, 1 of 6" in spoken
    assert "Power Back, checked, 1 picked, 1 to go" in spoken
    assert any(s.startswith("Not yet: pick 1 more player and 3 more calls.") for s in spoken)
    assert any("You already have 2 players. Uncheck one first." in s for s in spoken)
    assert any(s.startswith("Not yet: pick 2 more calls.") for s in spoken)
    assert "menu_error" in cues


def test_field_goal_past_65_yards_says_why(tmp_path: Path) -> None:
    # Before fourth down the kicks are the last list of the card screen: Shift+Tab twice.
    spoken, cues = play(tmp_path, [*TO_SELECTION, "shift+tab", "shift+tab", "2", "return"])
    assert ("Or kick instead: Punt: lands at their 45 (16 percent), their 35 (68 percent) or "
            "their 25 (16 percent), 1 of 2") in spoken
    assert "Field goal: 92 yards is too far; the longest is 65, unavailable" in spoken
    assert spoken[-1] == "Field goal: 92 yards is too far; the longest is 65."
    assert cues[-1] == "menu_error"


def test_help_situation_sections_details_and_repeat(tmp_path: Path) -> None:
    spoken, _ = play(tmp_path, [*TO_SELECTION, "f1", "f1", "s", "d", "d", "h", "h", "down",
                                "d", "h", "end", "shift+h", "h", "h", "r", "x"])
    help_said = [s for s in spoken if s.startswith("Pick 2 players and 3 calls")]
    assert len(help_said) == 1 and help_said[0].endswith("F1 again lists every key.")
    assert "Tab and Shift+Tab" not in help_said[0]
    keys_said = spoken[spoken.index(help_said[0]) + 1]
    assert keys_said.startswith("Keys: Tab and Shift+Tab")  # the second F1
    assert any(s.startswith("Score: Jets 0, Bears 0. Drive 1 of 2, you are on offense.")
               and "1st and 10 at your own 25" in s for s in spoken)
    assert any(s.startswith("Power Back, offense player: adds 1") for s in spoken)
    assert "Details closed." in spoken
    assert "Computer calls. Their cards: Nothing revealed yet, 1 of 1" in spoken
    assert any(s.startswith("Rosters. Jets, offense: Power Back, offense player, 1 of 10")
               for s in spoken)
    assert any(s.startswith("Scatback, offense player: adds 1") for s in spoken)
    assert any(s.startswith("Game log, ") and "entries:" in s for s in spoken)
    assert any(s.startswith("Current decision.") for s in spoken)
    assert spoken[-1] == "That key does nothing here. Press F1 for help."
    # R repeated the last announcement (the drive's first words), not the section just read.
    assert spoken[-2] == "Drive 1 of 2: Jets ball, 1st and 10 at your own 25."


def test_escape_asks_before_quitting_and_returns_focus(tmp_path: Path) -> None:
    spoken, _ = play(tmp_path, [*TO_SELECTION, "down", "escape", "return", "escape", "down",
                                "return"])
    assert any(s.startswith("Quit Sudden Death? Your game is kept for next time. No, 1 of 2")
               for s in spoken)  # a game under way is kept
    assert "Back. Players: Scatback, 2 of 4" in spoken
    assert spoken[-1] == "Goodbye."


def test_concede_is_offered_first_and_confirmed(tmp_path: Path) -> None:
    spoken, _ = play(tmp_path, [*TO_SELECTION, "shift+tab", "return", "down", "return"])
    assert "Concede: Concede the game, 1 of 1" in spoken
    assert any(s.startswith("Concede the game? The Bears would win.") for s in spoken)
    final = next(s for s in spoken if s.startswith("Final score"))
    conceded, call = final.split("The Jets conceded. ")  # then who won, in any phrasing
    assert conceded.startswith("Final score: ") and "Bears" in call and "tie" not in call


def test_play_again_starts_a_new_game(tmp_path: Path) -> None:
    spoken, _ = play(tmp_path, [*TO_SELECTION, "shift+tab", "return", "down", "return",
                                "return"])
    assert "New game." in spoken
    assert spoken[-2:] == ["Coin toss: heads or tails?", "Heads, 1 of 2"]


@pytest.mark.parametrize("seed", [7])
def test_random_keys_never_crash_and_keep_progressing(tmp_path: Path, seed: int) -> None:
    """Thousands of seeded random keys through the real subprocess; no traceback, no apology,
    and many downs played (games end and restart along the way)."""
    rng = random.Random(seed)
    vocabulary = (["return"] * 12 + ["space"] * 6 + ["tab"] * 4 + ["shift+tab", "up", "down",
                  "left", "right", "home", "end", "h", "shift+h", "s", "r", "d", "f1",
                  "backspace", "left ctrl", "x", "q", "type ab", "0", "ctrl+d"]
                  + [str(n) for n in range(1, 10)] * 2)
    downs = games = 0
    for run in range(3):  # a random walk may confirm Quit; each run is a fresh launch
        keys = ["return", "type R", "return", "return"]
        keys += [rng.choice(vocabulary) for _ in range(1500)]
        key_file = tmp_path / f"keys{run}.txt"
        key_file.write_text("\n".join(keys) + "\n", encoding="utf-8")
        out = tmp_path / f"t{run}.jsonl"
        result = subprocess.run(
            [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed",
             str(seed + run), "--keys", str(key_file), "--transcript", str(out),
             "--config", str(tmp_path / "config")],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr, result.stderr
        spoken = [json.loads(line).get("text", "") for line in out.read_text().splitlines()]
        assert APOLOGY not in spoken
        downs += sum(1 for s in spoken if FINAL_CALLS.fullmatch(s))
        games += sum(1 for s in spoken if s.startswith("Final score"))
    assert downs >= 3, downs  # random keys rarely complete a selection, yet some downs are played
    assert games >= 2, games  # games end (often by a random concede) and restart
    assert downs + games >= 10
