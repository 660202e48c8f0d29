"""Which key does what, as data: one table of bindings that the app dispatches through and that
F1's key list, the help texts and the docs' key table are written from.

A `Binding` ties a `Command` to its keys (`Chord`s) in a `Context`: the whole game, or one
screen whose keys mean something of their own there (settings, typing a name). The app asks
the `KeyMap` what a key press means; screens only ever see commands, never key codes. Help
texts name keys through placeholders (`{activate}`), which the key map fills with the names of
the keys bound now, so a help text can't name a key that does something else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

import pygame

from ...language import N_, _, p_

# SDL gives keys that type a character a code below this; the others (arrows, F keys, the
# keypad) carry this bit. A screen that takes typed text lets those keys type, not act.
SCANCODE_KEYS = 1 << 30
# A game controller's buttons are keys too, from here up (SDL's GameController button number
# added): above every character, below SCANCODE_KEYS, so one table holds keys and buttons.
PAD_BASE = 1 << 29


class Pad(Enum):
    """A controller's buttons, as SDL's GameController layer numbers them (an Xbox layout;
    other pads are mapped onto it by SDL). The left stick is read as the D-pad."""

    A = 0
    B = 1
    X = 2
    Y = 3
    BACK = 4
    GUIDE = 5
    START = 6
    LEFT_STICK = 7
    RIGHT_STICK = 8
    LEFT_SHOULDER = 9
    RIGHT_SHOULDER = 10
    DPAD_UP = 11
    DPAD_DOWN = 12
    DPAD_LEFT = 13
    DPAD_RIGHT = 14

    @property
    def key(self) -> int:
        """The button as a key of the key map."""
        return PAD_BASE + self.value


def is_pad(key: int) -> bool:
    """Whether a key of the key map is a controller's button."""
    return PAD_BASE <= key < PAD_BASE + 64


PAD_NAMES = {
    # Translators: a game controller's buttons, as help names them ("Press A on Start a game").
    Pad.A: N_("A"), Pad.B: N_("B"), Pad.X: N_("X"), Pad.Y: N_("Y"),
    # Translators: the controller's Back or View button (left of the middle).
    Pad.BACK: N_("Back button"),
    Pad.GUIDE: N_("Guide button"),
    # Translators: the controller's Start or Menu button (right of the middle).
    Pad.START: N_("Start button"),
    Pad.LEFT_STICK: N_("left stick press"), Pad.RIGHT_STICK: N_("right stick press"),
    Pad.LEFT_SHOULDER: N_("left shoulder"), Pad.RIGHT_SHOULDER: N_("right shoulder"),
    Pad.DPAD_UP: N_("D-pad up"), Pad.DPAD_DOWN: N_("D-pad down"),
    Pad.DPAD_LEFT: N_("D-pad left"), Pad.DPAD_RIGHT: N_("D-pad right"),
}


class Context(Enum):
    """Where a binding works: everywhere, or on one kind of screen (before the shared keys)."""

    GAME = "game"
    SETTINGS = "settings"
    TYPING = "typing"
    KEYS = "keys"  # the Keys screen, where keys are chosen


class Command(Enum):
    """Everything a key can do. The value names the command in help texts' placeholders."""

    NEXT_CONTROL = "next_control"
    PREVIOUS_CONTROL = "previous_control"
    PREVIOUS_ITEM = "previous_item"
    NEXT_ITEM = "next_item"
    FIRST_ITEM = "first_item"
    LAST_ITEM = "last_item"
    PICK_1 = "pick_1"
    PICK_2 = "pick_2"
    PICK_3 = "pick_3"
    PICK_4 = "pick_4"
    PICK_5 = "pick_5"
    PICK_6 = "pick_6"
    PICK_7 = "pick_7"
    PICK_8 = "pick_8"
    PICK_9 = "pick_9"
    TOGGLE = "toggle"
    ACTIVATE = "activate"
    BACK = "back"
    NEXT_SECTION = "next_section"
    PREVIOUS_SECTION = "previous_section"
    SITUATION = "situation"
    REPEAT = "repeat"
    WHERE = "where"
    LAST_PLAY = "last_play"
    LESSON = "lesson"
    DETAILS = "details"
    EXPLORER = "explorer"
    MATCHUPS = "matchups"
    SILENCE = "silence"
    CHAT = "chat"
    MORE_TIME = "more_time"
    HELP = "help"
    HISTORY_BACK = "history_back"
    HISTORY_FORWARD = "history_forward"
    HISTORY_FIRST = "history_first"
    HISTORY_LAST = "history_last"
    HISTORY_FILTER = "history_filter"
    HISTORY_FILTER_BACK = "history_filter_back"
    FIELD_TONE = "field_tone"
    SETTINGS = "settings"
    SCROLL_UP = "scroll_up"
    SCROLL_DOWN = "scroll_down"
    # Settings: the focused setting's value.
    SETTING_LESS = "setting_less"
    SETTING_MORE = "setting_more"
    SETTING_LESS_BIG = "setting_less_big"
    SETTING_MORE_BIG = "setting_more_big"
    # Typing a name.
    ERASE = "erase"
    # The Keys screen: the focused command's own keys again.
    RESET_KEY = "reset_key"


PICKS = (Command.PICK_1, Command.PICK_2, Command.PICK_3, Command.PICK_4, Command.PICK_5,
         Command.PICK_6, Command.PICK_7, Command.PICK_8, Command.PICK_9)


# Commands that only move (through a list, the history, the text shown): a held key that means
# one of them repeats (ui/run/repeat.py); a command that acts never does.
MOVES = frozenset({Command.PREVIOUS_ITEM, Command.NEXT_ITEM, Command.HISTORY_BACK,
                   Command.HISTORY_FORWARD, Command.SCROLL_UP, Command.SCROLL_DOWN})
# The keys and buttons that repeat while held, when what they mean is one of MOVES: the arrows
# and the D-pad (the left stick presses the D-pad's buttons).
REPEAT_KEYS = frozenset({pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT, pygame.K_RIGHT,
                         PAD_BASE + Pad.DPAD_UP.value, PAD_BASE + Pad.DPAD_DOWN.value,
                         PAD_BASE + Pad.DPAD_LEFT.value, PAD_BASE + Pad.DPAD_RIGHT.value})


def pick_number(command: Command) -> int | None:
    """1-9 for a pick command (the Nth item of the list), else None."""
    return PICKS.index(command) + 1 if command in PICKS else None


@dataclass(frozen=True)
class Chord:
    """A key, with or without Shift. `named` is False for a second key that help leaves unsaid
    (the keypad's Enter and digits, Left and Right beside Up and Down, the right Control)."""

    key: int
    shift: bool = False
    named: bool = True

    @property
    def pad(self) -> bool:
        """A controller's button, not a key."""
        return is_pad(self.key)

    def name(self) -> str:
        """The key as the player hears it: "Enter", "Shift+Tab", "H", "A"."""
        base = key_name(self.key)
        # Translators: a key pressed with Shift: "Shift+Tab", "Shift+H".
        return _("Shift+{key}").format(key=base) if self.shift else base


@dataclass(frozen=True)
class Binding:
    """What a command's keys are, and where they work."""

    command: Command
    chords: tuple[Chord, ...]
    context: Context = Context.GAME


@dataclass(frozen=True)
class KeyHelp:
    """One sentence of F1's key list, naming its commands' keys through placeholders, and the
    same keys' entry in the docs' table (`summary`, English: the docs are English)."""

    commands: tuple[Command, ...]
    spoken: str  # an N_ message: translated where it is said
    summary: str


def _keys(*keys: int, shift: bool = False) -> tuple[Chord, ...]:
    return tuple(Chord(key, shift) for key in keys)


def _also(*keys: int) -> tuple[Chord, ...]:
    """Keys that work too but are not named in help."""
    return tuple(Chord(key, named=False) for key in keys)


def _pad(*buttons: Pad, named: bool = True) -> tuple[Chord, ...]:
    return tuple(Chord(button.key, named=named) for button in buttons)


DIGITS = (pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_5, pygame.K_6, pygame.K_7,
          pygame.K_8, pygame.K_9)
KEYPAD_DIGITS = (pygame.K_KP1, pygame.K_KP2, pygame.K_KP3, pygame.K_KP4, pygame.K_KP5,
                 pygame.K_KP6, pygame.K_KP7, pygame.K_KP8, pygame.K_KP9)


def default_bindings() -> tuple[Binding, ...]:
    """The game's keys (SPEC's table and the rest), before any player changes them."""
    game = [
        Binding(Command.NEXT_CONTROL, _keys(pygame.K_TAB) + _pad(Pad.RIGHT_SHOULDER)),
        Binding(Command.PREVIOUS_CONTROL,
                _keys(pygame.K_TAB, shift=True) + _pad(Pad.LEFT_SHOULDER)),
        Binding(Command.PREVIOUS_ITEM, _keys(pygame.K_UP) + _also(pygame.K_LEFT)
                + _pad(Pad.DPAD_UP) + _pad(Pad.DPAD_LEFT, named=False)),
        Binding(Command.NEXT_ITEM, _keys(pygame.K_DOWN) + _also(pygame.K_RIGHT)
                + _pad(Pad.DPAD_DOWN) + _pad(Pad.DPAD_RIGHT, named=False)),
        Binding(Command.FIRST_ITEM, _keys(pygame.K_HOME)),
        Binding(Command.LAST_ITEM, _keys(pygame.K_END)),
        *(Binding(pick, _keys(digit) + _also(keypad))
          for pick, digit, keypad in zip(PICKS, DIGITS, KEYPAD_DIGITS, strict=True)),
        Binding(Command.TOGGLE, _keys(pygame.K_SPACE) + _pad(Pad.X)),
        Binding(Command.ACTIVATE, _keys(pygame.K_RETURN) + _also(pygame.K_KP_ENTER) + _pad(Pad.A)),
        Binding(Command.BACK, _keys(pygame.K_ESCAPE) + _pad(Pad.B)),
        Binding(Command.NEXT_SECTION, _keys(pygame.K_h) + _pad(Pad.RIGHT_STICK)),
        Binding(Command.PREVIOUS_SECTION, _keys(pygame.K_h, shift=True)),
        Binding(Command.SITUATION, _keys(pygame.K_s) + _pad(Pad.LEFT_STICK)),
        Binding(Command.REPEAT, _keys(pygame.K_r) + _pad(Pad.Y)),
        Binding(Command.WHERE, _keys(pygame.K_w)),
        Binding(Command.LAST_PLAY, _keys(pygame.K_l)),
        Binding(Command.LESSON, _keys(pygame.K_g)),
        Binding(Command.DETAILS, _keys(pygame.K_d)),
        Binding(Command.EXPLORER, _keys(pygame.K_e)),
        Binding(Command.MATCHUPS, _keys(pygame.K_m)),
        Binding(Command.SILENCE, _keys(pygame.K_LCTRL) + _also(pygame.K_RCTRL)),
        Binding(Command.CHAT, _keys(pygame.K_t)),
        Binding(Command.MORE_TIME, _keys(pygame.K_a)),  # A: add time
        Binding(Command.HELP, _keys(pygame.K_F1) + _pad(Pad.BACK)),
        Binding(Command.HISTORY_BACK, _keys(pygame.K_COMMA)),
        Binding(Command.HISTORY_FORWARD, _keys(pygame.K_PERIOD)),
        Binding(Command.HISTORY_FIRST, _keys(pygame.K_COMMA, shift=True)),
        Binding(Command.HISTORY_LAST, _keys(pygame.K_PERIOD, shift=True)),
        Binding(Command.HISTORY_FILTER, _keys(pygame.K_SLASH)),
        Binding(Command.HISTORY_FILTER_BACK, _keys(pygame.K_SLASH, shift=True)),
        Binding(Command.FIELD_TONE, _keys(pygame.K_f)),
        Binding(Command.SETTINGS, _keys(pygame.K_o, pygame.K_F2) + _pad(Pad.START)),
        Binding(Command.SCROLL_UP, _keys(pygame.K_PAGEUP)),
        Binding(Command.SCROLL_DOWN, _keys(pygame.K_PAGEDOWN)),
    ]
    settings = [
        Binding(Command.SETTING_LESS, _keys(pygame.K_LEFT) + _pad(Pad.DPAD_LEFT),
                Context.SETTINGS),
        Binding(Command.SETTING_MORE, _keys(pygame.K_RIGHT) + _pad(Pad.DPAD_RIGHT),
                Context.SETTINGS),
        Binding(Command.SETTING_LESS_BIG, _keys(pygame.K_LEFT, shift=True), Context.SETTINGS),
        Binding(Command.SETTING_MORE_BIG, _keys(pygame.K_RIGHT, shift=True), Context.SETTINGS),
    ]
    typing = [Binding(Command.ERASE, _keys(pygame.K_BACKSPACE), Context.TYPING)]
    keys = [Binding(Command.RESET_KEY, _keys(pygame.K_DELETE, pygame.K_BACKSPACE), Context.KEYS)]
    return (*game, *settings, *typing, *keys)


# F1's key list, in the order it is read (every command of the GAME context appears once).
KEY_HELP: tuple[KeyHelp, ...] = (
    KeyHelp((Command.NEXT_CONTROL, Command.PREVIOUS_CONTROL),
            # Translators: {next_control} and {previous_control} are keys, as "Tab" and
            # "Shift+Tab" (every {name} in this list is a key's name).
            N_("{next_control} and {previous_control} move between controls."),
            "next / previous control of the current decision"),
    KeyHelp((Command.PREVIOUS_ITEM, Command.NEXT_ITEM),
            N_("{previous_item} and {next_item} move within a list, again and again while "
               "held (Settings sets how fast); in a radio group they also select."),
            "move within a list (Left and Right too); in a radio group, select the option"),
    KeyHelp((Command.TOGGLE,),
            N_("{toggle} checks a box or selects an option."),
            "toggle a checkbox; select a radio option"),
    KeyHelp((Command.ACTIVATE,),
            N_("{activate} presses the focused choice or confirms your decision."),
            "press a button, or confirm your decision"),
    KeyHelp((Command.FIRST_ITEM, Command.LAST_ITEM),
            N_("{first_item} and {last_item} jump to the first or last item."),
            "first / last item of a list"),
    KeyHelp(PICKS,
            # Translators: {pick_1} and {pick_9} are the keys of the first and last numbers.
            N_("Number keys {pick_1} to {pick_9} pick that item of the list."),
            "pick that item of the focused list (toggles a checkbox)"),
    KeyHelp((Command.NEXT_SECTION, Command.PREVIOUS_SECTION),
            N_("{next_section} and {previous_section} step through the sections: current "
               "decision, the other team's calls, rosters and game log."),
            "next / previous section: current decision, the other team's calls, rosters, "
            "game log"),
    KeyHelp((Command.SITUATION,),
            N_("{situation} reads the score and situation, and on the last drive what each "
               "side needs."),
            "score and situation; on the last drive, what the side with the ball needs to tie "
            "or win"),
    KeyHelp((Command.REPEAT,),
            N_("{repeat} repeats the last announcement: a result, a reveal, a swap, the new "
               "down or a notice."),
            "repeat the last announcement (a result, a reveal, a swap, the new down, a notice)"),
    KeyHelp((Command.WHERE,),
            N_("{where} says where the focus is."),
            "where the focus is: the list and the entry"),
    KeyHelp((Command.CHAT,),
            N_("{chat}, at a table, opens a line to your friend: type a message, or pick a "
               "quick one, and send it."),
            "at a table: a chat line to your friend (Up and Down: quick messages)"),
    KeyHelp((Command.MORE_TIME,),
            N_("{more_time}, at a table with a turn limit, asks for the whole turn again, up "
               "to 10 times a game."),
            "at a table with a turn limit: the whole turn again (10 times a game)"),
    KeyHelp((Command.LAST_PLAY,),
            N_("{last_play} tells the last play again in full: both final calls, the band, the "
               "dice, the result and the new down."),
            "the last play again in full: both final calls, band, dice, result, the new down"),
    KeyHelp((Command.DETAILS,),
            N_("{details} reads details of the focused card; press it again to close them."),
            "details of the focused card (band 0 statistics and matchups); again to close"),
    KeyHelp((Command.EXPLORER,),
            N_("{explorer} opens the explorer of play cards and bands; it never changes the "
               "game."),
            "open the explorer of play cards and bands (never changes the game)"),
    KeyHelp((Command.MATCHUPS,),
            N_("{matchups}, at the swap and the final call, reads each of your calls against "
               "each of theirs: the band, the average gain and the main risk."),
            "at the swap and the final call: each of your calls against each of theirs, with "
            "both sides' players counted (band, average gain, main risk); on a card you might "
            "bring in, as it would be"),
    KeyHelp((Command.LESSON,),
            N_("{lesson} pauses the guided first drive, and resumes it."),
            "pause or resume the guided first drive"),
    KeyHelp((Command.SILENCE,),
            N_("{silence} silences speech."),
            "silence speech"),
    KeyHelp((Command.HELP,),
            N_("{help} is this help."),
            "help for the current screen; again, every key"),
    KeyHelp((Command.BACK,),
            N_("{back} closes a dialog, or asks whether to quit."),
            "close a dialog and return where you were; in the game, ask to quit"),
    KeyHelp((Command.HISTORY_BACK, Command.HISTORY_FORWARD, Command.HISTORY_FIRST,
             Command.HISTORY_LAST),
            N_("{history_back} and {history_forward} step back and forward through everything "
               "said so far; {history_first} and {history_last} jump to the first and the "
               "last."),
            "history: the message before / after, with \"N of M\"; the first / the last"),
    KeyHelp((Command.HISTORY_FILTER, Command.HISTORY_FILTER_BACK),
            N_("{history_filter} and {history_filter_back} choose everything, results only, "
               "the other team's moves, or the chat at a table."),
            "history: review everything, results only, the other team's moves, or the chat"),
    KeyHelp((Command.FIELD_TONE,),
            N_("{field_tone} plays the field tone: higher and further right means closer to "
               "their goal, then says the ball and the first-down marker."),
            "field tone (pitch and left-right place of the ball), then the spot and first-down "
            "marker"),
    KeyHelp((Command.SETTINGS,),
            N_("{settings} opens settings."),
            "settings (language, speech rate, voice, volumes, verbosity, menu wrap, hear the "
            "play, playing at a table, text size, opponent, overtime, speech engine, speech "
            "output)"),
    KeyHelp((Command.SCROLL_UP, Command.SCROLL_DOWN),
            N_("{scroll_up} and {scroll_down} scroll the text shown under the decision, for "
               "anyone reading the window."),
            "scroll the text under the decision in the window"),
)


# The keys of one kind of screen, for the docs' table (their spoken help is that screen's F1).
SCREEN_KEY_HELP: tuple[tuple[Context, KeyHelp], ...] = (
    (Context.SETTINGS, KeyHelp((Command.SETTING_LESS, Command.SETTING_MORE), "",
                               "in settings: change the focused setting")),
    (Context.SETTINGS, KeyHelp((Command.SETTING_LESS_BIG, Command.SETTING_MORE_BIG), "",
                               "in settings: change it in bigger steps")),
    (Context.TYPING, KeyHelp((Command.ERASE,), "",
                             "typing a team name: remove the last letter")),
    (Context.KEYS, KeyHelp((Command.RESET_KEY,), "",
                           "in Keys: put back the focused command's own keys")),
)


class KeyMap:
    """The bindings in force, looked up by key press; one per app. `speaks_pad`: help names
    the controller's buttons (the player's last press was on one), else the keyboard's keys."""

    def __init__(self, bindings: Iterable[Binding]) -> None:
        self.bindings = tuple(bindings)
        self.speaks_pad = False
        self._commands: dict[tuple[Context, int, bool], Command] = {}
        self._chords: dict[tuple[Context, Command], tuple[Chord, ...]] = {}
        for binding in self.bindings:
            self._chords[(binding.context, binding.command)] = binding.chords
            for chord in binding.chords:
                self._commands[(binding.context, chord.key, chord.shift)] = binding.command

    @classmethod
    def default(cls) -> KeyMap:
        return cls(default_bindings())

    def command(self, key: int, shift: bool, context: Context = Context.GAME) -> Command | None:
        """What the key means in `context`. Shift with a key that has no Shift binding means
        the key alone (Shift+S reads the situation, as S does); Control and Alt are ignored."""
        found = self._commands.get((context, key, shift))
        if found is None and shift:
            found = self._commands.get((context, key, False))
        return found

    def chords(self, command: Command, context: Context = Context.GAME) -> tuple[Chord, ...]:
        return self._chords.get((context, command), ())

    def own_chords(self, command: Command) -> tuple[Chord, ...]:
        """`command`'s keys and buttons, in the one context it belongs to."""
        return next((chords for (_context, bound), chords in self._chords.items()
                     if bound is command), ())

    def names(self, command: Command, typing: bool = False) -> str:
        """The keys of `command` as help says them: "O or F2"; "" when it has none. Each
        command belongs to one context, so its name is the same wherever it is said. On the
        device the player is using; a command with no button is named by its key. `typing`:
        said on a screen that takes text, where a key that types a character types it (a
        player's own J for Enter's command), so only the others are named (all of them when
        every one types: a command moved to letters alone)."""
        for context in Context:
            chords = [chord for chord in self.chords(command, context) if chord.named]
            if typing and any(not types_text(chord.key) for chord in chords):
                chords = [chord for chord in chords if not types_text(chord.key)]
            own = [chord.name() for chord in chords if chord.pad is self.speaks_pad]
            named = own or [chord.name() for chord in chords]
            if named:
                # Translators: two keys that do the same thing: "O or F2".
                return named[0] if len(named) == 1 else _("{first} or {second}").format(
                    first=", ".join(named[:-1]), second=named[-1])
        return ""

    def placeholders(self, typing: bool = False) -> Mapping[str, str]:
        """{command value: its keys' names} for every bound command: what help texts' key
        placeholders are filled from (`typing`: on a screen that takes text; see `names`)."""
        return {binding.command.value: self.names(binding.command, typing)
                for binding in self.bindings}

    def describe(self, text: str) -> str:
        """`text` with each {command} placeholder replaced by that command's keys."""
        return text.format_map(self.placeholders())

    def fill(self, text: str, typing: bool = False, **values: object) -> str:
        """`text` with its key placeholders and `values` filled in: what a sentence that names
        keys and other things ("{activate} calls it. {menu}") is said through. `typing`: on a
        screen that takes text, naming only keys that do not type there."""
        return text.format_map({**self.placeholders(typing), **values})

    def key_list(self) -> str:
        """F1 twice: every key, one sentence per entry of KEY_HELP."""
        sentences = [self.describe(_(entry.spoken)) for entry in KEY_HELP]
        # Translators: F1 pressed twice: {keys} is every key's sentence, one after another.
        return _("Keys: {keys}").format(keys=" ".join(sentences))

    def markdown_table(self) -> str:
        """The docs' key table (README and docs/playing.md), written from the same entries."""
        rows = ["| key | controller | does |", "|---|---|---|"]
        for entry in (*KEY_HELP, *(entry for _context, entry in SCREEN_KEY_HELP)):
            if entry.commands == PICKS:
                keys = f"{self.names(PICKS[0])}-{self.names(PICKS[-1])}"
            else:
                keys = " / ".join(self.names(command) for command in entry.commands)
            buttons = " / ".join(filter(None, (self.button_names(command)
                                               for command in entry.commands)))
            rows.append(f"| {keys} | {buttons} | {entry.summary} |")
        return "\n".join(rows)

    def button_names(self, command: Command) -> str:
        """Only the controller's buttons of `command` ("" when it has none): the docs' column."""
        for context in Context:
            named = [chord.name() for chord in self.chords(command, context)
                     if chord.named and chord.pad]
            if named:
                return " or ".join(named)
        return ""


def types_text(key: int) -> bool:
    """Whether the key types a character on a screen that takes text (Enter, Escape, Tab,
    Backspace, Delete and a controller's buttons don't)."""
    return pygame.K_SPACE <= key < PAD_BASE and key != pygame.K_DELETE


MODIFIER_KEYS = frozenset({pygame.K_LSHIFT, pygame.K_RSHIFT, pygame.K_LALT, pygame.K_RALT,
                           pygame.K_CAPSLOCK, pygame.K_LGUI, pygame.K_RGUI, pygame.K_NUMLOCK})
"""Keys that only change another key: pressed alone they do nothing and say nothing."""


def key_name(key: int) -> str:
    """A key's name in the player's language; a letter or digit is itself, capitalised."""
    names = {
        pygame.K_TAB: p_("key", "Tab"),
        pygame.K_RETURN: p_("key", "Enter"),
        pygame.K_KP_ENTER: p_("key", "Enter"),
        pygame.K_ESCAPE: p_("key", "Escape"),
        pygame.K_SPACE: p_("key", "Space"),
        pygame.K_BACKSPACE: p_("key", "Backspace"),
        pygame.K_DELETE: p_("key", "Delete"),
        pygame.K_UP: p_("key", "Up"),
        pygame.K_DOWN: p_("key", "Down"),
        pygame.K_LEFT: p_("key", "Left"),
        pygame.K_RIGHT: p_("key", "Right"),
        pygame.K_HOME: p_("key", "Home"),
        pygame.K_END: p_("key", "End"),
        pygame.K_PAGEUP: p_("key", "Page Up"),
        pygame.K_PAGEDOWN: p_("key", "Page Down"),
        pygame.K_LCTRL: p_("key", "Control"),
        pygame.K_RCTRL: p_("key", "Control"),
        pygame.K_COMMA: p_("key", "Comma"),
        pygame.K_PERIOD: p_("key", "Period"),
        pygame.K_SLASH: p_("key", "Slash"),
    }
    if key in names:
        return names[key]
    if is_pad(key):
        try:
            return _(PAD_NAMES[Pad(key - PAD_BASE)])
        except (KeyError, ValueError):
            # Translators: a controller's button with no name of its own; {number} counts
            # from 0 as SDL does.
            return _("controller button {number}").format(number=key - PAD_BASE)
    if pygame.K_F1 <= key <= pygame.K_F12:
        return f"F{key - pygame.K_F1 + 1}"
    if key < SCANCODE_KEYS and chr(key).isprintable():
        return chr(key).upper()
    return pygame.key.name(key).title()
