"""Every sentence that names a key names the player's own: with the keys moved elsewhere, the
title screen, the naming line, the card screens, the lesson, How to play, the sound glossary,
the record, the friend screens, the typed settings, the explorer and the window's text panel
say the new keys, and none of the game's own."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pygame
from app_driver import press, started_app
from game_script import plan_game
from recording import RecordingSpeaker

from sudden_death import language
from sudden_death.ui.aids.how_to_play import RulesScreen
from sudden_death.ui.aids.lesson import lesson_end, tip
from sudden_death.ui.aids.sound_glossary import SoundGlossaryScreen
from sudden_death.ui.aids.typed_settings import PasswordSettingScreen, ServerAddressScreen
from sudden_death.ui.app import App
from sudden_death.ui.keys.keymap import Chord, Command, KeyMap, default_bindings
from sudden_death.ui.screens.base import Screen
from sudden_death.ui.screens.explorer import TryMatchupScreen
from sudden_death.ui.screens.friend import ChatScreen, CodeScreen, PasswordScreen
from sudden_death.ui.screens.menu import Group, Item, ItemKind, Menu
from sudden_death.ui.screens.welcome import NamingScreen
from sudden_death.ui.window.layout import BASE_SIZES, PanelEntry, build
from sudden_death.ui.words.rules import rules_sections

# Each command the changed sentences name, on a key the game gives nothing by default (Enter's and
# Escape's commands on keys that type nothing, so they work on the screens that take text too).
MOVED = {
    Command.ACTIVATE: (Chord(pygame.K_INSERT),),
    Command.BACK: (Chord(pygame.K_F10),),
    Command.TOGGLE: (Chord(pygame.K_x),),
    Command.PREVIOUS_ITEM: (Chord(pygame.K_i),),
    Command.NEXT_ITEM: (Chord(pygame.K_k),),
    Command.NEXT_CONTROL: (Chord(pygame.K_n),),
    Command.PREVIOUS_CONTROL: (Chord(pygame.K_n, shift=True),),
    Command.HELP: (Chord(pygame.K_F5),),
    Command.DETAILS: (Chord(pygame.K_c),),
    Command.MATCHUPS: (Chord(pygame.K_v),),
    Command.EXPLORER: (Chord(pygame.K_z),),
    Command.SITUATION: (Chord(pygame.K_u),),
    Command.LAST_PLAY: (Chord(pygame.K_p),),
    Command.HISTORY_BACK: (Chord(pygame.K_b),),
    Command.HISTORY_FORWARD: (Chord(pygame.K_y),),
    Command.FIELD_TONE: (Chord(pygame.K_a),),
    Command.LESSON: (Chord(pygame.K_F9),),
    Command.SETTINGS: (Chord(pygame.K_F6),),
    Command.SCROLL_UP: (Chord(pygame.K_F7),),
    Command.SCROLL_DOWN: (Chord(pygame.K_F8),),
}
# The script's keys (game_script's default ones) as the moved map presses them.
SCRIPT_KEYS = {"return": "insert", "down": "k", "up": "i", "space": "x", "tab": "n",
               "escape": "f10"}
# The default keys' names: none may be left in a sentence once its keys have moved.
OLD_NAMES = re.compile(r"\b(Enter|Escape|Space|Tab|Up|Down|Left|Right|F1|F2|Page Up|Page Down|"
                       r"Comma|Period|[Cc]omma and [Pp]eriod|arrows?)\b")


def moved_keys() -> KeyMap:
    return KeyMap(dataclasses.replace(binding, chords=MOVED[binding.command])
                  if binding.command in MOVED else binding for binding in default_bindings())


def moved_app(tmp_path: Path, seed: int = 1) -> tuple[App, RecordingSpeaker]:
    """A started app whose keys are the moved ones, back on its title screen."""
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker, seed=seed)
    app.keys = moved_keys()
    app.controls.commands = app.controls.command_table()
    speaker.spoken.clear()  # the first title screen named the game's own keys
    app.welcomed = False  # welcomed in full again, as a run with these keys would be
    app.start()
    return app, speaker


def said(speaker: RecordingSpeaker) -> list[str]:
    return [message.text for message in speaker.spoken]


def heard(texts: list[str], words: str) -> str:
    """The first text that holds `words`, checked to name no default key."""
    found = next((text for text in texts if words in text), None)
    assert found is not None, (words, texts[-5:])
    assert not OLD_NAMES.search(found), found
    return found


def play(app: App, keys: list[str]) -> None:
    """Key lines as game_script writes them, pressed on the moved keys."""
    for key in keys:
        if key.startswith("type "):
            app.handle_text(key[5:])
        else:
            press(app, SCRIPT_KEYS.get(key, key))


def test_the_map_moves_every_key_the_sentences_name() -> None:
    keys = moved_keys()
    assert keys.names(Command.ACTIVATE) == "Insert" and keys.names(Command.BACK) == "F10"
    assert keys.command(pygame.K_RETURN, False) is None
    assert keys.command(pygame.K_INSERT, False) is Command.ACTIVATE


def test_the_title_screen_the_names_and_a_whole_game_say_the_moved_keys(tmp_path: Path) -> None:
    app, speaker = moved_app(tmp_path)
    welcome = heard(said(speaker), "Welcome to Sudden Death")
    assert welcome.endswith("Press F5 for help at any time.")
    keys, _events = plan_game(1)
    play(app, keys[:1])  # Start a game, with Insert
    assert isinstance(app.top, NamingScreen)
    assert app.top.menu.groups[0].items[0].label == "(empty: Insert takes Hawks)"
    play(app, keys[1:])  # the whole game, every key pressed as the moved map has it
    texts = said(speaker)
    heard(texts, "Your team's name: type it and press Insert. Leave it empty for Hawks.")
    heard(texts, "The computer team's name: type it and press Insert. Leave it empty for "
                 "Bears.")
    heard(texts, "X checks a card; a full list moves you on to the next; Insert confirms.")
    heard(texts, "To punt or kick a field goal instead, N past Confirm.")
    heard(texts, "calls full. Insert confirms.")
    heard(texts, "Last down's cards are checked again: Insert plays them, or change a card "
                 "first.")
    heard(texts, "keep all yours, or replace one player or one call. Press K to reach the card "
                 "to replace.")
    assert any(text.startswith("Final score") for text in texts)

    app.start()
    app.keeper.open_record()  # the finished game is in the record
    heard(said(speaker), "Your record, 1 game. I and K go through it; Insert on a game tells it "
                         "again.")
    press(app, "k", "k", "insert")  # the standing, Export, the game
    assert app.top.help_key == "past_game"
    heard(said(speaker)[-1:], " I and K, or the history keys, go through its story and its "
                              "plays; F10 returns. ")


def test_the_lesson_teaches_the_moved_keys(tmp_path: Path) -> None:
    app, speaker = moved_app(tmp_path)
    keys, _events = plan_game(1)
    play(app, ["down", "return"])  # Guided first drive
    assert app.comfort.guide.active
    heard(said(speaker), "F9 pauses the lesson, and resumes it.")
    play(app, keys[4:])
    texts = said(speaker)
    for key in ("coin", "side", "selection", "substitution", "final", "result", "explorer"):
        heard(texts, tip(key, app.keys))
    assert "I and K move between Heads and Tails; Insert calls it." in tip("coin", app.keys)
    assert "Pick one with I and K and press Insert." in tip("side", app.keys)
    selection = tip("selection", app.keys)
    assert "X checks a player" in selection and "Press C on a card" in selection
    assert "Insert confirms when you have 2 and 3." in selection
    assert "Press V to hear how your calls meet theirs" in tip("substitution", app.keys)
    explorer = tip("explorer", app.keys)
    assert "so Insert plays them. Press Z any time to open the explorer" in explorer
    assert "and F10 brings you back here." in explorer
    assert ("U reads the score and the down, P tells the last play again in full, and B and Y "
            "step back and forward") in tip("result", app.keys)
    assert "Press Insert, then listen to the dice and the yards." in tip("final", app.keys)
    end = heard(texts, lesson_end(app.keys))
    assert end.endswith("U reads the score and down, A plays the field tone, B and Y replay "
                        "what was said, F6 opens settings, and F5 helps on every screen.")


def test_the_lesson_pauses_on_its_moved_key(tmp_path: Path) -> None:
    app, speaker = moved_app(tmp_path)
    play(app, ["down", "return"])
    press(app, "f9")
    assert said(speaker)[-1] == "Lesson paused. The game goes on; F9 resumes it."


def test_how_to_play_and_the_sound_glossary_say_the_moved_keys(tmp_path: Path) -> None:
    app, speaker = moved_app(tmp_path)
    press(app, "k", "k", "insert")  # How to play
    assert isinstance(app.top, RulesScreen)
    heard(said(speaker)[-1:], "short sections. K reads the next, I the one before, Insert reads "
                              "it again, F10 returns. ")
    tips = dict(rules_sections(app.keys))["Listening tips"]
    assert tips.startswith("U tells the score and the down. A plays a tone for the ball")
    assert "B and Y step through everything said so far. F6 opens settings" in tips
    assert tips.endswith("F5 helps anywhere.") and not OLD_NAMES.search(tips)
    press(app, "end")  # the last section, as the screen itself holds it
    assert tips in said(speaker)[-1]
    press(app, "f10", "k", "insert")  # back, then Sounds of the game
    assert isinstance(app.top, SoundGlossaryScreen)
    heard(said(speaker)[-1:], "I and K play each one and name it; Insert plays it again; F10 "
                              "returns.")


def test_the_friend_screens_and_typed_settings_say_the_moved_keys(tmp_path: Path) -> None:
    app, speaker = moved_app(tmp_path)
    app.push(CodeScreen(app, "Hawks"))
    assert said(speaker)[-1] == "The table code, 6 digits: type it and press Insert."
    app.push(CodeScreen(app, "Hawks", code="123456"))
    heard(said(speaker)[-1:], "192.168.1.20:8765: type it and press Insert.")
    app.push(PasswordScreen(app, on_typed=lambda _typed: None))
    assert said(speaker)[-1] == "The table's password: type it and press Insert. F10 goes back."
    press(app, "insert")  # nothing typed
    assert said(speaker)[-1] == "Type the password first, or press F10."
    app.push(ChatScreen(app))
    assert said(speaker)[-1] == ("Message to your friend: type it, or I and K for a quick one, "
                                 "and press Insert. F10 goes back.")
    press(app, "insert")
    assert said(speaker)[-1] == "Type a message first, or press F10."

    address = ServerAddressScreen(app, "", lambda _value: None)
    app.push(address)
    heard(said(speaker)[-1:], "type it and press Insert. Insert with nothing typed sets none, and "
                              "Host a table serves on this computer. F10 keeps none.")
    assert address.refusal("tables").endswith("Type it again, or press F10.")
    password = PasswordSettingScreen(app, "blue 42", lambda _value: None)
    app.push(password)
    heard(said(speaker)[-1:], "type it and press Insert. Insert with nothing typed sets none, so "
                              "the code alone joins. F10 keeps blue 42.")
    assert password.refusal("x").endswith("Type it again, or press F10.")


def test_the_explorer_says_the_moved_keys(tmp_path: Path) -> None:
    app, speaker = moved_app(tmp_path)
    press(app, "z")  # the explorer, on its moved key
    heard(said(speaker)[-1:], "Looking here never changes the game; F10 closes it.")
    press(app, "z")
    assert said(speaker)[-1] == "The explorer is already open. F10 goes back a level."
    press(app, "insert")  # Offensive calls
    heard(said(speaker)[-1:], "Offensive calls. Insert opens a card.")
    press(app, "insert")  # the first call
    heard(said(speaker)[-1:], "I and K step through the bands; Insert reads the yardage table.")
    press(app, "f10", "f10", "k", "insert", "insert")  # back twice; Defensive calls, the first
    heard(said(speaker)[-1:], "Insert hears the full figures.")
    app.push(TryMatchupScreen(app))
    heard(said(speaker)[-1:], "players a side with N, I and K, and X; Insert hears the band and "
                              "its figures.")


def test_a_press_off_the_buttons_and_the_window_say_the_moved_keys(tmp_path: Path) -> None:
    app, speaker = moved_app(tmp_path)
    Screen(app, Menu("Test", [Group("Test", [Item("Words", ItemKind.TEXT)])])).confirm()
    assert said(speaker)[-1] == "Press Insert on a button to choose."

    class Measure:
        def width(self, role: str, text: str) -> int:
            return round(len(text) * BASE_SIZES[role] * 0.55)

        def line_height(self, role: str) -> int:
            return round(BASE_SIZES[role] * 0.75)

    def more(key_names: dict[str, str] | None) -> str:
        frame = build(Measure(), (1600, 400), title="Sudden Death", score="", situation="",
                      menu=None, section="", panel=[PanelEntry("words " * 600, (0, 0, 0))],
                      key_names=key_names)
        return next(box.text for box in frame.boxes if box.role == "more")

    assert more(dict(app.keys.placeholders())).endswith(". F7, F8: more.")
    assert more(None).endswith(". Page Up, Page Down: more.")  # the game's own keys


def test_the_spanish_sentences_say_the_moved_keys_too(tmp_path: Path) -> None:
    app, _speaker = moved_app(tmp_path)
    with language.using(language.load("es")):
        glossary = SoundGlossaryScreen(app).intro()
        chat = ChatScreen(app).prompt()
        tips = tip("coin", app.keys)
    assert "I y K tocan cada uno y lo nombran; Insert lo vuelve a tocar; F10 regresa." in glossary
    assert chat == ("Mensaje para tu amigo: escríbelo, o usa I y K para uno rápido, y presiona "
                    "Insert. F10 vuelve.")
    assert "I y K pasan entre Águila y Sol; Insert confirma tu elección." in tips
    for text in (glossary, chat, tips):
        assert not re.search(r"\b(Intro|Escape|Arriba|Abajo|Espacio)\b", text), text
