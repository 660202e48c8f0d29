"""One key map as data: the app dispatches through it, and F1's key list, every help text and
the docs' key table are written from it, so none of them can name a key that does something
else, or leave a bound key unexplained."""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

import pygame
import pytest
from app_driver import press
from recording import RecordingCues, RecordingSpeaker

from sudden_death import language
from sudden_death.ui.app import App
from sudden_death.ui.keys.keymap import (
    KEY_HELP,
    SCREEN_KEY_HELP,
    Binding,
    Chord,
    Command,
    Context,
    KeyMap,
    default_bindings,
)
from sudden_death.ui.keys.own_keys import kept_names
from sudden_death.ui.words.help import SCREENS, screen_help

ROOT = Path(__file__).resolve().parent.parent
PLACEHOLDER = re.compile(r"\{([a-z_0-9]+)\}")
# Words that name a key. A help template must never spell one out (it says {activate}, which
# the key map fills in); elsewhere each one spelled out must name a bound key.
KEY_WORDS = re.compile(r"\b(Shift\+\w+|Tab|Enter|Space|Escape|Home|End|Up|Down|Left|Right|"
                       r"F\d+|Backspace|Control|Page Up|Page Down|[Cc]omma|[Pp]eriod|[Ss]lash|"
                       r"[B-HJ-Z])\b")
COUNTS = {"players", "calls", "low", "high", "they_chose", *kept_names()}  # filled by help.py


def game_commands(keys: KeyMap) -> set[Command]:
    return {binding.command for binding in keys.bindings if binding.context is Context.GAME}


def test_every_game_command_is_in_the_key_list_once_and_each_entry_names_its_own() -> None:
    listed = [command for entry in KEY_HELP for command in entry.commands]
    assert sorted(listed, key=lambda c: c.value) == sorted(game_commands(KeyMap.default()),
                                                           key=lambda c: c.value)
    assert len(listed) == len(set(listed))
    for entry in KEY_HELP:
        named = set(PLACEHOLDER.findall(entry.spoken))
        wanted = {command.value for command in entry.commands}
        if entry.commands[0] is Command.PICK_1:  # the range names its two ends
            wanted = {"pick_1", "pick_9"}
        assert named == wanted, entry.spoken
        assert entry.summary


def test_every_screen_command_has_a_docs_row_and_is_named_by_its_screens_help() -> None:
    keys = KeyMap.default()
    screen_commands = {b.command for b in keys.bindings if b.context is not Context.GAME}
    documented = {c for _context, entry in SCREEN_KEY_HELP for c in entry.commands}
    assert documented == screen_commands
    named = {name for text in SCREENS.values() for name in PLACEHOLDER.findall(text)}
    assert {command.value for command in screen_commands} <= named


@pytest.mark.parametrize("code", language.available())
def test_every_help_text_names_only_bound_keys_in_every_language(code: str) -> None:
    keys = KeyMap.default()
    bound = set(keys.placeholders())
    with language.using(language.load(code)):
        for name, text in SCREENS.items():
            unknown = set(PLACEHOLDER.findall(text)) - bound - COUNTS
            assert not unknown, (name, unknown)
            assert "{" not in screen_help(name, keys)
        assert "{" not in keys.key_list()


def test_no_help_template_spells_a_key_out() -> None:
    """Spelled out, a key would stay in the help after a binding changed."""
    spelled = {name: KEY_WORDS.findall(PLACEHOLDER.sub("", text))
               for name, text in SCREENS.items()}
    spelled.update({entry.spoken: KEY_WORDS.findall(PLACEHOLDER.sub("", entry.spoken))
                    for entry in KEY_HELP})
    assert {name: words for name, words in spelled.items() if words} == {}


def test_a_key_spelled_out_anywhere_else_is_a_bound_one() -> None:
    """Prompts, the lesson and notices still say some keys by name: each must be bound."""
    from babel.messages.pofile import read_po

    keys = KeyMap.default()
    names = {chord.name() for binding in keys.bindings for chord in binding.chords}
    names |= {"Shift", "arrow", "arrows"}  # "Shift for bigger steps", "Down arrow to ..."
    with (language.locale_dir() / f"{language.DOMAIN}.pot").open("rb") as handle:
        template = read_po(handle)
    unbound = {}
    for message in template:
        text = message.id if isinstance(message.id, str) else message.id[0]
        if not text or message.context == "key":
            continue
        words = set(KEY_WORDS.findall(PLACEHOLDER.sub("", text)))
        words = {word.capitalize() if word.islower() else word for word in words}
        if words - names:
            unbound[text[:60]] = words - names
    assert unbound == {}


def test_the_docs_key_tables_are_the_key_maps_own() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "key_table.py"), "--check"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    table = KeyMap.default().markdown_table()
    for doc in ("README.md", "docs/playing.md"):
        assert table in (ROOT / doc).read_text(encoding="utf-8")


def test_the_app_does_every_game_command_and_only_those() -> None:
    app = App(RecordingSpeaker(), RecordingCues(), seed=1)
    assert set(app.controls.commands) == game_commands(app.keys)


def test_shift_with_a_key_bound_alone_means_the_key_and_a_free_key_is_refused() -> None:
    keys = KeyMap.default()
    assert keys.command(pygame.K_s, shift=True) is Command.SITUATION
    assert keys.command(pygame.K_h, shift=True) is Command.PREVIOUS_SECTION
    assert keys.command(pygame.K_q, shift=False) is None
    speaker = RecordingSpeaker()
    app = App(speaker, RecordingCues(), seed=1)
    app.start()
    press(app, "q")
    assert speaker.spoken[-1].text == "That key does nothing here. Press F1 for help."


def test_a_map_of_other_keys_moves_the_game_and_its_help_together() -> None:
    """The table is the whole truth: bind Enter's command to J and J confirms, F1 says J."""
    bindings = [b if b.command is not Command.ACTIVATE
                else Binding(Command.ACTIVATE, (Chord(pygame.K_j),)) for b in default_bindings()]
    speaker = RecordingSpeaker()
    app = App(speaker, RecordingCues(), seed=1)
    app.keys = KeyMap(bindings)
    app.controls.commands = app.controls.command_table()
    app.start()
    press(app, "f1")
    assert "Press J on Start a game." in speaker.spoken[-1].text
    press(app, "f1")
    assert "J presses the focused choice or confirms your decision." in speaker.spoken[-1].text
    press(app, "return")
    assert speaker.spoken[-1].text == "That key does nothing here. Press F1 for help."
    press(app, "j")
    assert speaker.spoken[-1].text.startswith("Your team's name")


def test_typing_a_name_types_letters_that_are_game_keys_elsewhere() -> None:
    speaker = RecordingSpeaker()
    app = App(speaker, RecordingCues(), seed=1)
    app.start()
    press(app, "return")  # Start a game: the naming screen
    before = len(speaker.spoken)
    for letter in string.ascii_lowercase + string.digits + " ,./":
        app.handle_key(pygame.key.key_code(letter), 0)
    assert speaker.spoken[before:] == []  # the letters come as text input, not as keys
    app.handle_text("Owls")
    press(app, "backspace")
    assert speaker.spoken[-1].text == "Removed s."
    press(app, "f1")
    assert speaker.spoken[-1].text.startswith("Naming a team. Type a name; each letter is read "
                                              "back. Backspace removes the last letter.")
