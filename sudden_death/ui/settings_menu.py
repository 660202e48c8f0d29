"""The spoken settings menu: Up and Down pick a setting, Left and Right change it.

Every change is applied before it is announced, so the announcement itself is heard at the new
rate, in the new voice, at the new volume (a cue plays at the new cue volume). Changes are saved
at once; Escape or Done closes the menu and returns focus where it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

import pygame

from ..settings import (
    COMPUTERS,
    MIN_SPEECH_VOLUME,
    SPEECH_OUTPUTS,
    TEXT_SIZES,
    VERBOSITIES,
    Settings,
)
from .audio_controls import AudioControls
from .menu import Group, Item, ItemKind, Menu
from .screens import Host, Screen
from .verbosity import VERBOSITY_WORDS

T = TypeVar("T")

RATE_STEP, RATE_BIG_STEP = 10, 50
VOLUME_STEP, VOLUME_BIG_STEP = 0.1, 0.3
SETTING_KEYS = ("speech_rate", "voice", "speech_volume", "cue_volume", "verbosity", "menu_wrap",
                "play_sweep", "text_size", "computer", "speech_engine", "speech_output")
# Space and Enter step these
CYCLED = ("speech_engine", "verbosity", "menu_wrap", "voice", "text_size", "speech_output",
          "computer", "play_sweep")
COMPUTER_WORDS = {
    "random": "the rules' computer, picking at random",
    "coach": "the coach, who knows the tables",
}
OUTPUT_WORDS = {
    "builtin": "built-in voice",
    "screen_reader": "screen reader",
    "both": "both, the built-in voice and the screen reader",
}


class SettingsOwner(Protocol):
    """Who keeps the settings: the menu reads them and the audio's choices, and hands back each
    change to be applied and saved."""

    settings: Settings
    controls: AudioControls

    def change(self, settings: Settings) -> None: ...


class SettingsScreen(Screen):
    help_key = "settings"

    def __init__(self, host: Host, comfort: SettingsOwner) -> None:
        self.comfort = comfort
        self.voice_list = comfort.controls.voices()
        super().__init__(host, Menu("Settings", [Group("Settings", self._items())]))

    # -- labels ------------------------------------------------------------------------------

    def _voice_name(self, voice_id: str) -> str:
        for voice in self.voice_list:
            if voice.id == voice_id:
                return voice.name
        return voice_id or "default voice"

    def label(self, key: str, settings: Settings) -> str:
        if key == "speech_engine":
            names = dict(self.comfort.controls.engine_choices())
            return f"Speech engine: {names.get(settings.speech_engine, settings.speech_engine)}"
        if key == "speech_rate":
            return f"Speech rate: {settings.speech_rate} words per minute"
        if key == "voice":
            return f"Voice: {self._voice_name(settings.voice)}"
        if key == "speech_volume":
            return f"Speech volume: {round(settings.speech_volume * 100)} percent"
        if key == "cue_volume":
            return f"Sound effects volume: {round(settings.cue_volume * 100)} percent"
        if key == "verbosity":
            return f"Verbosity: {VERBOSITY_WORDS[settings.verbosity]}"
        if key == "text_size":
            return f"Text size: {settings.text_size} percent"
        if key == "speech_output":
            return self._output_label(settings.speech_output)
        if key == "computer":
            return f"Opponent: {COMPUTER_WORDS.get(settings.computer, settings.computer)}"
        if key == "play_sweep":
            return f"Hear the play: {'on' if settings.play_sweep else 'off'}"
        return f"Menu wrap: {'on' if settings.menu_wrap else 'off'}"

    def _output_label(self, chosen: str) -> str:
        """The choice, and what speaks now when that is not it (no screen reader answered)."""
        label = f"Speech output: {OUTPUT_WORDS.get(chosen, chosen)}"
        controls = self.comfort.controls
        in_use, reader = controls.output_in_use(), controls.reader_name()
        if chosen != "builtin" and in_use == "builtin":
            return f"{label}, not answering, so the built-in voice speaks"
        if reader and in_use != "builtin":
            return f"{label}, {reader}"
        return label

    def _items(self) -> list[Item]:
        settings = self.comfort.settings
        items = [Item(self.label(key, settings), ItemKind.TEXT, key) for key in SETTING_KEYS]
        items.append(Item("Reset to defaults", ItemKind.BUTTON, "reset"))
        items.append(Item("Done", ItemKind.BUTTON, "done"))
        return items

    def _refresh(self) -> None:
        group = self.menu.group
        focus = group.focus
        group.items = self._items()
        group.focus = focus

    def intro(self) -> str:
        return ("Settings. Up and Down choose a setting, Left and Right change it, Shift for "
                "bigger steps. Changes are saved at once; Escape closes. "
                + self.menu.describe(entering=True))

    # -- keys --------------------------------------------------------------------------------

    def handle_key(self, key: int, mod: int) -> bool:
        item = self.menu.item
        if item is None or item.value not in SETTING_KEYS:
            return False
        big = bool(mod & pygame.KMOD_SHIFT)
        if key in (pygame.K_LEFT, pygame.K_RIGHT):
            self.adjust(str(item.value), 1 if key == pygame.K_RIGHT else -1, big)
            return True
        if key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            if item.value in CYCLED:
                self.adjust(str(item.value), 1, False, cycle=True)
            else:
                self.host.cue("menu_edge")
                self.host.say("Use Left and Right to change this one.")
            return True
        return False

    def on_button(self, item: Item) -> None:
        if item.value == "reset":
            self.comfort.change(Settings())
            self._refresh()
            self.host.cue("menu_select")
            self.host.say("All settings are back to their defaults. " + self.menu.describe())
        elif item.value == "done":
            self.close()

    def on_escape(self) -> bool:
        self.close()
        return True

    def close(self) -> None:
        self.host.pop()  # says "Back." and where the focus returned

    # -- changing ----------------------------------------------------------------------------

    def adjust(self, key: str, direction: int, big: bool, cycle: bool = False) -> None:
        """Move one setting a step; announce it in its new form, or the edge when at an end."""
        old = self.comfort.settings
        new = self._stepped(key, old, direction, big, cycle)
        engines = self.comfort.controls.engine_choices()
        if key == "speech_engine" and len(engines) < 2:
            self.host.cue("menu_edge")
            self.host.say(f"Only {engines[0][1]} speaks on this system.")
            return
        if new == old and key == "voice" and len(self.voice_list) < 2:
            self.host.cue("menu_edge")
            self.host.say("No other voices are installed.")
            return
        if new == old:
            self.host.cue("menu_edge")
            self.host.say(self.label(key, old) + ", the limit.")
            return
        self.comfort.change(new)
        self._refresh()
        if key == "cue_volume":
            self.host.cue("menu_select")  # heard at the new cue volume
        later = ", from the next game" if key == "computer" else ""  # a game keeps its opponent
        self.host.say(self.label(key, new) + later)

    def _stepped(self, key: str, old: Settings, direction: int, big: bool,
                 cycle: bool) -> Settings:
        if key == "speech_rate":
            low, high = self.comfort.controls.rate_range()
            step = RATE_BIG_STEP if big else RATE_STEP
            rate = max(low, min(high, old.speech_rate + direction * step))
            return old.changed(speech_rate=rate)
        if key in ("speech_volume", "cue_volume"):
            volume_step = VOLUME_BIG_STEP if big else VOLUME_STEP
            floor = MIN_SPEECH_VOLUME if key == "speech_volume" else 0.0
            value = round(max(floor, min(1.0, getattr(old, key) + direction * volume_step)), 2)
            return old.changed(**{key: value})
        if key == "menu_wrap":
            return old.changed(menu_wrap=not old.menu_wrap)
        if key == "play_sweep":
            return old.changed(play_sweep=not old.play_sweep)
        if key == "speech_engine":
            names = [name for name, _ in self.comfort.controls.engine_choices()]
            index = names.index(old.speech_engine) if old.speech_engine in names else 0
            index = (index + direction) % len(names)  # two at most: always a change
            # A voice belongs to its engine: the new one starts with its default voice.
            return old.changed(speech_engine=names[index], voice="")
        if key == "text_size":
            size = _step(TEXT_SIZES, TEXT_SIZES.index(old.text_size), direction, cycle)
            return old.changed(text_size=size)
        if key == "verbosity":
            level = _step(VERBOSITIES, VERBOSITIES.index(old.verbosity), direction, cycle)
            return old.changed(verbosity=level)
        if key == "computer":
            return old.changed(computer=_step(COMPUTERS, COMPUTERS.index(old.computer),
                                              direction, cycle))
        if key == "speech_output":
            outputs = SPEECH_OUTPUTS
            return old.changed(speech_output=_step(outputs, outputs.index(old.speech_output),
                                                   direction, cycle))
        self.voice_list = self.comfort.controls.voices()  # the engine may have changed
        ids = [voice.id for voice in self.voice_list]
        if not ids:
            return old
        index = ids.index(old.voice) if old.voice in ids else -1
        return old.changed(voice=_step(ids, index, direction * (10 if big else 1), cycle))


def _step(choices: Sequence[T], index: int, step: int, cycle: bool) -> T:
    """The choice `step` places on from `index`: round past the ends when cycling (Space and
    Enter), else stopping at the end (the arrows, which then say "the limit")."""
    index += step
    if cycle:
        index %= len(choices)
    return choices[max(0, min(len(choices) - 1, index))]
