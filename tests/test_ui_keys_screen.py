"""The Keys screen as a player meets it: from settings, a command's new key by pressing it,
refusals that name who has the key, the swap, the protected keys, resets, the map saved and
read back (and a damaged one told), and help that names the player's own keys."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
from app_driver import press, started_app
from recording import RecordingSpeaker

from sudden_death.storage.settings import Settings, load_settings, save_settings
from sudden_death.ui.aids.keys_screen import KeyCapture, KeysScreen
from sudden_death.ui.app import App
from sudden_death.ui.keys import own_keys
from sudden_death.ui.keys.keymap import Chord, Command, KeyMap, Pad
from sudden_death.ui.words.commands import COMMAND_NAMES

REPEAT_LINE = list(COMMAND_NAMES).index(Command.REPEAT)


def open_keys(app: App) -> None:
    press(app, "o", "end", "up", "up", "up", "return")  # Settings: Done, Reset, Report a
    # problem, Keys and buttons
    assert isinstance(app.top, KeysScreen)


def to_repeat(app: App) -> None:
    press(app, "home", *["down"] * REPEAT_LINE)


def said(speaker: RecordingSpeaker) -> str:
    return speaker.spoken[-1].text


def test_a_command_gets_the_key_pressed_and_help_and_the_game_follow(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    open_keys(app)
    assert said(speaker).startswith("Keys. Up and Down go through the commands; Enter gives "
                                    "the focused one a new key or button; Delete or Backspace "
                                    "puts back its own. Next control: Tab; controller: right "
                                    "shoulder, 1 of 50")
    to_repeat(app)
    assert said(speaker) == "Repeat: R; controller: Y"
    press(app, "return")
    assert isinstance(app.top, KeyCapture)
    assert said(speaker) == ("Press the new key or controller button for Repeat, now R; "
                             "controller: Y. Escape or B cancels.")
    press(app, "down")  # in use: refused, with the command that has it
    assert said(speaker) == "Down is already Next item in a list. Enter swaps them, so Next " \
                            "item in a list gets R; Escape keeps both; or press another key."
    press(app, "j")  # a free one: taken at once
    assert said(speaker) == "Repeat: J; controller: Y"
    assert isinstance(app.top, KeysScreen)
    assert load_settings(tmp_path)[0].keys == (("repeat", ("j", "pad:y")),)
    press(app, "escape", "escape")  # Keys, then settings: the title screen
    press(app, "j")  # the last announcement, again
    assert said(speaker) == "No saved settings yet, so the defaults are used. O opens settings."
    press(app, "r")
    assert said(speaker) == "That key does nothing here. Press F1 for help."
    press(app, "f1", "f1")
    assert "J repeats the last announcement" in said(speaker)
    assert "R repeats" not in said(speaker)


def test_a_swap_a_cancel_and_the_protected_keys(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    open_keys(app)
    to_repeat(app)
    press(app, "return", "s")
    assert said(speaker) == ("S is already Score and situation. Enter swaps them, so Score and "
                             "situation gets R; Escape keeps both; or press another key.")
    press(app, "return")
    assert said(speaker) == "Repeat: S; controller: Y"
    app.keys.speaks_pad = False
    assert app.keys.command(114, False) is Command.SITUATION  # R
    press(app, "return", "f1")
    assert said(speaker).startswith("Press the new key or controller button for Repeat")
    press(app, "return")  # Enter always presses
    assert said(speaker) == "Enter always stays Press or confirm. Press another key, or Escape."
    press(app, "f1")
    press(app, "escape")
    assert said(speaker) == "Unchanged. Repeat: S; controller: Y"
    press(app, "up", "return", "shift+s")  # Score and situation, above: Shift+S is free
    assert said(speaker) == "Score and situation: Shift+S; controller: left stick press"
    press(app, "down", "delete")  # Repeat back to R: but R is now nobody's and S is free
    assert said(speaker) == "Its own keys again. Repeat: R; controller: Y"
    press(app, "up", "backspace")
    assert said(speaker) == "Its own keys again. Score and situation: S; controller: left " \
                            "stick press"
    assert load_settings(tmp_path)[0].keys == ()


def test_reset_blocked_while_its_key_is_elsewhere_then_reset_all(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    open_keys(app)
    to_repeat(app)
    press(app, "return", "s", "return")  # swapped: S repeats, R tells the situation
    press(app, "delete")
    assert said(speaker) == ("Repeat's own keys are taken by Score and situation; change those "
                             "first.")
    press(app, "end", "up", "return")  # Reset all keys
    assert said(speaker).startswith("Every key is back to the game's own.")
    assert load_settings(tmp_path)[0].keys == ()
    assert app.keys.command(114, False) is Command.REPEAT


def test_saved_keys_are_used_at_the_next_start_and_a_damaged_entry_is_told(
        tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps(
        {"keys": {"repeat": ["j", "pad:y"], "where": ["j"], "situation": ["no such key"]}}))
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    spoken = [message.text for message in speaker.spoken]
    assert ("Some of your keys could not be used, so these have their own keys again: Score "
            "and situation, Repeat and Where the focus is.") in spoken
    assert app.keys.command(114, False) is Command.REPEAT  # R
    assert app.keys.command(119, False) is Command.WHERE  # W


def test_a_controller_button_is_chosen_the_same_way_and_help_names_buttons(
        tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    open_keys(app)
    to_repeat(app)
    app.handle_key(Pad.A.key, 0)  # A on a pad: waits for the new one
    assert isinstance(app.top, KeyCapture)
    app.handle_key(Pad.X.key, 0)
    assert said(speaker) == ("X is already Check or select. Enter swaps them, so Check or "
                             "select gets Y; Escape keeps both; or press another key.")
    app.handle_key(Pad.A.key, 0)
    assert said(speaker) == "Repeat: R; controller: X"
    app.handle_key(Pad.BACK.key, 0)  # help, said in the pad's own buttons
    assert "D-pad up and D-pad down go through them. A on one waits" in said(speaker)
    press(app, "down", "f1")  # the keyboard again: its keys
    assert "Up and Down go through them. Enter on one waits" in said(speaker)


def test_a_letter_given_to_a_command_still_types_on_a_typing_screen(tmp_path: Path) -> None:
    keys = own_keys.give(KeyMap.default(), Command.ACTIVATE, Chord(pygame.K_j)).keys
    assert keys is not None
    keys = own_keys.give(keys, Command.SILENCE, Chord(pygame.K_k)).keys
    assert keys is not None
    save_settings(Settings(keys=own_keys.changes(keys)), tmp_path)
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    press(app, "j")  # Start a game: J presses
    # Here J types a J, so the prompt names only Enter.
    assert said(speaker) == ("Your team's name: type it and press Enter. Leave it empty "
                             "for Hawks.")
    press(app, "j", "k")  # typed: the naming screen waits for their letters
    app.handle_text("J")
    app.handle_text("k")
    assert app.top.help_key == "naming" and app.top.text == "Jk"  # type: ignore[attr-defined]
    press(app, "return")
    assert "Name set: Jk." in [message.text for message in speaker.spoken[-3:]]
