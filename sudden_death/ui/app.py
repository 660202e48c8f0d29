"""The game loop: keyboard in; speech, cues and window text out.

`run_app` owns pygame, the audio objects, the transcript and the screen stack; `App` is the
game-level glue the screens talk to (the `Host` of screens.py). The loop blocks on events with
a timeout, so it idles near zero CPU, and scripted runs post real key events into the same loop.
"""

from __future__ import annotations

import gc
import os
import random
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

from ..audio.protocols import CuePlayer, Message, Priority, Speaker
from ..engine import events as ev
from ..engine.card_model import DefCall, OffCall, Player, Role
from ..engine.errors import RulesError
from ..engine.field import LAST_DOWN
from ..engine.match import Match
from ..engine.state import Hand, Phase, SnapChoice, Team
from ..settings import load_settings
from . import sections
from .cli import Options, parse_options
from .comfort import Comfort
from .explorer import open_explorer
from .game_words import (
    HUMAN,
    KickOption,
    Names,
    field_goal_option,
    human_spots,
    kick_summary,
    outcome_words,
    punt_option,
    score_words,
    situation_words,
)
from .help_text import KEYS, screen_help
from .keys import KeyScriptError, KeySource, Step, StepError, post_step
from .menu import FULL_DETAIL, NORMAL_DETAIL, SHORT_DETAIL, Feedback, Menu
from .narration import Line, Narrator, card_details
from .render import HEIGHT, WIDTH, Fonts, View, draw
from .screens import (
    CoinScreen,
    ConfirmScreen,
    FinalCallScreen,
    GameOverScreen,
    NamingScreen,
    Screen,
    SelectionScreen,
    SideScreen,
    SnapScreen,
    SubstitutionScreen,
    WelcomeScreen,
)
from .transcript import Transcript
from .verbosity import DETAILED, SHORT
from .window_log import FrameLog

APOLOGY = "Sorry, something went wrong there. The game goes on; press F1 for help."
# What the game log (H) keeps: what happened, not the questions asked or the focus moves.
LOG_CATEGORIES = ("result", "computer", "game_over", "notice")
FRAME_SECONDS = 1 / 30
# Waiting for the keyboard: a real video driver's event wait sleeps until a key comes; SDL's
# headless drivers spin in theirs (2 % of a core), so there the loop sleeps briefly instead.
IDLE_WAIT_MS = 100
SPIN_POLL_SECONDS = 0.002
SPINNING_DRIVERS = ("dummy", "offscreen")
# SDL_mixer's channel-finished callback (pygame's) takes the GIL on the audio thread: a Python
# thread holding it for the default 5 ms makes the next mix late. Measured under a busy Python
# thread with sounds ending every 13 ms: 1,707 late buffers in 30 s at 5 ms, none at 1 ms.
GIL_SWITCH_SECONDS = 0.001

Card = OffCall | DefCall | Player


class App:
    """Game state for the front end: the match, names, screens, sections and logs."""

    def __init__(self, speaker: Speaker, cues: CuePlayer, seed: int | None) -> None:
        self.speaker = speaker
        self.cues = cues
        self.seed = seed
        self.games = 0
        self.rng = random.Random()
        self.running = True
        self.dirty = True
        self.stack: list[Screen] = []
        self.section = 0
        self.section_menu: Menu | None = None
        self.names = Names("Hawks", "Bears")
        self.match: Match | None = None
        self.narrator = Narrator(self.names)
        self.log: list[str] = []
        self.computer = sections.ComputerCalls()
        self.result: list[str] = []
        self.details_for: object = None
        self.details = ""
        self.last_message = ""
        self.last_spoken = ""
        self.notices: list[str] = []
        self.notices_heard = 0  # notices shown so far that a key has since passed (they fade)
        self.panel_first = 0  # the text panel's first line (Page Up / Page Down)
        self.panel_lines = (0, 0)  # lines it holds, lines shown: from the last frame drawn
        self.steps_taken = 0
        self.help_step = 0  # 1 after F1 read the screen's help: F1 again reads every key
        self.told: set[object] = set()  # explanations already given in full (see first_time)
        self.last_hands: dict[Role, Hand] = {}  # the player's cards of the last down, per side
        self.taught_again = False
        speaker.add_listener(self._heard)
        self.comfort = Comfort(self)  # settings, history, field tone, how to play

    # -- speaking ----------------------------------------------------------------------------

    def _heard(self, message: Message) -> None:
        if message.category == "page":  # where the panel was scrolled to: not panel text
            return
        if message.text != self.last_spoken:
            self.panel_first = 0  # new words: the panel shows them from their start
        self.last_spoken = message.text
        if message.category != "repeat":
            self.last_message = message.text
        if message.category in LOG_CATEGORIES:
            self.log.append(message.text)
        self.dirty = True

    @property
    def verbosity(self) -> str:
        return self.comfort.verbosity

    @property
    def terse(self) -> bool:
        return self.verbosity == SHORT

    @property
    def detail(self) -> int:
        """How much a menu focus says at the player's verbosity (menu.Menu.detail)."""
        return {SHORT: SHORT_DETAIL, DETAILED: FULL_DETAIL}.get(self.verbosity, NORMAL_DETAIL)

    def say(self, text: str, *, interrupt: bool = True, category: str = "menu",
            priority: Priority = Priority.INFO,
            on_start: Callable[[], None] | None = None) -> None:
        if text:
            self.speaker.say(text, interrupt=interrupt, priority=priority, category=category,
                             on_start=on_start)
        elif on_start is not None:
            on_start()

    def cue(self, name: str) -> None:
        self.cues.play(name)

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
        if not (line.dice or line.cue or line.field_tone):
            return None

        def play() -> None:
            if line.dice:
                self.cues.play_dice(line.dice, then=line.cue)
            elif line.cue:
                self.cues.play(line.cue)
            if line.field_tone:
                self.comfort.play_field_tone(speak=False)

        return play

    # -- screens -----------------------------------------------------------------------------

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def show(self, screen: Screen, interrupt: bool = True) -> None:
        """Make `screen` the whole stack (a new decision) and announce it: the question, then
        (as a separate line that is never logged) where the focus is."""
        self.stack = [screen]
        self.section = 0
        self.details_for, self.details = None, ""
        self.dirty = True
        screen.menu.detail = self.detail
        self.say(screen.prompt(), interrupt=interrupt, category="decision")
        self.say(screen.focus_words(), interrupt=False, category="menu")  # "" says nothing
        self.comfort.on_show(screen)

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)
        self.dirty = True
        screen.menu.detail = self.detail
        self.say(screen.intro(), category="menu")

    def pop(self, announce: bool = True) -> None:
        if len(self.stack) > 1:
            self.stack.pop()
        self.dirty = True
        if announce:
            self.say(f"Back. {self.top.menu.describe_group()}")

    def first_time(self, topic: str) -> bool:
        """Whether a screen explains itself in full now: every time at detailed, the first time
        in each drive at normal, the first time in the game at short."""
        drive = self.match.state.drive if self.match is not None else 0
        key = topic if self.terse else (topic, drive)
        told = key in self.told
        self.told.add(key)
        return self.verbosity == DETAILED or not told

    # -- the flow of a game ------------------------------------------------------------------

    def start(self) -> None:
        self.show(WelcomeScreen(self))

    def start_naming(self) -> None:
        self.show(NamingScreen(self))

    def names_chosen(self, home: str, away: str) -> None:
        self.names = Names(home, away)
        self.say(f"You are the {home}; the computer plays the {away}.", interrupt=False,
                 category="decision")
        self.new_match(interrupt=False)

    def new_match(self, interrupt: bool = True) -> None:
        seed = self.rng.randrange(2**31) if self.seed is None else self.seed + self.games
        self.games += 1
        self.match = Match.against_computer(seed)
        self.narrator = Narrator(self.names)
        self.computer = sections.ComputerCalls()
        self.result = []
        self.told = set()
        self.last_hands = {}
        self.speak_lines(self.comfort.narrate(self.match.advance()))
        self.show_decision(interrupt=interrupt)

    def play_again(self) -> None:
        self.say("New game.", category="decision")
        self.new_match(interrupt=False)

    def act(self, *choices: object) -> None:
        """The player's choices, in order (the snap and the cards come together before fourth
        down); a refused one is said, and what went before it still counts."""
        match = self.match
        if match is None:
            return
        events: list[ev.Event] = []
        for choice in choices:
            try:
                events += match.act(choice)  # type: ignore[arg-type]
            except RulesError as error:
                self.cue("menu_error")
                self.say(f"Not allowed: {error}.")
                if not events:
                    return
                break
        self.after(events)

    def after(self, events: list[ev.Event]) -> None:
        offense = self.narrator.offense  # the side of the ball before these events
        self.computer.note(events, offense, self.names.away)
        self._keep_hands(events, offense)
        lines = self.comfort.narrate(events)  # at the player's verbosity
        self.result = [line.text for line in lines if line.text]
        self.speak_lines(lines)
        self.comfort.after_events(events)
        self.show_decision(interrupt=not self.result)

    def _keep_hands(self, events: list[ev.Event], offense: Team | None) -> None:
        """Remember the cards the player ended each down with, for "the same cards again"."""
        for event in events:
            if isinstance(event, ev.DriveStarted):
                offense = event.offense
            elif isinstance(event, ev.HandsRevealed) and event.step == 2:
                role = Role.OFFENSE if offense is HUMAN else Role.DEFENSE
                self.last_hands[role] = event.offense if offense is HUMAN else event.defense

    def show_decision(self, interrupt: bool = True) -> None:
        match = self.match
        assert match is not None
        decision = match.pending()
        state = match.state
        if decision is None:
            assert state.outcome is not None
            self.show(GameOverScreen(self, outcome_words(state.outcome, self.names)),
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
            again = self.last_hands.get(role)
            teach = again is not None and not self.taught_again
            self.taught_again = self.taught_again or teach
            kicks = self._kicks() if decision.phase is Phase.SNAP_CHOICE else None
            screen = SelectionScreen(self, role, full=self.first_time("selection"), again=again,
                                     teach_again=teach, kicks=kicks)
        elif decision.phase is Phase.SUBSTITUTION:
            assert role is not None
            screen = SubstitutionScreen(self, role, self._my_hand(decision.team),
                                        full=self.first_time("substitution"))
        else:
            assert role is not None
            screen = FinalCallScreen(self, role, self._my_hand(decision.team),
                                     full=self.first_time("final"))
        self.show(screen, interrupt=interrupt)

    def _kicks(self) -> dict[SnapChoice, KickOption]:
        assert self.match is not None
        state, detailed = self.match.state, self.verbosity == DETAILED
        return {SnapChoice.PUNT: punt_option(state, self.names, detailed),
                SnapChoice.FIELD_GOAL: field_goal_option(state, self.names)}

    def _my_hand(self, team: Team) -> Hand:
        assert self.match is not None
        state = self.match.state
        hand = state.offense_hand if team is state.offense else state.defense_hand
        assert hand is not None
        return hand

    def ask_concede(self) -> None:
        self.push(ConfirmScreen(self, f"Concede the game? The {self.names.away} would win.",
                                self.concede, yes="Yes, concede"))

    def concede(self) -> None:
        if self.match is None or self.match.state.phase is Phase.GAME_OVER:
            return
        self.after(self.match.concede(Team.HOME))

    def open_extra(self, name: str) -> None:
        """Settings, How to play or the guided first down (from the title screen)."""
        self.comfort.open(name)

    def tell_notice(self, notice: str) -> None:
        """Show a fault reason in the window (once) and speak it without cutting speech, after
        the error cue (an audio fault: the cue is how a player without speech hears that
        something is wrong). It stays shown until the player's next key after it; the history
        keeps it for good."""
        if notice and notice not in self.notices:
            self.notices.append(notice)
            self.cue("menu_error")
            self.say(notice, interrupt=False, category="notice")

    def _fade_notices(self) -> None:
        """A key after a notice was shown means it was heard (or cut, and kept in history)."""
        if self.notices_heard < len(self.notices):
            self.notices_heard = len(self.notices)

    def scroll_panel(self, direction: int) -> None:
        """Page Up / Page Down: the text panel a page at a time, for whoever reads it."""
        total, shown = self.panel_lines
        if total <= shown or shown == 0:
            self.cue("menu_edge")
            self.say("The text below the decision is all shown.", category="page")
            return
        first = max(0, min(total - shown, self.panel_first + direction * shown))
        if first == self.panel_first:
            self.cue("menu_edge")
        self.panel_first = first
        self.say(f"Text lines {first + 1} to {min(total, first + shown)} of {total}.",
                 category="page")

    def ask_quit(self) -> None:
        self.push(ConfirmScreen(self, "Quit Sudden Death?", self.quit, yes="Yes, quit"))

    def quit(self) -> None:
        self.say("Goodbye.", category="notice")
        self.running = False

    # -- keys --------------------------------------------------------------------------------

    def active_menu(self) -> Menu:
        menu = self.section_menu if self.section and self.section_menu else self.top.menu
        menu.detail = self.detail
        return menu

    def handle_text(self, text: str) -> None:
        if self.section == 0:
            self.top.handle_text(text)
        self.dirty = True

    def handle_key(self, key: int, mod: int) -> None:
        import pygame

        self.dirty = True
        shift = bool(mod & pygame.KMOD_SHIFT)
        self._fade_notices()
        if key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.scroll_panel(-1 if key == pygame.K_PAGEUP else 1)
            return
        if key in (pygame.K_LCTRL, pygame.K_RCTRL):
            self.speaker.silence()
            return
        if key in (pygame.K_LSHIFT, pygame.K_RSHIFT, pygame.K_LALT, pygame.K_RALT,
                   pygame.K_CAPSLOCK, pygame.K_LGUI, pygame.K_RGUI, pygame.K_NUMLOCK):
            return
        if key == pygame.K_F1:
            self.help()
            return
        self.help_step = 0
        if self.section == 0 and self.top.handle_key(key, mod):
            return
        if key == pygame.K_ESCAPE:
            if self.section:
                self.goto_section(0)
            elif not self.top.on_escape():
                self.ask_quit()
            return
        if key == pygame.K_h:
            self.goto_section((self.section + (-1 if shift else 1)) % len(sections.SECTION_NAMES))
            return
        if key == pygame.K_s:
            self.say_situation()
            return
        if key == pygame.K_r:
            self.say(self.last_message or "Nothing to repeat yet.", category="repeat")
            return
        if key == pygame.K_d:
            self.toggle_details()
            return
        if key == pygame.K_e:
            open_explorer(self)
            return
        if self.comfort.handle_key(key, mod):
            return
        menu = self.active_menu()
        if key == pygame.K_TAB:
            self._menu_feedback(menu.next_group(-1 if shift else 1))
        elif key in (pygame.K_UP, pygame.K_LEFT):
            self._menu_feedback(menu.move(-1, wrap=self.comfort.settings.menu_wrap))
        elif key in (pygame.K_DOWN, pygame.K_RIGHT):
            self._menu_feedback(menu.move(1, wrap=self.comfort.settings.menu_wrap))
        elif key == pygame.K_HOME:
            self._menu_feedback(menu.home())
        elif key == pygame.K_END:
            self._menu_feedback(menu.end())
        elif pygame.K_1 <= key <= pygame.K_9 or pygame.K_KP1 <= key <= pygame.K_KP9:
            number = key - (pygame.K_0 if key <= pygame.K_9 else pygame.K_KP1 - 1)
            self._menu_feedback(menu.pick(number))
        elif key == pygame.K_SPACE:
            self._menu_feedback(menu.toggle())
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            if self.section:
                self.goto_section(0)
            else:
                self._menu_feedback(menu.activate())
        else:
            self.cue("menu_error")
            self.say("That key does nothing here. Press F1 for help.")

    def help(self) -> None:
        """F1: what this screen is for; pressed again, every key."""
        if self.help_step == 1:
            self.help_step = 0
            self.say(KEYS, category="help")
            return
        self.help_step = 1
        name = "section" if self.section else self.top.help_key
        self.say(screen_help(name), category="help")

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

    def goto_section(self, index: int) -> None:
        self.section = index
        self.details_for, self.details = None, ""
        name = sections.SECTION_NAMES[index]
        if index == 0:
            self.section_menu = None
            self.say(f"{name}. {self.active_menu().describe_group()}")
            return
        if index == 1:
            menu = sections.computer_calls_menu(self.computer)
        elif index == 2:
            role = self.match.role_of(HUMAN) if self.match else None
            menu = sections.rosters_menu(role, self.names.home, self.names.away)
        else:
            menu = sections.game_log_menu(self.log)
        self.section_menu = menu
        self.say(sections.intro(name, self.active_menu()))

    def say_situation(self) -> None:
        if self.match is None:
            self.say("No game yet. Name the teams to start.", category="info")
            return
        self.say(situation_words(self.match.state, self.names), category="info")

    def toggle_details(self) -> None:
        item = self.active_menu().item
        card = item.value if item is not None else None
        if not isinstance(card, (OffCall, DefCall, Player)):
            self.cue("menu_error")
            self.say("Details are for cards; focus a player or a call first.")
            return
        if self.details_for == card:
            self.details_for, self.details = None, ""
            self.say("Details closed.")
            return
        self.details_for, self.details = card, card_details(card)
        self.say(self.details, category="details")

    # -- the window --------------------------------------------------------------------------

    def view(self) -> View:
        scores = self.match.state.scores if self.match else (0, 0)
        ball = marker = None
        situation = "Welcome"
        if self.match is not None:
            state = self.match.state
            situation = situation_words(state, self.names).split(". ", 1)[-1]
            spots = human_spots(state)
            if spots is not None:
                ball, marker, _mine = spots
        return View(
            score=score_words(scores, self.names) if self.match is not None else "",
            situation=situation,
            menu=self.active_menu(),
            section=sections.SECTION_NAMES[self.section] if self.section else "",
            result=self.result,
            details=self.details,
            last_spoken=self.last_spoken,
            notices=self.notices[self.notices_heard:],
            ball=ball,
            marker=marker,
            text_size=self.comfort.settings.text_size,
            panel_first=self.panel_first,
        )


# -- audio and the loop ------------------------------------------------------------------------


NoticePoll = Callable[[], list[str]]


def _no_notices() -> list[str]:
    return []


def open_sound(no_sound: bool, engine: str = "espeak",
               ) -> tuple[Speaker, CuePlayer, list[str], Callable[[], None], NoticePoll]:
    """The real audio system, or silent recording fakes (for --no-sound or when it is missing);
    `engine` is the saved speech engine, started first so the welcome is in the player's voice.

    The last item returns audio faults that happened since it was last called (a synthesis
    failing mid-game), so the loop can show and speak each one as it happens.
    """
    from ..audio.recording import RecordingCues, RecordingSpeaker
    from ..audio.silent import SilentCues, SilentSpeaker

    if no_sound:  # silent players keep nothing, so a long session does not grow (the fakes do)
        return SilentSpeaker(), SilentCues(), [], lambda: None, _no_notices
    try:
        from ..audio.system import open_audio
    except ImportError:
        speaker, cues = RecordingSpeaker(), RecordingCues()
        notice = "Sound is not available in this build; the game shows its words on screen."
        return speaker, cues, [notice], lambda: None, _no_notices
    audio = open_audio(speech=True, sound=True, engine=engine)
    return audio.speaker, audio.cues, audio.take_notices(), audio.close, audio.take_notices


def run_app(options: Options, speaker: Speaker | None = None,
            cues: CuePlayer | None = None) -> int:
    """Run the game until the player quits (or scripted input runs out); returns an exit code."""
    launched = time.perf_counter()
    if options.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    try:  # before the window: a bad path is a one-line message, not a flash of a window
        transcript = Transcript.open(options.transcript, launched)
    except OSError as error:
        print(f"sudden_death: {error}", file=sys.stderr)
        return 2
    pygame.display.init()
    try:
        source = _key_source(options.keys)
    except (OSError, KeyScriptError) as error:
        print(f"sudden_death: {error}", file=sys.stderr)
        transcript.close()
        pygame.display.quit()
        return 2
    with SigtermGuard() as guard:  # after SDL's own handler, so it replaces it
        _run_window(options, source, transcript, speaker, cues, launched, guard)
    if guard.code is not None:
        return guard.code
    return 1 if transcript.failed is not None else 0  # its reader was gone: said on stderr


def _run_window(options: Options, source: KeySource | None, transcript: Transcript,
                speaker: Speaker | None, cues: CuePlayer | None, launched: float,
                guard: SigtermGuard) -> None:
    """The window, the sound and the loop, each closed again however the loop ends."""
    import pygame

    pygame.font.init()
    # Resizable and maximisable: the layout follows the window's size on every frame.
    pygame.display.set_mode(options.window or (WIDTH, HEIGHT), pygame.RESIZABLE)
    pygame.display.set_caption("Sudden Death")
    closer: Callable[[], None] = lambda: None  # noqa: E731
    notices: list[str] = []
    poll: NoticePoll = _no_notices
    frames = FrameLog.from_environment()
    switch = sys.getswitchinterval()
    try:
        if speaker is None or cues is None:
            engine = load_settings(options.config)[0].speech_engine  # the notice comes later
            speaker, cues, notices, closer, poll = open_sound(options.no_sound, engine)
        speaker.add_listener(lambda message: transcript.speech(message.text))
        cues.add_listener(transcript.cue)
        app = App(speaker, cues, options.seed)
        app.start()
        for notice in dict.fromkeys([*notices, speaker.notice, cues.notice]):
            if notice:
                app.tell_notice(notice)
        app.comfort.start(options.config)
        fonts = Fonts(app.comfort.settings.text_size)
        sys.setswitchinterval(GIL_SWITCH_SECONDS)
        # Everything made so far lives as long as the game: keep it out of the collector's
        # full passes, which otherwise pause every thread (the mixer's too) for over 15 ms.
        gc.freeze()
        _loop(app, source, fonts, transcript, poll, frames,
              stop=lambda: guard.code is not None)
    finally:
        frames.close()
        sys.setswitchinterval(switch)
        gc.unfreeze()
        closer()
        transcript.close()
        pygame.display.quit()


class SigtermGuard:
    """SIGTERM ends the game like any signal-terminated program: the loop stops at once, audio
    and window close, and the exit code is 143. (SDL would turn it into a window close request,
    which ends with 0.) Python handlers can only be set from the main thread; elsewhere (a test
    running the app in a thread) the guard does nothing."""

    def __init__(self) -> None:
        self.code: int | None = None
        self._previous: Any = None
        self._installed = False

    def _on_term(self, signum: int, frame: object) -> None:
        self.code = 128 + signum

    def __enter__(self) -> SigtermGuard:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGTERM, self._on_term)
            self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._installed:
            signal.signal(signal.SIGTERM, self._previous)
            self._installed = False


def _key_source(keys: str | None) -> KeySource | None:
    if keys is None:
        return None
    if keys == "-":
        return KeySource.from_stdin()
    return KeySource.from_file(keys)


def _loop(app: App, source: KeySource | None, fonts: Fonts, transcript: Transcript,
          poll: NoticePoll = _no_notices, frames: FrameLog | None = None,
          stop: Callable[[], bool] = lambda: False) -> None:
    import pygame

    last_draw = 0.0
    waiting_said = False
    spins = pygame.display.get_driver() in SPINNING_DRIVERS
    while app.running and not stop() and transcript.failed is None:
        for notice in poll():  # an audio fault mid-game is shown and spoken when it happens
            app.tell_notice(notice)
        if source is not None and not pygame.event.peek():
            if source.live:
                step = source.next(0)
                if step is False:
                    if not waiting_said:
                        transcript.waiting()
                        waiting_said = True
                    step = source.next(FRAME_SECONDS * 3)
            else:
                step = source.next(0)
            if step is None:
                break
            if isinstance(step, Step):
                waiting_said = False
                post_step(step)
            elif isinstance(step, StepError):  # said, then waiting again for the next line
                transcript.error(step.text)
                waiting_said = False
        events = pygame.event.get()
        if source is None and not events and not app.dirty:
            events = _wait_for_events(spins)
        for event in events:
            _dispatch(app, event)
            if not app.running:
                break
        now = time.perf_counter()
        recording = frames is not None and frames.active  # then every state is drawn
        if app.dirty and (now - last_draw >= FRAME_SECONDS or source is None or recording):
            try:
                surface = pygame.display.get_surface()  # a new size after a resize
                view = app.view()
                frame = draw(surface, fonts, view)
                app.panel_lines = (frame.panel_lines, frame.panel_shown)
                pygame.display.flip()
                if recording and frames is not None:
                    frames.record(frame, surface, view.menu.title if view.menu else "",
                                  view.text_size)
            except Exception:  # drawing must never end the game
                traceback.print_exc()
            app.dirty = False
            last_draw = now


def _wait_for_events(spins: bool) -> list[Any]:
    """Idle until the player does something: a key is handled the moment it arrives."""
    import pygame

    if spins:
        time.sleep(SPIN_POLL_SECONDS)
        return list(pygame.event.get())
    first = pygame.event.wait(IDLE_WAIT_MS)
    return ([first] if first.type != pygame.NOEVENT else []) + list(pygame.event.get())


def _dispatch(app: App, event: Any) -> None:
    """Handle one event; an unexpected error is logged and apologised for, never fatal."""
    import pygame

    try:
        if event.type == pygame.QUIT:
            app.running = False
        elif event.type == pygame.KEYDOWN:
            app.steps_taken += 1
            app.handle_key(event.key, event.mod)
        elif event.type == pygame.TEXTINPUT:
            app.handle_text(event.text)
        elif event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.VIDEORESIZE,
                            pygame.WINDOWSIZECHANGED):
            app.dirty = True  # exposed, resized or maximised: lay out again for the new size
    except Exception:
        traceback.print_exc()
        app.cue("menu_error")
        app.say(APOLOGY, category="error")


def main(argv: list[str] | None = None) -> int:
    """Run the game; Ctrl+C ends it quietly (run_app has already closed audio and window)."""
    options = parse_options(argv)
    try:
        return run_app(options)
    except KeyboardInterrupt:
        print("sudden_death: interrupted, goodbye.", file=sys.stderr)
        return 130
