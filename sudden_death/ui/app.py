"""The app the screens talk to: a key in, words and cues out.

`ui/loop.py` feeds it pygame's events; it answers with speech, cues and the window's `View`.
Everything it owns that can be kept apart is: the match and the screen stack (`Session`), what
was said (`Panel`), settings and learning aids (`Comfort`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import pygame

from ..audio.protocols import Category, CuePlayer, Message, Priority, Speaker
from ..engine import events as ev
from ..engine.actions import Action, held_hand, role_of
from ..engine.card_model import DefCall, OffCall, Player, Role
from ..engine.computers import COACH
from ..engine.errors import SnapshotError
from ..engine.field import LAST_DOWN
from ..engine.state import GameState, Phase, SnapChoice
from ..language import _
from ..storage.game_file import DamagedSave, load_game, set_aside
from ..storage.record import Opponent
from ..storage.seat_file import load_seat
from .aids.comfort import Comfort
from .aids.keys_screen import KeyCapture
from .friends import Friends
from .keeping import Keeper
from .keymap import (
    MODIFIER_KEYS,
    PICKS,
    Command,
    Context,
    KeyMap,
    is_pad,
    pick_number,
    types_text,
)
from .panel import Panel
from .play import Play
from .screens import review as sections
from .screens.base import ConfirmScreen, Extra, Screen
from .screens.decisions import CoinScreen, FinalCallScreen, GameOverScreen, SideScreen, SnapScreen
from .screens.explorer import open_explorer
from .screens.friend import (
    ChatScreen,
    FriendScreen,
)
from .screens.hands import SelectionScreen, SubstitutionScreen
from .screens.menu import Feedback, Menu
from .screens.welcome import DEFAULT_AWAY, DEFAULT_HOME, NamingScreen, WelcomeScreen
from .session import Session
from .window.render import View
from .words.cards import card_details
from .words.help import screen_help
from .words.kicks import KickOption, field_goal_option, kick_summary, punt_option
from .words.line import Line
from .words.matchups import conversion_words, matchups_words, needed_now, swap_words
from .words.phrases import Names, score_words
from .words.situation import (
    damaged_save_words,
    human_spots,
    outcome_words,
    situation_words,
)
from .words.verbosity import Telling, Verbosity

Card = OffCall | DefCall | Player
# Commands heard on every screen before the screen itself sees the key.
BEFORE_SCREENS = frozenset({Command.SCROLL_UP, Command.SCROLL_DOWN, Command.SILENCE,
                            Command.HELP})


class App:
    """What screens talk to (their `Host`): speech and cues, keys that work on every screen,
    the review sections and details, and the window's view. The match and the screen stack
    live in `session`, what was said in `panel`, settings and learning aids in `comfort`."""

    def __init__(self, speaker: Speaker, cues: CuePlayer, seed: int | None,
                 computer: str | None = None) -> None:
        self.speaker = speaker
        self.cues = cues
        self.running = True
        self.dirty = True
        self.section = 0
        self.section_menu: Menu | None = None
        self.names = Names(_(DEFAULT_HOME), _(DEFAULT_AWAY))
        self.session = Session(seed, self.names)  # the match and the screens
        self.computer_choice = computer  # --computer; None: the saved setting
        self.details_for: object = None
        self.details = ""
        self.panel = Panel()  # what was said: the window's text, R, the log and notices
        self.help_step = 0  # 1 after F1 read the screen's help: F1 again reads every key
        self.coach_explained = False  # what "coached" means is said once a session
        speaker.add_listener(self._heard)
        self.comfort = Comfort(self, speaker, cues)  # settings, history, field tone, how to play
        self.friends = Friends(self)  # the table played at, if any (friends.py)
        self.keeper = Keeper(self)  # the game in progress and the record (keeping.py)
        self.keys = KeyMap.default()  # what each key does (keymap.py)
        self._commands = self._command_table()
        self.config_folder: Path | None = None  # --config; None: the player's own folder
        # Whether the game in progress is kept (game_file.py): set by the loop, never by an
        # app made for a test without a folder of its own.
        self.keeps_games = False
        # Set by the loop: a transcript record, for key scripts that play at a table.
        self.record: Callable[..., None] = lambda kind, **fields: None
        # Set by the loop: told each cue as it plays (a controller rumbles on some).
        self.on_cue: Callable[[str], None] = lambda name: None

    # -- the session's parts, read by screens, comfort and tests -------------------------------

    @property
    def match(self) -> Play | None:
        return self.session.match

    @property
    def stack(self) -> list[Screen]:
        return self.session.stack

    @property
    def opponent(self) -> str | None:
        """The friend's team at a table, whom words name where they would say "the computer";
        None against the computer."""
        match = self.match
        return self.names.theirs if match is not None and match.opponent is Opponent.FRIEND \
            else None

    def game_state(self) -> GameState | None:
        return None if self.session.match is None else self.session.match.state

    # -- speaking ----------------------------------------------------------------------------

    def _heard(self, message: Message) -> None:
        self.panel.heard(message)
        self.dirty = True

    @property
    def notices(self) -> list[str]:
        """Every fault reason shown so far (the window shows those no key has passed yet)."""
        return self.panel.notices

    @property
    def telling(self) -> Telling:
        """What the words include (verbosity and its switches)."""
        return self.comfort.telling

    def say(self, text: str, *, interrupt: bool = True, category: Category = Category.MENU,
            priority: Priority = Priority.INFO,
            on_start: Callable[[], None] | None = None) -> None:
        if text:
            self.speaker.say(text, interrupt=interrupt, priority=priority, category=category,
                             on_start=on_start)
        elif on_start is not None:
            on_start()

    def cue(self, name: str) -> None:
        self.cues.play(name)
        self.on_cue(name)

    def feedback(self, result: Feedback) -> None:
        if result.cue:
            self.cue(result.cue)
        self.say(result.text)

    def speak_lines(self, lines: list[Line], interrupt_first: bool = True) -> None:
        """Say each line; its dice, cue and field tone start with its words, not before."""
        first = interrupt_first
        for line in lines:
            self.say(line.text, interrupt=first, category=line.category,
                     priority=line.priority, on_start=self._sounds_of(line))
            first = first and not line.text

    def _sounds_of(self, line: Line) -> Callable[[], None] | None:
        sweep = line.sweep if self.comfort.settings.play_sweep else None
        if not (line.dice or line.cue or line.field_tone or sweep):
            return None

        def play() -> None:
            if sweep is not None:  # alongside the dice: the words never wait for it
                self.comfort.play_sweep(*sweep)
            if line.dice:
                self.cues.play_dice(line.dice, then=line.cue)
            elif line.cue:
                self.cues.play(line.cue)
            if line.cue:
                self.on_cue(line.cue)
            if line.field_tone:
                self.comfort.play_field_tone(speak=False)

        return play

    # -- screens -----------------------------------------------------------------------------

    @property
    def top(self) -> Screen:
        return self.session.top

    def show(self, screen: Screen, interrupt: bool = True, speak: bool = True) -> None:
        """Make `screen` the whole stack (a new decision) and announce it: the question, then
        (as a separate line that is never logged) where the focus is. `speak=False` shows it
        and leaves the words to later (`tick`, for a wait at a table)."""
        chat = self.top if self.stack and isinstance(self.top, ChatScreen) else None
        self.session.replace(screen)
        if chat is not None:  # a line half typed to the friend outlives the decision below it
            self.session.push(chat)
        self.section = 0
        self.details_for, self.details = None, ""
        self.dirty = True
        self.friends.shown()
        screen.menu.telling = self.telling
        if speak:
            self.say(screen.prompt(), interrupt=interrupt, category=Category.DECISION)
            self.say(screen.focus_words(), interrupt=False, category=Category.MENU)
        self.comfort.on_show(screen)

    def push(self, screen: Screen) -> None:
        self.session.push(screen)
        self.dirty = True
        screen.menu.telling = self.telling
        self.say(screen.intro(), category=Category.MENU)

    def pop(self, announce: bool = True) -> None:
        self.session.pop()
        self.dirty = True
        if announce:
            # Translators: back in the previous list; {focus} is its title and focused entry.
            self.say(_("Back. {focus}").format(focus=self.top.menu.describe_group()))

    def first_time(self, topic: str) -> bool:
        return self.session.first_time(topic, self.telling)

    # -- the flow of a game ------------------------------------------------------------------

    def start(self) -> None:
        seat = load_seat(self.config_folder)
        game = self._game_in_progress()
        self.show(WelcomeScreen(self, back_to=seat.theirs if seat is not None else "",
                                in_progress=game,
                                series="" if game else self.keeper.series_words()))

    def _game_in_progress(self) -> str:
        return self.keeper.in_progress()

    def start_naming(self) -> None:
        self.keeper.series_choice = None
        if self.session.saved() is None:
            question = ""
            if self._game_in_progress():
                question = _("Start a new game? The game in progress will be lost.")
            elif self.keeper.waiting_series() is not None:
                question = _("Start a new game? The series in progress will be lost.")
            if question:
                self.push(ConfirmScreen(self, question, self._start_over,
                                        yes=_("Yes, start a new one")))
                return
        self.show(NamingScreen(self))

    def _start_over(self) -> None:
        self.keeper.forget_all()
        self.show(NamingScreen(self))

    def open_series(self) -> None:
        self.keeper.open_series()

    def start_series(self, best_of: int, replay_ties: bool) -> None:
        self.keeper.start_series(best_of, replay_ties)

    def resume_series(self) -> None:
        self.keeper.go_on_with_series()

    def resume_game(self) -> None:
        """Back to the saved game, at the decision it was left at."""
        try:
            saved = load_game(self.config_folder)
            if saved is None:
                raise DamagedSave("")
            self.session.resume(saved)
        except DamagedSave:
            self.cue("menu_error")
            self.say(_("There is no game to go back to."))
            self.start()
            return
        except SnapshotError as error:
            self.tell_notice(damaged_save_words(str(set_aside(self.config_folder, str(error)))))
            self.start()
            return
        self.names = self.session.names
        self.keeper.load_series_of_game()
        self.comfort.history.opponent = None
        self.say(_("Back to your game."), category=Category.DECISION)
        assert self.match is not None
        self.say(situation_words(self.match.state, self.names), interrupt=False,
                 category=Category.INFO)
        self.show_decision(interrupt=False)

    def keep_game(self) -> None:
        self.keeper.keep()

    def open_record(self) -> None:
        """Your record, from the title screen (keeping.py)."""
        self.keeper.open_record()

    def names_chosen(self, home: str, away: str) -> None:
        self.names = Names(home, away)
        if self.keeper.series_choice is not None:
            self.keeper.begin_series(home, away, self.computer_choice
                                     or self.comfort.settings.computer)
        # Translators: {home} and {away} are the team names the player chose ("the Hawks").
        self.say(_("You are the {home}; the computer plays the {away}.").format(
            home=home, away=away), interrupt=False, category=Category.DECISION)
        self.new_match(interrupt=False)

    def new_match(self, interrupt: bool = True) -> None:
        computer = self.computer_choice or self.comfort.settings.computer
        if self.keeper.in_series:
            assert self.keeper.series is not None
            computer = self.keeper.series.computer  # the whole series against one opponent
        events = self.session.new_match(self.names, computer, self.comfort.settings.overtime)
        self.names = self.session.names  # now naming the player's team in this match
        self.comfort.history.opponent = None
        if computer == COACH:
            if self.coach_explained:
                # Translators: {away} is the computer team's name ("the Bears"): its computer
                # plays like a coach today rather than at random.
                words = _("The {away} are coached today.")
            else:
                # Translators: {away} is the computer team's name ("the Bears"); said the first
                # time the coach plays in a session.
                words = _("The {away} are coached today: their coach knows the card tables "
                          "and picks what they favour, where the rules' computer picks at "
                          "random.")
                self.coach_explained = True
            self.say(words.format(away=self.names.theirs), interrupt=False,
                     category=Category.DECISION)
        self.speak_lines(self._narrate(events))
        self.show_decision(interrupt=interrupt)
        self.keep_game()

    def _narrate(self, events: list[ev.Event]) -> list[Line]:
        """The events in words, at the player's verbosity."""
        return self.session.narrator.lines(events, self.telling)

    def play_again(self) -> None:
        if self.match is not None and self.match.opponent is Opponent.FRIEND:
            self.friends.play_again()  # a rematch is asked at the friend's table
            return
        if self.keeper.in_series:
            assert self.keeper.series is not None
            self.say(_("Game {number} of the series.").format(
                number=self.keeper.series.next_game), category=Category.DECISION)
            self.new_match(interrupt=False)
            return
        self.keeper.series = None
        self.say(_("New game."), category=Category.DECISION)
        self.new_match(interrupt=False)

    # -- playing a friend at a table (friends.py), as the screens ask -----------------------

    def play_friend(self) -> None:
        self.show(FriendScreen(self))

    def needs_address(self) -> bool:
        return self.friends.needs_address()

    def host_table(self, name: str, best_of: int = 1, replay_ties: bool = False) -> None:
        self.friends.host_table(name, best_of, replay_ties)

    def join_table(self, name: str, code: str, address: str | None) -> None:
        self.friends.join_table(name, code, address)

    def resume_table(self) -> None:
        self.friends.resume_table()

    def look_nearby(self, name: str) -> None:
        self.friends.look_nearby(name)

    def leave_table(self) -> None:
        self.friends.close_table()
        self.start()

    def send_chat(self, text: str) -> None:
        self.friends.send_chat(text)

    def act(self, *actions: Action) -> None:
        """The player's actions, in order (the snap and the cards come together before fourth
        down); a refused one is said, and what went before it still counts."""
        if self.match is None:
            return
        self.session.submit(actions)
        self.take_steps()  # against the computer, at once; at a table, when the server plays

    def take_steps(self) -> None:
        """Tell every step the game has queued: what was refused, then what was played (the
        one road for every game's steps, after a key and on every turn of the loop)."""
        match = self.match
        if match is None:
            return
        for step in match.drain():
            refusal = step.refusal
            if refusal is not None:
                self.cue("menu_error")
                self.say(refusal.words, category=refusal.category)
            if step.events:
                self.after(step.events)
            elif refusal is not None and refusal.ask_again:
                self.show_decision(interrupt=False)

    def after(self, events: list[ev.Event]) -> None:
        self.session.note(events)  # before the narrator moves on
        lines = self._narrate(events)
        if any(isinstance(event, ev.GameOver) for event in events):
            lines += self.keeper.finished()  # the story, after the final score
        self.session.result = [line.text for line in lines if line.text]
        self.speak_lines(lines)
        self.comfort.after_events(events)
        self.keep_game()
        self.show_decision(interrupt=not self.session.result)

    def show_decision(self, interrupt: bool = True) -> None:
        match = self.match
        assert match is not None
        decision = match.pending()
        state = match.state
        if self.friends.turn(match):
            return  # the friend's turn: waiting for them
        if decision is None:
            assert state.outcome is not None
            self.show(GameOverScreen(self, outcome_words(state.outcome, self.names),
                                     next_in_series=self.keeper.in_series),
                      interrupt=interrupt)
            return
        role = decision.role
        screen: Screen
        if decision.phase is Phase.COIN_TOSS:
            screen = CoinScreen(self)
        elif decision.phase is Phase.SIDE_CHOICE:
            screen = SideScreen(self)
        elif decision.phase is Phase.SNAP_CHOICE and state.down is not None and \
                state.down.number == LAST_DOWN:
            screen = SnapScreen(self, self._kicks(), kick_summary(state),
                                full=self.first_time("snap"))
        elif decision.phase in (Phase.SNAP_CHOICE, Phase.SELECTION):
            assert role is not None
            session = self.session
            again = session.last_hands.get(role)
            teach = again is not None and not session.taught_again
            session.taught_again = session.taught_again or teach
            kicks = self._kicks() if decision.phase is Phase.SNAP_CHOICE else None
            screen = SelectionScreen(self, role, full=self.first_time("selection"), again=again,
                                     teach_again=teach, kicks=kicks)
        elif decision.phase is Phase.SUBSTITUTION:
            assert role is not None
            screen = SubstitutionScreen(self, role, self.session.my_hand(decision.team),
                                        full=self.first_time("substitution"))
        else:
            assert role is not None
            screen = FinalCallScreen(self, role, self.session.my_hand(decision.team),
                                     full=self.first_time("final"), odds=self._odds(role))
        self.show(screen, interrupt=interrupt)

    def _odds(self, role: Role) -> str:
        """On 3rd and 4th down: each of your calls' chance of making the line to gain."""
        assert self.match is not None
        state, you = self.match.state, self.names.you
        needed = needed_now(state)
        mine, theirs = held_hand(state, you), held_hand(state, you.other)
        if needed is None or mine is None or theirs is None:
            return ""
        return conversion_words(role, mine, theirs, needed)

    def _kicks(self) -> dict[SnapChoice, KickOption]:
        assert self.match is not None
        # The punt's landing chances, as the field goal's, unless the words are brief.
        state, chances = self.match.state, not self.telling.brief
        return {SnapChoice.PUNT: punt_option(state, self.names, chances),
                SnapChoice.FIELD_GOAL: field_goal_option(state, self.names)}

    def ask_concede(self) -> None:
        question = _("Concede the game? The {away} would win.").format(away=self.names.theirs)
        self.push(ConfirmScreen(self, question, self.concede, yes=_("Yes, concede")))

    def concede(self) -> None:
        self.session.concede()
        self.take_steps()

    def open_extra(self, extra: Extra) -> None:
        """Settings, How to play or the guided first down (from the title screen)."""
        self.comfort.open(extra)

    def tick(self) -> None:
        """Once every turn of the loop: news from outside services (the screen reader, a
        table server) that answer off the loop."""
        self.comfort.tick()
        self.friends.tick()
        self.take_steps()

    def tell_notice(self, notice: str, cue: bool = True, again: bool = False) -> None:
        """Show a fault reason in the window (once) and speak it without cutting speech, after
        the error cue (an audio fault: the cue is how a player without speech hears that
        something is wrong). It stays shown until the player's next key after it; the history
        keeps it for good. `again` says it even if it was said before (an answer to a
        setting the player just changed)."""
        if (self.panel.add_notice(notice) or again) and notice:
            if cue:
                self.cue("menu_error")
            self.say(notice, interrupt=False, category=Category.NOTICE)

    def scroll_panel(self, direction: int) -> None:
        """Page Up / Page Down: the text panel a page at a time, for whoever reads it."""
        scroll = self.panel.scroll(direction)
        if scroll.cue:
            self.cue(scroll.cue)
        self.say(scroll.words, category=Category.PAGE)

    def close_table(self) -> None:
        """Stop looking for tables and leave the one played at (the friend hears it)."""
        self.friends.stop_looking()
        self.friends.close_table()

    def ask_quit(self) -> None:
        question = _("Quit Sudden Death?")
        if self.keeps_games and self.session.saved() is not None:
            question = _("Quit Sudden Death? Your game is kept for next time.")
        elif self.keeps_games and self.keeper.in_series:
            question = _("Quit Sudden Death? Your series is kept for next time.")
        self.push(ConfirmScreen(self, question, self.quit, yes=_("Yes, quit")))

    def quit(self) -> None:
        self.close_table()
        self.say(_("Goodbye."), category=Category.NOTICE)
        self.running = False

    # -- keys --------------------------------------------------------------------------------

    def active_menu(self) -> Menu:
        menu = self.section_menu if self.section and self.section_menu else self.top.menu
        menu.telling = self.telling
        return menu

    def handle_text(self, text: str) -> None:
        if self.section == 0:
            self.top.handle_text(text)
        self.dirty = True

    def handle_key(self, key: int, mod: int) -> None:
        """A key press: the key map says what it means; the screen on top may use that first
        (its own context's meaning, then the game's), and otherwise the app does it."""
        self.dirty = True
        self.panel.fade_notices()
        if key in MODIFIER_KEYS:
            return
        shift = bool(mod & pygame.KMOD_SHIFT)
        self.keys.speaks_pad = is_pad(key)  # help names the keys of what the player holds
        if self.section == 0 and isinstance(self.top, KeyCapture):
            self.top.capture(key, shift)  # any key may be the one chosen
            return
        command = self.keys.command(key, shift)
        screen = self.top
        # On a screen that takes text a key that types a letter types it, whatever it does
        # elsewhere (a player's own keys may be letters: J to confirm still types a J).
        typing = self.section == 0 and screen.takes_text and types_text(key)
        if command in BEFORE_SCREENS and not typing:
            self._commands[command]()
            return
        self.help_step = 0
        if self.section == 0:
            own = (self.keys.command(key, shift, screen.key_context)
                   if screen.key_context is not Context.GAME else None)
            if own is not None and screen.on_command(own):
                return
            if typing:
                return  # it arrives as text input
            if command is not None and screen.on_command(command):
                return
        if command is None or command not in self._commands:
            self.cue("menu_error")
            self.say(_("That key does nothing here. Press F1 for help."))
            return
        self._commands[command]()

    def _command_table(self) -> dict[Command, Callable[[], None]]:
        """What each command of the game's context does when no screen took it."""
        comfort = self.comfort

        def menu(step: Callable[[Menu], Feedback]) -> Callable[[], None]:
            return lambda: self._menu_feedback(step(self.active_menu()))

        def wrap() -> bool:
            return comfort.settings.menu_wrap

        table: dict[Command, Callable[[], None]] = {
            Command.SCROLL_UP: lambda: self.scroll_panel(-1),
            Command.SCROLL_DOWN: lambda: self.scroll_panel(1),
            Command.SILENCE: self.speaker.silence,
            Command.HELP: self.help,
            Command.BACK: self.back,
            Command.NEXT_SECTION: lambda: self.step_section(1),
            Command.PREVIOUS_SECTION: lambda: self.step_section(-1),
            Command.SITUATION: self.say_situation,
            Command.REPEAT: self.repeat,
            Command.WHERE: self.where,
            Command.LAST_PLAY: self.last_play,
            Command.CHAT: self.friends.open_chat,
            Command.LESSON: comfort.guide.toggle,
            Command.DETAILS: self.toggle_details,
            Command.EXPLORER: lambda: open_explorer(self),
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
        elif not self.top.on_escape():
            self.ask_quit()

    def step_section(self, delta: int) -> None:
        self.goto_section((self.section + delta) % len(sections.SECTION_NAMES))

    def repeat(self) -> None:
        """R: the last announcement (a result, a reveal, a swap, a notice), not a focus move."""
        words = self.panel.last_announcement or self.panel.last_question
        self.say(words or _("Nothing to repeat yet."), category=Category.REPEAT)

    def where(self) -> None:
        """W: where the focus is, the list and the entry with its place."""
        self.say(self.active_menu().describe_group(), category=Category.REPEAT)

    def last_play(self) -> None:
        """L: the last snap or kick told again in full, whatever the verbosity."""
        lines = self.session.last_play_lines(Telling.preset(Verbosity.DETAILED))
        if not lines:
            self.cue("menu_error")
            self.say(_("No play yet."), category=Category.INFO)
            return
        self.say(" ".join(line.text for line in lines if line.text), category=Category.REPEAT)

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
            self.say(self.keys.key_list(), category=Category.HELP)
            return
        self.help_step = 1
        name = "section" if self.section else self.top.help_key
        self.say(screen_help(name, self.keys, self.opponent), category=Category.HELP)

    def _menu_feedback(self, result: Feedback) -> None:
        if result.cue == "menu_move":
            self.details_for, self.details = None, ""
        self.feedback(result)
        if self.section:
            return
        if result.activated is not None:
            self.top.on_button(result.activated)
        elif result.confirm:
            self.top.confirm()

    def reset_view(self) -> None:
        """Back to the decision itself: no review section, no card details shown."""
        self.section, self.section_menu = 0, None
        self.details_for, self.details = None, ""

    def goto_section(self, index: int) -> None:
        self.section = index
        self.details_for, self.details = None, ""
        name = sections.section_name(index, self.opponent)
        if index == 0:
            self.section_menu = None
            self.say(f"{name}. {self.active_menu().describe_group()}")
            return
        if index == 1:
            menu = sections.computer_calls_menu(self.session.computer, self.opponent)
        elif index == 2:
            role = self.match.role_of(self.names.you) if self.match else None
            menu = sections.rosters_menu(role, self.names.mine, self.names.theirs)
        else:
            menu = sections.game_log_menu(self.panel.log)
        self.section_menu = menu
        self.say(sections.intro(name, self.active_menu()))

    def say_situation(self) -> None:
        if self.match is None:
            self.say(_("No game yet. Name the teams to start."), category=Category.INFO)
            return
        self.say(situation_words(self.match.state, self.names), category=Category.INFO)

    def say_matchups(self) -> None:
        """M: at the swap and the final call, each of your calls against each of theirs; on a
        card you might bring in, as they would be with it."""
        screen = self.top if self.section == 0 else None
        state = self.game_state()
        if not isinstance(screen, (SubstitutionScreen, FinalCallScreen)) or state is None:
            self.cue("menu_error")
            self.say(_("Matchups come once both hands are shown: at the swap and the final "
                       "call."), category=Category.INFO)
            return
        you = self.names.you
        mine, theirs = held_hand(state, you), held_hand(state, you.other)
        role = role_of(state, you)
        assert mine is not None and theirs is not None and role is not None
        needed = needed_now(state)
        swap = screen.considered() if isinstance(screen, SubstitutionScreen) else None
        if swap is None or swap.out is None or swap.into is None:
            self.say(matchups_words(role, mine, theirs, needed), category=Category.INFO)
            return
        self.say(swap_words(role, mine, swap, theirs, needed), category=Category.INFO)

    def toggle_details(self) -> None:
        item = self.active_menu().item
        card = item.card if item is not None else None
        if card is None:
            self.cue("menu_error")
            self.say(_("Details are for cards; focus a player or a call first."))
            return
        if self.details_for == card:
            self.details_for, self.details = None, ""
            self.say(_("Details closed."))
            return
        self.details_for, self.details = card, card_details(card)
        self.say(self.details, category=Category.DETAILS)

    # -- the window --------------------------------------------------------------------------

    def view(self) -> View:
        scores = self.match.state.scores if self.match else (0, 0)
        ball = marker = None
        situation = _("Welcome")
        if self.match is not None:
            state = self.match.state
            situation = situation_words(state, self.names).split(". ", 1)[-1]
            spots = human_spots(state, self.names.you)
            if spots is not None:
                ball, marker, _mine = spots
        return View(
            score=score_words(scores, self.names) if self.match is not None else "",
            situation=situation,
            menu=self.active_menu(),
            section=sections.section_name(self.section, self.opponent) if self.section else "",
            result=self.session.result,
            details=self.details,
            last_spoken=self.panel.last_spoken,
            notices=self.panel.shown_notices(),
            ball=ball,
            marker=marker,
            text_size=self.comfort.settings.text_size,
            panel_first=self.panel.first,
            key_names=self.keys.placeholders(),
        )
