"""Keys, from settings: every command with its keys and controller buttons, and a way to give
one a key of the player's choosing.

Enter on a command waits for the next key or button (`KeyCapture`), which takes every press
itself, Tab and the arrows included, so any key can be chosen. A key another command uses
there is refused, naming that command, and Enter then swaps the two. Every change goes through
the settings (`KeysOwner.change`), so it is saved at once and the app's map is rebuilt from
what was saved: what is played is always what the file holds.
"""

from __future__ import annotations

from typing import Protocol

import pygame

from ...language import _, join_words, p_
from ...storage.settings import Settings
from ..keys import own_keys
from ..keys.keymap import Chord, Command, Context, KeyMap, Pad
from ..screens.base import Host, Screen
from ..screens.menu import Group, Item, ItemKind, Menu
from ..words.commands import COMMAND_NAMES, command_name

CANCEL_KEYS = (pygame.K_ESCAPE, Pad.B.key)
HELP_KEYS = (pygame.K_F1, Pad.BACK.key)
CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, Pad.A.key)


class KeysOwner(Protocol):
    """Who keeps the settings, where the player's keys are saved."""

    settings: Settings

    def change(self, settings: Settings) -> None: ...


def key_words(keys: KeyMap, command: Command) -> str:
    """A command's keys, then its buttons: "R; controller: Y"; "none" when it has neither."""
    chords = [chord for chord in keys.own_chords(command) if chord.named]
    typed = [chord.name() for chord in chords if not chord.pad]
    pressed = [chord.name() for chord in chords if chord.pad]
    words = join_words(typed) if typed else ""
    if pressed:
        # Translators: a command's controller buttons after its keys: "R; controller: Y".
        buttons = _("controller: {buttons}").format(buttons=join_words(pressed))
        words = f"{words}; {buttons}" if words else buttons
    # Translators: a command with no key and no button.
    return words or p_("keys", "none")


def line(keys: KeyMap, command: Command) -> str:
    # Translators: a line of the Keys screen: a command and its keys, "Repeat: R; controller: Y".
    return _("{command}: {keys}").format(command=command_name(command),
                                         keys=key_words(keys, command))


class KeysScreen(Screen):
    """The list of commands and their keys, then Reset all keys and Done."""

    help_key = "keys"
    key_context = Context.KEYS

    def __init__(self, host: Host, owner: KeysOwner) -> None:
        self.owner = owner
        self.commands = list(COMMAND_NAMES)
        self.host = host  # the lines name the keys in force
        # Translators: the screen where the player chooses keys (Settings, then Keys).
        super().__init__(host, Menu(_("Keys"), [Group(_("Keys"), self._items())]))

    def _items(self) -> list[Item]:
        items = [Item(line(self.host.keys, command), ItemKind.TEXT) for command in self.commands]
        items.append(Item(_("Reset all keys"), ItemKind.BUTTON, press=self.reset_all))
        items.append(Item(p_("button", "Done"), ItemKind.BUTTON, press=self.close))
        return items

    def refresh(self) -> None:
        group = self.menu.group
        focus = group.focus
        group.items = self._items()
        group.focus = focus

    def focused_command(self) -> Command | None:
        focus = self.menu.group.focus
        return self.commands[focus] if focus < len(self.commands) else None

    def intro(self) -> str:
        # Translators: the Keys screen's first words; names in braces are keys; {menu} is the
        # focused line, said after.
        return self.host.keys.fill(_(
            "Keys. {previous_item} and {next_item} go through the commands; {activate} gives "
            "the focused one a new key or button; {reset_key} puts back its own. {menu}"),
            menu=self.menu.describe(entering=True))

    def on_command(self, command: Command) -> bool:
        focused = self.focused_command()
        if focused is None:
            return False
        if command in (Command.ACTIVATE, Command.TOGGLE):
            self.host.push(KeyCapture(self.host, self, focused))
            return True
        if command is Command.RESET_KEY:
            self.reset_one(focused)
            return True
        return False

    def on_escape(self) -> bool:
        self.close()
        return True

    def close(self) -> None:
        self.host.pop()

    # -- changing ----------------------------------------------------------------------------

    def keep(self, keys: KeyMap) -> None:
        """Save `keys` as the player's: the app's map is rebuilt from the settings."""
        self.owner.change(self.owner.settings.changed(keys=own_keys.changes(keys)))
        self.refresh()

    def reset_one(self, command: Command) -> None:
        change = own_keys.reset(self.host.keys, command)
        if change.keys is None:
            self.host.cue("menu_error")
            # Translators: resetting a command whose own key another command was given;
            # {command} is the command, {others} the ones that have its keys now.
            self.host.say(_("{command}'s own keys are taken by {others}; change those "
                            "first.").format(command=command_name(command),
                                             others=join_words([command_name(other) for other
                                                                in change.taken_by])))
            return
        self.keep(change.keys)
        self.host.cue("menu_select")
        # Translators: {line} is the command and its keys again, "Repeat: R; controller: Y".
        self.host.say(_("Its own keys again. {line}").format(line=line(self.host.keys, command)))

    def reset_all(self) -> None:
        self.keep(KeyMap.default())
        self.host.cue("menu_select")
        self.host.say(self.host.keys.fill(_(
            "Every key is back to the game's own. {menu}"), menu=self.menu.describe()))

    def chosen(self, command: Command, keys: KeyMap) -> None:
        """The capture gave `command` a key: keep it and say the command's line."""
        self.host.pop(announce=False)
        self.keep(keys)
        self.host.cue("menu_select")
        self.host.say(line(self.host.keys, command))


class KeyCapture(Screen):
    """Waiting for the key or button a command is to have. Every press comes here first
    (`capture`), not through the key map: Escape (or B) cancels, F1 (or Back) is help, and a
    key already used is refused with the offer to swap (Enter, or A)."""

    help_key = "key_capture"
    key_context = Context.KEYS

    def __init__(self, host: Host, keys_screen: KeysScreen, command: Command) -> None:
        self.keys_screen = keys_screen
        self.command = command
        self.offered: Chord | None = None  # a key taken by one other command: Enter swaps
        name = command_name(command)
        super().__init__(host, Menu(name, [Group(name, [Item(name, ItemKind.TEXT)])]))

    def intro(self) -> str:
        # Translators: {command} is a command, {keys} its keys now; {kept_back} and
        # {kept_back_pad} are keys (Escape, and B on a controller).
        return _("Press the new key or controller button for {command}, now {keys}. "
                 "{kept_back} or {kept_back_pad} cancels.").format(
                     command=command_name(self.command),
                     keys=key_words(self.host.keys, self.command), **own_keys.kept_names())

    def capture(self, key: int, shift: bool) -> None:
        """One key or button pressed while waiting."""
        if key in CANCEL_KEYS:
            self.host.pop(announce=False)
            self.host.cue("menu_select")
            # Translators: the change of key cancelled; {line} is "Repeat: R".
            self.host.say(_("Unchanged. {line}").format(
                line=line(self.host.keys, self.command)))
            return
        if key in HELP_KEYS:
            self.host.say(self.intro())
            return
        chord = Chord(key, shift and not Chord(key).pad)
        keys = self.host.keys
        if self.offered is not None and key in CONFIRM_KEYS:
            swapped = own_keys.swap(keys, self.command, self.offered)
            if swapped is not None:
                self.keys_screen.chosen(self.command, swapped)
                return
        self.offered = None
        if own_keys.has_key(keys.own_chords(self.command), chord):
            self.keys_screen.chosen(self.command, keys)
            return
        change = own_keys.give(keys, self.command, chord)
        if change.keys is not None:
            self.keys_screen.chosen(self.command, change.keys)
            return
        self.host.cue("menu_error")
        if change.protected is not None:
            # Translators: Enter, Escape and F1 (A, B, Back on a controller) always keep their
            # commands; {key} is the key pressed, {command} its command; {kept_back} is a key.
            self.host.say(_("{key} always stays {command}. Press another key, or "
                            "{kept_back}.").format(key=chord.name(),
                                                   command=command_name(change.protected),
                                                   **own_keys.kept_names()))
            return
        others = join_words([command_name(other) for other in change.taken_by])
        if own_keys.swap(keys, self.command, chord) is not None:
            self.offered = chord
            given = own_keys.primary(keys, self.command, chord.pad)
            # Translators: the key pressed is taken; {key} is it, {other} the command that has
            # it, {given} the key that command would get; {kept_activate} and {kept_back} are
            # keys (Enter and Escape).
            words = _("{key} is already {other}. {kept_activate} swaps them, so {other} gets "
                      "{given}; {kept_back} keeps both; or press another key.") if given else _(
                "{key} is already {other}. {kept_activate} moves it here, and {other} keeps "
                "its other keys; {kept_back} keeps both; or press another key.")
            self.host.say(words.format(key=chord.name(), other=others,
                                       given=given.name() if given else "",
                                       **own_keys.kept_names()))
            return
        # Translators: the key pressed is taken by commands it can't be swapped with;
        # {kept_back} is a key.
        self.host.say(_("{key} is already {others}. Press another key, or {kept_back}.").format(
            key=chord.name(), others=others, **own_keys.kept_names()))
