"""The spoken settings menu: Up and Down pick a setting, Left and Right change it.

Every change is applied before it is announced, so the announcement itself is heard at the new
rate, in the new voice, at the new volume (a cue plays at the new cue volume). Changes are saved
at once; Escape or Done closes the menu and returns focus where it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from ...language import _, active, available, n_, p_
from ...storage.settings import (
    COMPUTERS,
    KEY_REPEATS,
    MIN_SPEECH_VOLUME,
    SEAT_WAITS,
    SPEECH_OUTPUTS,
    SWITCHES,
    TEXT_SIZES,
    TURN_LIMITS,
    VERBOSITIES,
    Settings,
)
from ..keys.keymap import Command, Context
from ..screens.base import Extra, Host, Screen
from ..screens.menu import Group, Item, ItemKind, Menu
from ..words.held_keys import key_repeat_label
from ..words.opponents import COMPUTER_WORDS
from ..words.report import report_item
from ..words.verbosity import VERBOSITY_WORDS, Verbosity
from .audio_controls import AudioControls
from .keys_screen import KeysScreen
from .typed_settings import PasswordSettingScreen, ServerAddressScreen, TypedSetting

T = TypeVar("T")

# The settings' own keys: (direction, a bigger step).
STEPS = {Command.SETTING_LESS: (-1, False), Command.SETTING_MORE: (1, False),
         Command.SETTING_LESS_BIG: (-1, True), Command.SETTING_MORE_BIG: (1, True)}
RATE_STEP, RATE_BIG_STEP = 10, 50
VOLUME_STEP, VOLUME_BIG_STEP = 0.1, 0.3
# Language first: whoever cannot follow the words they hear finds it with O alone.
SETTING_KEYS = ("language", "speech_rate", "voice", "speech_volume", "cue_volume",
                "crowd_volume", "verbosity",
                *SWITCHES, "menu_wrap", "play_sweep", "mono", "rumble", "key_repeat",
                "waiting_sound", "lobby_news", "seat_wait", "turn_limit",
                "table_server",
                "table_password", "text_size", "computer", "overtime", "speech_engine",
                "speech_output")
# Space and Enter step these
CYCLED = ("language", "speech_engine", "verbosity", "menu_wrap", "voice", "text_size",
          "speech_output", "computer", "overtime", "play_sweep", "mono", "rumble",
          "key_repeat", "waiting_sound", "lobby_news",
          "seat_wait", "turn_limit",
          *SWITCHES)
# Typed settings: Enter opens a line to type them on.
TYPED = ("table_server", "table_password")
# On / off settings: either arrow flips them.
FLAGS = ("menu_wrap", "play_sweep", "mono", "rumble", "waiting_sound", "lobby_news", "overtime",
         *SWITCHES)


def _words(table: dict[str, str], value: str) -> str:
    """A choice's words in the player's language; an unknown id is said as it is."""
    words = table.get(value)
    return _(words) if words is not None else value


class SettingsOwner(Protocol):
    """Who keeps the settings: the menu reads them and the audio's choices, and hands back each
    change to be applied and saved."""

    settings: Settings
    controls: AudioControls
    settings_focus: int  # the line the settings were left on, to open there again

    def change(self, settings: Settings) -> None: ...


class SettingsScreen(Screen):
    help_key = "settings"
    key_context = Context.SETTINGS

    def __init__(self, host: Host, comfort: SettingsOwner) -> None:
        self.comfort = comfort
        self.voice_list = comfort.controls.voices()
        group = Group(_("Settings"), self._items())
        group.focus = min(comfort.settings_focus, len(group.items) - 1)  # where it was left
        super().__init__(host, Menu(_("Settings"), [group]))

    # -- labels ------------------------------------------------------------------------------

    def _voice_name(self, voice_id: str) -> str:
        for voice in self.voice_list:
            if voice.id == voice_id:
                return voice.name
        return voice_id or _("default voice")

    def label(self, key: str, settings: Settings) -> str:
        if key == "language":
            # Translators: {language} is a language's name in itself, as "English" or "Español".
            return _("Language: {language}").format(language=active().name)
        if key == "speech_engine":
            names = dict(self.comfort.controls.engine_choices())
            engine = names.get(settings.speech_engine, settings.speech_engine)
            # Translators: {engine} is a speech engine's name, as "eSpeak NG".
            return _("Speech engine: {engine}").format(engine=engine)
        if key == "speech_rate":
            rate = settings.speech_rate
            return n_("Speech rate: {rate} word per minute",
                      "Speech rate: {rate} words per minute", rate).format(rate=rate)
        if key == "voice":
            # Translators: {voice} is an installed voice's name, or "default voice".
            return _("Voice: {voice}").format(
                voice=self._voice_name(settings.voice or active().voice))
        if key == "speech_volume":
            volume = round(settings.speech_volume * 100)
            return n_("Speech volume: {volume} percent",
                      "Speech volume: {volume} percent", volume).format(volume=volume)
        if key == "cue_volume":
            volume = round(settings.cue_volume * 100)
            return n_("Sound effects volume: {volume} percent",
                      "Sound effects volume: {volume} percent", volume).format(volume=volume)
        if key == "crowd_volume":
            volume = round(settings.crowd_volume * 100)
            if volume == 0:
                # Translators: the stadium bed (a crowd murmuring under a game) is off.
                return _("Crowd: off")
            # Translators: the volume of the crowd murmuring under a game.
            return n_("Crowd: {volume} percent", "Crowd: {volume} percent", volume).format(
                volume=volume)
        if key == "verbosity":
            level = _(VERBOSITY_WORDS[Verbosity.of(settings.verbosity)])
            if settings.own_switches():
                # Translators: {verbosity} is "short: only what changed", "normal" or
                # "detailed: with the rolls and the reasons"; some of the switches under it
                # (dice, explanations...) have been changed from what it sets.
                return _("Verbosity: {verbosity}, with your own switches").format(
                    verbosity=level)
            # Translators: {verbosity} is one of "short: only what changed", "normal" and
            # "detailed: with the rolls and the reasons".
            return _("Verbosity: {verbosity}").format(verbosity=level)
        if key in SWITCHES:
            return _switch_label(key, settings.switch(key))
        if key == "text_size":
            size = settings.text_size
            # Translators: the size of the window's text: 100, 150 or 200 percent of normal.
            return n_("Text size: {size} percent", "Text size: {size} percent",
                      size).format(size=size)
        if key == "speech_output":
            return self.comfort.controls.output_words(settings.speech_output)
        if key == "computer":
            # Translators: {opponent} is "the rules' computer, picking at random" or "the
            # coach, who knows the tables".
            return _("Opponent: {opponent}").format(
                opponent=_words(COMPUTER_WORDS, settings.computer))
        if key == "play_sweep":
            # Translators: the setting for a sound that glides from the old spot to the new one
            # after each play.
            return _("Hear the play: on") if settings.play_sweep else _("Hear the play: off")
        if key == "mono":
            # Translators: the setting that plays every sound the same in both ears (for one
            # ear or a single speaker): the field tone and the play's sweep stop moving
            # between the ears, the crowd stops surrounding the player.
            return _("Mono sound: on") if settings.mono else _("Mono sound: off")
        if key == "rumble":
            # Translators: the setting that shakes a game controller (one that can) on a sack,
            # a turnover and a score.
            return (_("Controller rumble: on") if settings.rumble
                    else _("Controller rumble: off"))
        if key == "key_repeat":
            return key_repeat_label(settings.key_repeat)
        if key == "waiting_sound":
            # Translators: the setting for a soft sound every few seconds while a friend at a
            # table is still choosing.
            return (_("Waiting sound at a table: on") if settings.waiting_sound
                    else _("Waiting sound at a table: off"))
        if key == "lobby_news":
            # Translators: the setting for a soft sound and a short line when a table opens
            # or goes in the online lobby.
            return (_("Lobby news: on") if settings.lobby_news else _("Lobby news: off"))
        if key == "overtime":
            if settings.overtime:
                # Translators: the overtime house rule, on (it applies from the next game).
                return _("Overtime, a house rule: on; a tied game goes on, a drive each from "
                         "the other's 25, until one team leads")
            # Translators: the overtime house rule, off: as the rules say, a tie stands.
            return _("Overtime, a house rule: off; as the rules say, a tie stands")
        if key == "seat_wait":
            minutes = settings.seat_wait
            # Translators: how long a table the player hosts waits for a friend whose line
            # dropped before it ends the game.
            return n_("Wait for a dropped friend: {minutes} minute",
                      "Wait for a dropped friend: {minutes} minutes",
                      minutes).format(minutes=minutes)
        if key == "turn_limit":
            if not settings.turn_limit:
                # Translators: tables the player hosts give each turn as long as it takes.
                return _("Turn limit at your tables: none")
            # Translators: how long each turn has at a table the player hosts.
            return n_("Turn limit at your tables: {minutes} minute",
                      "Turn limit at your tables: {minutes} minutes",
                      settings.turn_limit).format(minutes=settings.turn_limit)
        if key == "table_server":
            if not settings.table_server:
                # Translators: no table server is set: Host a table serves it on this computer.
                return _("Table server: none, tables are hosted on this computer")
            # Translators: {address} is a table server's address, as "wss://example.org".
            return _("Table server: {address}").format(address=settings.table_server)
        if key == "table_password":
            if not settings.table_password:
                # Translators: tables the player hosts have no password: the code joins.
                return _("Table password: none, the code alone joins")
            # Translators: {password} is the password a friend types to join the player's
            # tables.
            return _("Table password: {password}").format(password=settings.table_password)
        # Translators: whether moving past the last item of a menu comes round to the first.
        return _("Menu wrap: on") if settings.menu_wrap else _("Menu wrap: off")

    def _items(self) -> list[Item]:
        settings = self.comfort.settings
        items = [Item(self.label(key, settings), ItemKind.TEXT) for key in SETTING_KEYS]
        # Translators: the button that opens the Keys screen, where each command's key and
        # controller button can be changed.
        items.append(Item(_("Keys and controller buttons"), ItemKind.BUTTON,
                          press=lambda: self.host.push(KeysScreen(self.host, self.comfort))))
        items.append(Item(report_item(), ItemKind.BUTTON,
                          press=lambda: self.host.open_extra(Extra.REPORT)))
        items.append(Item(_("Reset to defaults"), ItemKind.BUTTON, press=self.reset))
        # Translators: the button that closes the settings menu.
        items.append(Item(p_("button", "Done"), ItemKind.BUTTON, press=self.close))
        return items

    def focused_setting(self) -> str | None:
        """The setting the focus is on (the list starts with SETTING_KEYS in order), or None
        on the buttons after them."""
        focus = self.menu.group.focus
        return SETTING_KEYS[focus] if focus < len(SETTING_KEYS) else None

    def refresh(self) -> None:
        """Every line again, in the settings as they are now."""
        group = self.menu.group
        focus = group.focus
        group.items = self._items()
        group.focus = focus

    def intro(self) -> str:
        # Translators: {menu} is the menu's description and its focused item, said after; the
        # other names in braces are keys.
        return self.host.keys.fill(_(
            "Settings. {previous_item} and {next_item} choose a setting, {setting_less} and "
            "{setting_more} change it, Shift for bigger steps. Changes are saved at once; "
            "{back} closes. {menu}"), menu=self.menu.describe(entering=True))

    # -- keys --------------------------------------------------------------------------------

    def on_command(self, command: Command) -> bool:
        key = self.focused_setting()
        if key is None:
            return False
        if key in TYPED and command in (Command.TOGGLE, Command.ACTIVATE):
            self.host.push(self._typing(key))
            return True
        if key in TYPED and command in STEPS:
            self.host.cue("menu_edge")
            # Translators: Left or Right on a setting that is typed instead (an address, a
            # password); {activate} is a key.
            self.host.say(self.host.keys.fill(_("Press {activate} to type it.")))
            return True
        if command in STEPS:
            direction, big = STEPS[command]
            self.adjust(key, direction, big)
            return True
        if command in (Command.TOGGLE, Command.ACTIVATE):
            if key in CYCLED:
                self.adjust(key, 1, False, cycle=True)
            else:
                self.host.cue("menu_edge")
                # Translators: {setting_less} and {setting_more} are keys.
                self.host.say(self.host.keys.fill(_(
                    "Use {setting_less} and {setting_more} to change this one.")))
            return True
        return False

    def _typing(self, key: str) -> TypedSetting:
        """The line to type setting `key` on; what is typed there is saved and said."""
        def typed(value: str) -> None:
            self.comfort.change(self.comfort.settings.changed(**{key: value}))
            self.refresh()
            self.host.cue("menu_select")
            self.host.say(self.label(key, self.comfort.settings))

        screen = ServerAddressScreen if key == "table_server" else PasswordSettingScreen
        return screen(self.host, getattr(self.comfort.settings, key), typed)

    def reset(self) -> None:
        # The player's keys stay: Keys has its own reset, and a player who changed them may
        # not reach the game's own.
        self.comfort.change(Settings(keys=self.comfort.settings.keys))
        self.refresh()
        self.host.cue("menu_select")
        # Translators: {menu} is the menu's focused item, said after.
        self.host.say(_("All settings are back to their defaults. {menu}").format(
            menu=self.menu.describe()))

    def on_escape(self) -> bool:
        self.close()
        return True

    def close(self) -> None:
        self.comfort.settings_focus = self.menu.group.focus
        self.host.pop()  # says "Back." and where the focus returned

    # -- changing ----------------------------------------------------------------------------

    def adjust(self, key: str, direction: int, big: bool, cycle: bool = False) -> None:
        """Move one setting a step; announce it in its new form, or the edge when at an end."""
        old = self.comfort.settings
        new = self._stepped(key, old, direction, big, cycle)
        engines = self.comfort.controls.engine_choices()
        if key == "speech_engine" and len(engines) < 2:
            self.host.cue("menu_edge")
            # Translators: {engine} is a speech engine's name, as "eSpeak NG".
            self.host.say(_("Only {engine} speaks on this system.").format(
                engine=engines[0][1]))
            return
        if new == old and key == "voice" and len(self.voice_list) < 2:
            self.host.cue("menu_edge")
            self.host.say(_("No other voices are installed."))
            return
        if new == old:
            self.host.cue("menu_edge")
            # Translators: {setting} is a setting and its value, as "Speech rate: 450 words per
            # minute"; it cannot go further that way.
            self.host.say(_("{setting}, the limit.").format(setting=self.label(key, old)))
            return
        self.comfort.change(new)
        self.refresh()
        if key == "cue_volume":
            self.host.cue("menu_select")  # heard at the new cue volume
        label = self.label(key, new)
        if key == "computer":  # a game keeps its opponent
            # Translators: {setting} is the new opponent setting, as "Opponent: the coach, who
            # knows the tables"; it applies to the next game.
            label = _("{setting}, from the next game").format(setting=label)
        self.host.say(label)

    def _stepped(self, key: str, old: Settings, direction: int, big: bool,
                 cycle: bool) -> Settings:
        if key == "speech_rate":
            low, high = self.comfort.controls.rate_range()
            step = RATE_BIG_STEP if big else RATE_STEP
            rate = max(low, min(high, old.speech_rate + direction * step))
            return old.changed(speech_rate=rate)
        if key in ("speech_volume", "cue_volume", "crowd_volume"):
            volume_step = VOLUME_BIG_STEP if big else VOLUME_STEP
            floor = MIN_SPEECH_VOLUME if key == "speech_volume" else 0.0
            value = round(max(floor, min(1.0, getattr(old, key) + direction * volume_step)), 2)
            return old.changed(**{key: value})
        if key in SWITCHES:
            return old.changed(**{key: not old.switch(key)})
        if key in FLAGS:
            return old.changed(**{key: not getattr(old, key)})
        if key == "speech_engine":
            names = [name for name, _label in self.comfort.controls.engine_choices()]
            index = names.index(old.speech_engine) if old.speech_engine in names else 0
            index = (index + direction) % len(names)  # two at most: always a change
            # A voice belongs to its engine: the new one starts with its default voice.
            return old.changed(speech_engine=names[index], voice="")
        if key == "language":
            codes = available()
            current = active().code
            index = codes.index(current) if current in codes else 0
            # A new language brings its own voice, so a voice chosen for the old one goes.
            return old.changed(language=_step(codes, index, direction, cycle), voice="")
        if key == "text_size":
            size = _step(TEXT_SIZES, TEXT_SIZES.index(old.text_size), direction, cycle)
            return old.changed(text_size=size)
        if key == "verbosity":  # a preset: its switches come with it
            level = _step(VERBOSITIES, VERBOSITIES.index(old.verbosity), direction, cycle)
            return old.preset(level) if level != old.verbosity else old
        if key == "computer":
            return old.changed(computer=_step(COMPUTERS, COMPUTERS.index(old.computer),
                                              direction, cycle))
        if key == "key_repeat":
            repeats = tuple(KEY_REPEATS)
            return old.changed(key_repeat=_step(repeats, repeats.index(old.key_repeat),
                                                direction, cycle))
        if key == "seat_wait":
            return old.changed(seat_wait=_step(SEAT_WAITS, SEAT_WAITS.index(old.seat_wait),
                                               direction, cycle))
        if key == "turn_limit":
            return old.changed(turn_limit=_step(TURN_LIMITS, TURN_LIMITS.index(old.turn_limit),
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


def _switch_label(key: str, on: bool) -> str:
    """One of the switches under the verbosity dial, as the settings line says it."""
    if key == "dice":
        # Translators: a switch under Verbosity: the rolls and the percentages behind results.
        return _("Dice and percentages: on") if on else _("Dice and percentages: off")
    if key == "explanations":
        # Translators: a switch under Verbosity: screens explain themselves every time (off:
        # the first time), and results add their reasons.
        return _("Explanations and hints: every time") if on else _(
            "Explanations and hints: the first time")
    if key == "positions":
        # Translators: a switch under Verbosity: "2 of 4" on every move in a list (off: only
        # when a list is entered).
        return _("Positions in lists: on every move") if on else _(
            "Positions in lists: when a list is entered")
    # Translators: a switch under Verbosity: whether the other team's swaps of cards (the
    # computer's, or a friend's at a table) are said.
    return _("The other team's swaps: said") if on else _("The other team's swaps: not said")


def _step(choices: Sequence[T], index: int, step: int, cycle: bool) -> T:
    """The choice `step` places on from `index`: round past the ends when cycling (Space and
    Enter), else stopping at the end (the arrows, which then say "the limit")."""
    index += step
    if cycle:
        index %= len(choices)
    return choices[max(0, min(len(choices) - 1, index))]
