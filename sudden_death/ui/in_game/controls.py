"""The game's own keys: what a command does when the screen on top did not take it (help,
repeat, where, the review sections, card details, matchups, the history...), the section and
details those keys open, and the window's `View` of it all.

Kept out of `app.py`, which holds what every game shares (speaking, the screens, the flow of
a game); the app hands every key and typed text here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

import pygame

from ...audio.protocols import Category, CuePlayer, Priority, Speaker
from ...engine.actions import held_hand, role_of
from ...engine.state import GameState
from ...language import _
from ..aids.comfort import Comfort
from ..aids.keys_screen import KeyCapture
from ..friends import Friends
from ..keys.keymap import (
    MODIFIER_KEYS,
    MOVES,
    PICKS,
    REPEAT_KEYS,
    Command,
    Context,
    KeyMap,
    is_pad,
    pick_number,
    types_text,
)
from ..play import Play
from ..screens import review as sections
from ..screens.base import Extra, Screen
from ..screens.decisions import FinalCallScreen
from ..screens.explorer import ExplorerHost, open_explorer
from ..screens.hands import SubstitutionScreen
from ..screens.menu import Feedback, Menu
from ..session import Session
from ..window.render import View
from ..words.cards import card_details
from ..words.help import screen_help
from ..words.matchups import matchups_words, needed_now, swap_words
from ..words.phrases import Names, score_words
from ..words.reveal import shown_hands
from ..words.situation import human_spots, situation_words
from ..words.verbosity import Telling, Verbosity
from .panel import Panel

# Commands heard on every screen before the screen itself sees the key.
BEFORE_SCREENS = frozenset({Command.SCROLL_UP, Command.SCROLL_DOWN, Command.SILENCE,
                            Command.HELP})


class ControlsHost(ExplorerHost, Protocol):
    """What the game's own keys ask of the app."""

    speaker: Speaker
    cues: CuePlayer
    panel: Panel
    session: Session
    comfort: Comfort
    friends: Friends
    names: Names
    keys: KeyMap
    dirty: bool

    @property
    def match(self) -> Play | None: ...

    @property
    def top(self) -> Screen: ...

    @property
    def opponent(self) -> str | None: ...

    @property
    def telling(self) -> Telling: ...

    def game_state(self) -> GameState | None: ...

    def say(self, text: str, *, interrupt: bool = True, category: Category = Category.MENU,
            priority: Priority = Priority.INFO,
            on_start: Callable[[], None] | None = None) -> None: ...

    def feedback(self, result: Feedback) -> None: ...


class Controls:
    """The game's own keys, the review section and card details they open."""

    def __init__(self, app: ControlsHost) -> None:
        self.app = app
        self.section = 0  # 0: the decision; else the review section the player is in (H)
        self.section_menu: Menu | None = None
        self.details_for: object = None  # the card whose details are shown (D)
        self.details = ""
        self.help_step = 0  # 1 after F1 read the screen's help: F1 again reads every key
        self.commands = self.command_table()

    # -- keys --------------------------------------------------------------------------------

    def active_menu(self) -> Menu:
        menu = self.section_menu if self.section and self.section_menu else self.app.top.menu
        menu.telling = self.app.telling
        return menu

    def handle_text(self, text: str) -> None:
        if self.section == 0:
            self.app.top.handle_text(text)
        self.app.dirty = True

    def handle_key(self, key: int, mod: int) -> None:
        """A key press: the key map says what it means; the screen on top may use that first
        (its own context's meaning, then the game's), and otherwise the app does it."""
        self.app.dirty = True
        self.app.panel.fade_notices()
        if key in MODIFIER_KEYS:
            return
        shift = bool(mod & pygame.KMOD_SHIFT)
        self.app.keys.speaks_pad = is_pad(key)  # help names the keys of what the player holds
        if self.section == 0 and isinstance(self.app.top, KeyCapture):
            self.app.top.capture(key, shift)  # any key may be the one chosen
            return
        command = self.app.keys.command(key, shift)
        screen = self.app.top
        # On a screen that takes text a key that types a letter types it, whatever it does
        # elsewhere (a player's own keys may be letters: J to confirm still types a J).
        typing = self.section == 0 and screen.takes_text and types_text(key)
        if command in BEFORE_SCREENS and not typing:
            self.commands[command]()
            return
        self.help_step = 0
        if self.section == 0:
            own = (self.app.keys.command(key, shift, screen.key_context)
                   if screen.key_context is not Context.GAME else None)
            if own is not None and screen.on_command(own):
                return
            if typing:
                return  # it arrives as text input
            if command is not None and screen.on_command(command):
                return
        if command is None or command not in self.commands:
            self.app.cue("menu_error")
            self.app.say(_("That key does nothing here. Press F1 for help."))
            return
        self.commands[command]()

    def repeats(self, key: int, mod: int) -> bool:
        """Whether `key`, held, repeats here and now: an arrow or the D-pad, meaning a command
        that only moves (MOVES) on the screen on top; Left and Right in settings change the
        setting, so they do not, and nothing repeats where a key is being chosen."""
        if key not in REPEAT_KEYS:
            return False
        shift = bool(mod & pygame.KMOD_SHIFT)
        screen = self.app.top
        if self.section == 0:
            if isinstance(screen, KeyCapture):
                return False
            if screen.key_context is not Context.GAME:
                own = self.app.keys.command(key, shift, screen.key_context)
                if own is not None:
                    return own in MOVES
        return self.app.keys.command(key, shift) in MOVES

    def command_table(self) -> dict[Command, Callable[[], None]]:
        """What each command of the game's context does when no screen took it."""
        comfort = self.app.comfort

        def menu(step: Callable[[Menu], Feedback]) -> Callable[[], None]:
            return lambda: self._menu_feedback(step(self.active_menu()))

        def wrap() -> bool:
            return comfort.settings.menu_wrap

        table: dict[Command, Callable[[], None]] = {
            Command.SCROLL_UP: lambda: self.scroll_panel(-1),
            Command.SCROLL_DOWN: lambda: self.scroll_panel(1),
            Command.SILENCE: self.app.speaker.silence,
            Command.HELP: self.help,
            Command.BACK: self.back,
            Command.NEXT_SECTION: lambda: self.step_section(1),
            Command.PREVIOUS_SECTION: lambda: self.step_section(-1),
            Command.SITUATION: self.say_situation,
            Command.REPEAT: self.repeat,
            Command.WHERE: self.where,
            Command.LAST_PLAY: self.last_play,
            Command.CHAT: self.app.friends.open_chat,
            Command.MORE_TIME: self.app.friends.more_time,
            Command.LESSON: comfort.guide.toggle,
            Command.DETAILS: self.toggle_details,
            Command.EXPLORER: lambda: open_explorer(self.app),
            Command.MATCHUPS: self.say_matchups,
            Command.HISTORY_BACK: lambda: comfort.review(comfort.history.step(-1)),
            Command.HISTORY_FORWARD: lambda: comfort.review(comfort.history.step(1)),
            Command.HISTORY_FIRST: lambda: comfort.review(comfort.history.first()),
            Command.HISTORY_LAST: lambda: comfort.review(comfort.history.last()),
            Command.HISTORY_FILTER: lambda: comfort.review(comfort.history.cycle_filter(1)),
            Command.HISTORY_FILTER_BACK:
                lambda: comfort.review(comfort.history.cycle_filter(-1)),
            Command.FIELD_TONE: lambda: comfort.play_field_tone(speak=True),
            Command.SETTINGS: lambda: comfort.open(Extra.SETTINGS),
            Command.NEXT_CONTROL: menu(lambda m: m.next_group(1)),
            Command.PREVIOUS_CONTROL: menu(lambda m: m.next_group(-1)),
            Command.PREVIOUS_ITEM: menu(lambda m: m.move(-1, wrap=wrap())),
            Command.NEXT_ITEM: menu(lambda m: m.move(1, wrap=wrap())),
            Command.FIRST_ITEM: menu(Menu.home),
            Command.LAST_ITEM: menu(Menu.end),
            Command.TOGGLE: menu(Menu.toggle),
            Command.ACTIVATE: self.activate,
        }
        for pick in PICKS:
            table[pick] = menu(partial(Menu.pick, number=pick_number(pick) or 1))
        return table

    def back(self) -> None:
        """Escape: out of a review section, else the screen's own step back, else quit?"""
        if self.section:
            self.goto_section(0)
        elif not self.app.top.on_escape():
            self.app.ask_quit()

    def step_section(self, delta: int) -> None:
        self.goto_section((self.section + delta) % len(sections.SECTION_NAMES))

    def repeat(self) -> None:
        """R: the last announcement (a result, a reveal, a swap, a notice), not a focus move."""
        words = self.app.panel.last_announcement or self.app.panel.last_question
        self.app.say(words or _("Nothing to repeat yet."), category=Category.REPEAT)

    def scroll_panel(self, direction: int) -> None:
        """Page Up / Page Down: the text panel a page at a time, for whoever reads it."""
        scroll = self.app.panel.scroll(direction)
        if scroll.cue:
            self.app.cue(scroll.cue)
        self.app.say(scroll.words, category=Category.PAGE)

    def where(self) -> None:
        """W: where the focus is, the list and the entry with its place."""
        self.app.say(self.active_menu().describe_group(), category=Category.REPEAT)

    def last_play(self) -> None:
        """L: the last snap or kick told again in full, whatever the verbosity."""
        lines = self.app.session.last_play_lines(Telling.preset(Verbosity.DETAILED))
        if not lines:
            self.app.cue("menu_error")
            self.app.say(_("No play yet."), category=Category.INFO)
            return
        self.app.say(" ".join(line.text for line in lines if line.text), category=Category.REPEAT)

    def activate(self) -> None:
        """Enter: in a review section, back to the decision; else press or confirm."""
        if self.section:
            self.goto_section(0)
        else:
            self._menu_feedback(self.active_menu().activate())

    def help(self) -> None:
        """F1: what this screen is for; pressed again, every key."""
        if self.help_step == 1:
            self.help_step = 0
            self.app.say(self.app.keys.key_list(), category=Category.HELP)
            return
        self.help_step = 1
        name = "section" if self.section else self.app.top.help_key
        self.app.say(screen_help(name, self.app.keys, self.app.opponent), category=Category.HELP)

    def _menu_feedback(self, result: Feedback) -> None:
        if result.cue == "menu_move":
            self.details_for, self.details = None, ""
        self.app.feedback(result)
        if self.section:
            return
        if result.activated is not None:
            self.app.top.on_button(result.activated)
        elif result.confirm:
            self.app.top.confirm()

    def reset_view(self) -> None:
        """Back to the decision itself: no review section, no card details shown."""
        self.section, self.section_menu = 0, None
        self.details_for, self.details = None, ""

    def goto_section(self, index: int) -> None:
        self.section = index
        self.details_for, self.details = None, ""
        name = sections.section_name(index, self.app.opponent)
        if index == 0:
            self.section_menu = None
            self.app.say(f"{name}. {self.active_menu().describe_group()}")
            return
        if index == 1:
            menu = sections.computer_calls_menu(self.app.session.computer, self.app.opponent)
        elif index == 2:
            role = self.app.match.role_of(self.app.names.you) if self.app.match else None
            menu = sections.rosters_menu(role, self.app.names.mine, self.app.names.theirs)
        else:
            menu = sections.game_log_menu(self.app.panel.log)
        self.section_menu = menu
        self.app.say(sections.intro(name, self.active_menu()))

    def say_situation(self) -> None:
        if self.app.match is None:
            self.app.say(_("No game yet. Name the teams to start."), category=Category.INFO)
            return
        self.app.say(situation_words(self.app.match.state, self.app.names), category=Category.INFO)

    def say_matchups(self) -> None:
        """M: at the swap and the final call, each of your calls against each of theirs; on a
        card you might bring in, as they would be with it."""
        screen = self.app.top if self.section == 0 else None
        state = self.app.game_state()
        if not isinstance(screen, (SubstitutionScreen, FinalCallScreen)) or state is None:
            self.app.cue("menu_error")
            self.app.say(_("Matchups come once both hands are shown: at the swap and the final "
                       "call."), category=Category.INFO)
            return
        you = self.app.names.you
        mine, theirs = held_hand(state, you), held_hand(state, you.other)
        role = role_of(state, you)
        assert mine is not None and theirs is not None and role is not None
        needed = needed_now(state)
        swap = screen.considered() if isinstance(screen, SubstitutionScreen) else None
        if swap is None or swap.out is None or swap.into is None:
            self.app.say(matchups_words(role, mine, theirs, needed), category=Category.INFO)
            return
        self.app.say(swap_words(role, mine, swap, theirs, needed), category=Category.INFO)

    def toggle_details(self) -> None:
        item = self.active_menu().item
        card = item.card if item is not None else None
        if card is None:
            self.app.cue("menu_error")
            self.app.say(_("Details are for cards; focus a player or a call first."))
            return
        if self.details_for == card:
            self.details_for, self.details = None, ""
            self.app.say(_("Details closed."))
            return
        self.details_for, self.details = card, card_details(card)
        self.app.say(self.details, category=Category.DETAILS)


    def view(self) -> View:
        scores = self.app.match.state.scores if self.app.match else (0, 0)
        ball = marker = None
        situation = _("Welcome")
        if self.app.match is not None:
            state = self.app.match.state
            situation = situation_words(state, self.app.names).split(". ", 1)[-1]
            spots = human_spots(state, self.app.names.you)
            if spots is not None:
                ball, marker, _mine = spots
        return View(
            score=score_words(scores, self.app.names) if self.app.match is not None else "",
            situation=situation,
            menu=self.active_menu(),
            section=sections.section_name(self.section, self.app.opponent) if self.section else "",
            result=self.app.session.result,
            details=self.details,
            last_spoken=self.app.panel.last_spoken,
            notices=self.app.panel.shown_notices(),
            ball=ball,
            marker=marker,
            text_size=self.app.comfort.settings.text_size,
            panel_first=self.app.panel.first,
            key_names=self.app.keys.placeholders(),
            hands=(shown_hands(self.app.match.state, self.app.names, self.app.session.brought_in)
                   if self.app.match is not None else ()),
        )
