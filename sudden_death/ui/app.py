"""The app the screens talk to: a key in, words and cues out.

`ui/run/loop.py` feeds it pygame's events; it answers with speech, cues and the window's `View`.
Everything it owns that can be kept apart is: the match and the screen stack (`Session`), what
was said (`Panel`), settings and learning aids (`Comfort`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..audio.protocols import Category, CuePlayer, Message, Priority, Speaker
from ..engine import events as ev
from ..engine.actions import Action
from ..engine.computers import COACH
from ..engine.state import GameState
from ..language import _
from ..storage.record import Opponent
from ..storage.seat_file import load_seat
from .aids.comfort import Comfort
from .files.keeping import Keeper
from .files.reporting import Reporter
from .friends import Friends
from .in_game.controls import Controls
from .in_game.deciding import decision_screen
from .in_game.panel import Panel
from .keys.keymap import KeyMap
from .play import Play
from .screens.base import ConfirmScreen, Extra, Screen
from .screens.friend import (
    ChatScreen,
    FriendScreen,
)
from .screens.menu import Feedback, Menu
from .screens.welcome import DEFAULT_AWAY, DEFAULT_HOME, WelcomeScreen
from .session import Session
from .window.render import View
from .words.line import Line
from .words.opponents import coached_words
from .words.phrases import Names
from .words.situation import concede_words
from .words.verbosity import Telling


class App:
    """What screens talk to (their `Host`): speech and cues, keys that work on every screen,
    the review sections and details, and the window's view. The match and the screen stack
    live in `session`, what was said in `panel`, settings and learning aids in `comfort`."""

    def __init__(self, speaker: Speaker, cues: CuePlayer, seed: int | None,
                 computer: str | None = None) -> None:
        self.speaker = speaker
        self.cues = cues
        self.running = True
        self.welcomed = False  # the title screen welcomed the player in full (once a run)
        self.dirty = True
        self.names = Names(_(DEFAULT_HOME), _(DEFAULT_AWAY))
        self.session = Session(seed, self.names)  # the match and the screens
        self.computer_choice = computer  # --computer; None: the saved setting
        self.panel = Panel()  # what was said: the window's text, R, the log and notices
        self.coach_explained = False  # what "coached" means is said once a session
        speaker.add_listener(self._heard)
        self.comfort = Comfort(self, speaker, cues)  # settings, history, field tone, how to play
        self.friends = Friends(self)  # the table played at, if any (friends.py)
        self.online = self.friends.online  # the lobby, your name, your rating (online.py)
        self.keeper = Keeper(self)  # the game in progress and the record (files/keeping.py)
        self.keys = KeyMap.default()  # what each key does (keys/keymap.py)
        self.controls = Controls(self)  # the game's own keys, sections, details (in_game/)
        self.config_folder: Path | None = None  # --config; None: the player's own folder
        self.reporter = Reporter(self)  # Report a problem (files/reporting.py)
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
            if line.logged:
                self.panel.log_as(line.text, line.logged)
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
        self.controls.reset_view()
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
        game = self.keeper.in_progress()
        self.show(WelcomeScreen(self, back_to=seat.theirs if seat is not None else "",
                                in_progress=game,
                                series="" if game else self.keeper.series_words(),
                                again=self.welcomed))
        self.welcomed = True  # the welcome in full once a run

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
            self.say(coached_words(self.names.theirs, explained=self.coach_explained),
                     interrupt=False, category=Category.DECISION)
            self.coach_explained = True
        self.speak_lines(self._narrate(events))
        self.show_decision(interrupt=interrupt)
        self.keeper.keep()

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
        self.keeper.keep()
        self.show_decision(interrupt=not self.session.result)

    def show_decision(self, interrupt: bool = True) -> None:
        match = self.match
        assert match is not None
        if self.friends.turn(match):
            return  # the friend's turn: waiting for them
        self.show(decision_screen(self, self.session, self.names, self.telling,
                                  self.keeper.in_series, self.friends.online_game),
                  interrupt=interrupt)

    def ask_concede(self) -> None:
        self.push(ConfirmScreen(self, concede_words(self.names), self.concede,
                                yes=_("Yes, concede")))

    def concede(self) -> None:
        self.session.concede()
        self.take_steps()

    def open_extra(self, extra: Extra) -> None:
        """Settings, How to play, the guided first down or a problem report (from the title
        screen)."""
        if extra is Extra.REPORT:
            self.reporter.report()
            return
        self.comfort.open(extra)

    def tick(self) -> None:
        """Once every turn of the loop: news from outside services (the screen reader, a
        table server) that answer off the loop."""
        self.comfort.tick()
        self.friends.tick()
        self.take_steps()

    def due(self) -> float | None:
        """When (time.perf_counter()) the app next has something to do by the clock, if ever:
        the loop sleeps until then unless woken."""
        return self.friends.due()

    def tell_notice(self, notice: str, cue: bool = True, again: bool = False) -> None:
        """Show a fault reason in the window (once) and speak it without cutting speech, after
        the error cue (an audio fault: the cue is how a player without speech hears that
        something is wrong). It stays shown until the player's next key after it; the history
        keeps it for good. `again` says it even if it was said before (an answer to a
        setting the player just changed). After the first fault (a notice with its cue) of
        a session comes one sentence on how to report it (files/reporting.py)."""
        if (self.panel.add_notice(notice) or again) and notice:
            if cue:
                self.cue("menu_error")
            self.say(notice, interrupt=False, category=Category.NOTICE)
            if cue:
                self.say(self.reporter.offer(), interrupt=False, category=Category.NOTICE)

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

    # -- keys and the window (in_game/controls.py) -----------------------------------------------

    def handle_key(self, key: int, mod: int) -> None:
        self.controls.handle_key(key, mod)

    def repeats(self, key: int, mod: int) -> bool:
        """Whether the key, held, repeats on the screen as it is now (Controls.repeats)."""
        return self.controls.repeats(key, mod)

    def handle_text(self, text: str) -> None:
        self.controls.handle_text(text)

    def active_menu(self) -> Menu:
        return self.controls.active_menu()

    def reset_view(self) -> None:
        self.controls.reset_view()

    def view(self) -> View:
        return self.controls.view()
