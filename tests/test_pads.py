"""Game controllers, through SDL's own virtual joystick on the SDL pygame loaded: plugging in
and out said by name, buttons and the left stick as commands, rumble reaching the pad, and
whole games played from a pad alone and from a remapped keyboard alone.

The virtual pad (`ui/run/virtual_pad.py`) is attached through ctypes, so SDL's GameController
layer sees a pad and sends its own events: nothing here posts a pygame event by hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest
from game_script import plan_game
from hypothesis import given
from hypothesis import strategies as st

from sudden_death.engine.events import Event, GameOver
from sudden_death.storage.settings import Settings, save_settings
from sudden_death.ui.keys import own_keys
from sudden_death.ui.keys.keymap import Chord, Command, KeyMap, Pad
from sudden_death.ui.run.pads import RUMBLES, STICK_PRESS, STICK_RELEASE, Pads, stick_direction
from sudden_death.ui.run.virtual_pad import PadDriver

ROOT = Path(__file__).resolve().parent.parent


class Heard:
    def __init__(self) -> None:
        self.keys: list[int] = []
        self.told: list[str] = []
        self.rumbles: list[tuple[int, int]] = []
        self.allowed = True


@pytest.fixture
def pads() -> tuple[Pads, PadDriver, Heard]:
    pygame.display.init()
    heard = Heard()
    found = Pads(press=heard.keys.append, tell=heard.told.append,
                 rumbles=lambda: heard.allowed)
    driver = PadDriver(lambda low, high: heard.rumbles.append((low, high)))
    yield found, driver, heard
    driver.close()
    pump(found)
    found.close()


def pump(found: Pads) -> None:
    for _turn in range(3):
        for event in pygame.event.get():
            found.handle(event)


def test_a_pad_plugged_in_and_out_is_said_by_name(pads: tuple[Pads, PadDriver, Heard]) -> None:
    found, driver, heard = pads
    driver.step("connect Xbox Wireless Controller")
    pump(found)
    assert heard.told == ["Controller connected: Xbox Wireless Controller."]
    driver.step("disconnect")
    pump(found)
    assert heard.told[-1] == "Controller disconnected: Xbox Wireless Controller."
    assert found.pads == {}
    driver.step("connect Second Pad")  # a new one later is found too
    pump(found)
    assert heard.told[-1] == "Controller connected: Second Pad."


def test_buttons_and_the_left_stick_arrive_as_the_key_maps_buttons(
        pads: tuple[Pads, PadDriver, Heard]) -> None:
    found, driver, heard = pads
    driver.step("connect Pad")
    pump(found)
    for step in ("a", "a", "b", "y", "start", "back", "left_shoulder", "dpad_down"):
        driver.step(step)
        pump(found)
    driver.step("stick down")
    pump(found)
    driver.step("stick up")
    pump(found)
    assert heard.keys == [Pad.A.key, Pad.A.key, Pad.B.key, Pad.Y.key, Pad.START.key,
                          Pad.BACK.key, Pad.LEFT_SHOULDER.key, Pad.DPAD_DOWN.key,
                          Pad.DPAD_DOWN.key, Pad.DPAD_UP.key]
    keys = KeyMap.default()
    commands = [keys.command(key, False) for key in heard.keys]
    assert commands == [Command.ACTIVATE, Command.ACTIVATE, Command.BACK, Command.REPEAT,
                        Command.SETTINGS, Command.HELP, Command.PREVIOUS_CONTROL,
                        Command.NEXT_ITEM, Command.NEXT_ITEM, Command.PREVIOUS_ITEM]


def test_rumble_reaches_the_pad_on_a_sack_a_turnover_and_a_score_with_the_setting(
        pads: tuple[Pads, PadDriver, Heard]) -> None:
    found, driver, heard = pads
    found.cue_heard("sack")  # no pad yet: nothing to shake, nothing fails
    driver.step("connect Pad")
    pump(found)
    for cue in ("menu_move", "sack", "turnover", "touchdown", "dice"):
        found.cue_heard(cue)
    low, high, _ms = RUMBLES["sack"]
    assert heard.rumbles[0] == (int(low * 0xFFFF), int(high * 0xFFFF))
    assert len(heard.rumbles) == 3
    heard.allowed = False
    found.cue_heard("touchdown")
    assert len(heard.rumbles) == 3


@given(st.lists(st.integers(-32768, 32767), max_size=40))
def test_the_stick_presses_once_past_half_and_again_only_after_coming_back(
        values: list[int]) -> None:
    held = 0
    for value in values:
        now = stick_direction(value, held)
        if abs(value) >= STICK_PRESS:
            assert now == (1 if value > 0 else -1)
        elif abs(value) < STICK_RELEASE:
            assert now == 0
        else:
            assert now in (0, held)  # between: held as it was, or let go
        held = now


def pad_steps(keys: list[str], plug_again_at: int | None = None) -> list[str]:
    """A whole game's keys (game_script) as a pad's steps: A for Enter, the D-pad and the stick
    in turn for Down, X down the list for the number keys; no typing (the default names)."""
    steps = ["pad connect Xbox Wireless Controller"]
    downs = 0
    for index, key in enumerate(keys):
        if index == plug_again_at:
            steps += ["pad disconnect", "pad connect Second Pad"]
        if key.startswith("type "):
            continue
        if key == "return":
            steps.append("pad a")
        elif key == "down":
            steps.append("pad dpad_down" if downs % 2 == 0 else "pad stick down")
            downs += 1
        elif key == "1":
            steps.append("pad x")
        elif key.isdigit():
            steps += ["pad dpad_down", "pad x"]
        else:
            raise AssertionError(f"no pad step for {key!r}")
    return steps


def run_game(steps: list[str], seed: int, config: Path) -> list[dict[str, object]]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", str(seed),
         "--keys", "-", "--transcript", "-", "--config", str(config)],
        input="\n".join(steps) + "\n", cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=300)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]


def ended(records: list[dict[str, object]], events: list[Event]) -> bool:
    """The game played to its end: one game-over cue, and the final score the plan's engine
    reached said among the last words."""
    over = next(event for event in events if isinstance(event, GameOver))
    cues = [r["name"] for r in records if r["kind"] == "cue"]
    finals = [cue for cue in cues if cue in ("game_won", "game_lost", "game_tied")]
    speech = [str(r["text"]) for r in records if r["kind"] == "speech"][-8:]
    home, away = over.outcome.scores
    return len(finals) == 1 and any(f"Final score: Hawks {home}, Bears {away}." in line
                                    for line in speech)


def test_a_whole_game_from_the_virtual_pad_with_a_pad_plugged_in_again_midway(
        tmp_path: Path) -> None:
    seed = 3
    keys, events = plan_game(seed)
    records = run_game(pad_steps(keys, plug_again_at=len(keys) // 2), seed, tmp_path)
    assert [r for r in records if r["kind"] == "error"] == []
    speech = [str(r["text"]) for r in records if r["kind"] == "speech"]
    assert speech.count("Controller connected: Xbox Wireless Controller.") == 1
    assert "Controller disconnected: Xbox Wireless Controller." in speech
    assert "Controller connected: Second Pad." in speech
    assert ended(records, events)
    # Help named the pad's buttons, not the keyboard's, once the pad was used.
    assert any("press A." in line for line in speech)
    # Every cue that shakes shook the pad connected then, through SDL to the pad's motors.
    rumbled = [r for r in records if r["kind"] == "rumble"]
    shaking = [r for r in records if r["kind"] == "cue" and r["name"] in RUMBLES]
    assert shaking and len(rumbled) == len(shaking)


def test_a_whole_game_with_only_a_remapped_key_set(tmp_path: Path) -> None:
    """Enter's command gets J beside it, Down's K, the number keys Z, X and C: the game is
    played with those alone (but on the naming screens, where J types a J, and Enter stays
    Enter), and the old keys do nothing."""
    keys = KeyMap.default()
    for command, key in ((Command.ACTIVATE, pygame.K_j), (Command.NEXT_ITEM, pygame.K_k),
                         (Command.PICK_1, pygame.K_z), (Command.PICK_2, pygame.K_x),
                         (Command.PICK_3, pygame.K_c)):
        changed = own_keys.give(keys, command, Chord(key)).keys
        assert changed is not None
        keys = changed
    save_settings(Settings(keys=own_keys.changes(keys)), tmp_path)
    seed = 3
    plan, events = plan_game(seed)
    new = {"return": "j", "down": "k", "1": "z", "2": "x", "3": "c"}
    assert plan[1:4] == ["type Hawks", "return", "return"]  # both names typed and accepted
    script = ["down", "2", *(new.get(key, key) if index not in (2, 3) else key
                             for index, key in enumerate(plan))]
    records = run_game(script, seed, tmp_path)
    speech = [str(r["text"]) for r in records if r["kind"] == "speech"]
    refused = "That key does nothing here. Press F1 for help."
    assert speech.count(refused) == 2  # Down and 2, before the game
    assert speech.index(refused) < 5
    assert ended(records, events)
    # The prompts name the new key beside the one that always stays, but not where J types.
    assert any("Enter or J" in line for line in speech)
    assert any("type it and press Enter." in line for line in speech)
    assert not any("type it and press Enter or J" in line for line in speech)


def test_a_pad_step_that_cant_be_done_is_told_and_the_game_goes_on(tmp_path: Path) -> None:
    from sudden_death.ui.run.key_script import KeyScriptError, checked_step

    for bad in ("pad fly", "pad", "pad stick sideways", "pad disconnect now"):
        with pytest.raises(KeyScriptError):
            checked_step(bad)
    records = run_game(["pad a", "pad connect One", "pad connect Two", "f1", "alt+f4"], 1,
                       tmp_path)
    errors = [str(r["text"]) for r in records if r["kind"] == "error"]
    assert errors == ["pad a: no virtual pad is connected: `pad connect` first",
                      "pad connect Two: a virtual pad is connected already"]
    speech = [str(r["text"]) for r in records if r["kind"] == "speech"]
    assert "Controller connected: One." in speech
    assert any(line.startswith("Welcome screen.") for line in speech)  # F1 still answered


def test_rumble_off_in_settings_shakes_nothing_all_game(tmp_path: Path) -> None:
    save_settings(Settings(rumble=False), tmp_path)
    seed = 3
    keys, events = plan_game(seed)
    records = run_game(pad_steps(keys), seed, tmp_path)
    assert ended(records, events)
    assert any(r["kind"] == "cue" and r["name"] in RUMBLES for r in records)
    assert not any(r["kind"] == "rumble" for r in records)
