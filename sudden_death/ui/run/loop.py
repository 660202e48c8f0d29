"""The game loop: keyboard in; speech, cues and window text out.

`run_app` owns pygame, the audio objects, the transcript and the window; `App` (app.py) is what
the screens talk to. The loop sleeps until woken (its `Wake`, raised by the table's link and the
`--keys -` reader, and posted to by the speech worker) or until its next frame or timer, so it
idles near zero CPU, and every pygame call stays on its thread. Scripted runs post real key
events into the same loop.
"""

from __future__ import annotations

import gc
import logging
import os
import signal
import sys
import threading
import time
import traceback
from collections.abc import Callable
from contextvars import Token
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

import pygame

from ... import __version__
from ...audio import system as audio_system
from ...audio.protocols import Category, CuePlayer, Speaker
from ...audio.screen_reader import find_screen_reader
from ...audio.silent import SilentCues, SilentSpeaker
from ...audio.speech_output import SpeechOutput
from ...language import N_, LanguageChoice, _, choose, install, restore
from ...storage.folders import user_folders
from ...storage.settings import KEY_REPEATS, load_settings
from ..app import App
from ..keys.keymap import MODIFIER_KEYS
from ..window.frame_log import FrameLog
from ..window.render import HEIGHT, WIDTH, Fonts, draw
from .cli import Options, parse_options
from .key_script import KeyScriptError, KeySource, Step, StepError, post_release, post_step
from .log_file import open_log
from .pads import Pads
from .repeat import Repeater
from .report_facts import copy_to_clipboard, sound_facts
from .transcript import Transcript
from .virtual_pad import PadDriver, PadStepError
from .wake import Wake

# Translators: said when a key press failed inside the game; F1 is the help key.
APOLOGY = N_("Sorry, something went wrong there. The game goes on; press F1 for help.")
LOG_NAME = "sudden_death"  # the package's loggers are all below this one
FRAME_SECONDS = 1 / 30
# The longest the loop sleeps with nothing to do: what answers off the loop without waking it
# (the screen reader, an audio fault, tables found nearby) and the crowd's return once words
# end are looked at this often.
IDLE_WAIT_S = 0.1
# Where keys or a controller's buttons can arrive (a real window, a controller plugged in),
# SDL's queue is looked at this often while the loop sleeps: only SDL's events end SDL's own
# wait, and pygame-ce's wait polls every millisecond inside (3 % of a core under Xvfb, where
# this costs 1.4 %). SDL's headless drivers have no keyboard: there the loop sleeps on its Wake.
INPUT_POLL_S = 0.01
HEADLESS_DRIVERS: tuple[str, ...] = ("dummy", "offscreen")
INTERRUPTED = "sudden_death: interrupted, goodbye."  # on stderr, for the console
SPIN_POLL_SECONDS = 0.002  # how often a launch waiting for the screen reader looks again
# SDL_mixer's channel-finished callback (pygame's) takes the GIL on the audio thread: a Python
# thread holding it for the default 5 ms makes the next mix late. Measured under a busy Python
# thread with sounds ending every 13 ms: 1,707 late buffers in 30 s at 5 ms, none at 1 ms. In
# whole games with the crowd on (speech_latency.py --gaps 5, twice each), buffers that took the
# mixer over 1 ms: 28-30 at 1 ms, 7-11 at 0.2 ms; over 3 ms: 4-5 at 1 ms, 1 at 0.2 ms.
GIL_SWITCH_SECONDS = 0.0002
# A screen reader answers in tens of milliseconds (speech-dispatcher starting itself: about a
# second); longer than this and the welcome is spoken by the built-in voice meanwhile.
READER_LAUNCH_WAIT_S = 1.5
READER_DRAIN_S = 1.0  # at exit, at most this long for the reader to take the last words


# -- audio and the loop ------------------------------------------------------------------------


NoticePoll = Callable[[], list[str]]


def _no_notices() -> list[str]:
    return []


def open_sound(no_sound: bool, engine: str = "espeak", wake: Wake | None = None,
               ) -> tuple[Speaker, CuePlayer, list[str], Callable[[], None], NoticePoll]:
    """The real audio system, or silent recording fakes (for --no-sound or when it is missing);
    `engine` is the saved speech engine, started first so the welcome is in the player's voice;
    the speech worker hands a line's sounds to `wake`, for the loop to play on its thread.

    The last item returns audio faults that happened since it was last called (a synthesis
    failing mid-game), so the loop can show and speak each one as it happens.
    """
    if no_sound:  # silent players keep nothing, so a long session does not grow (the fakes do)
        return SilentSpeaker(), SilentCues(), [], lambda: None, _no_notices
    audio = audio_system.open_audio(speech=True, sound=True, engine=engine,
                                    hand_off=None if wake is None else wake.post)
    return audio.speaker, audio.cues, audio.take_notices(), audio.close, audio.take_notices


def run_app(options: Options, speaker: Speaker | None = None,
            cues: CuePlayer | None = None) -> int:
    """Run the game until the player quits (or scripted input runs out); returns an exit code."""
    launched = time.perf_counter()
    if options.headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    options, console = _without_console(options)  # a windowed build: said once it speaks
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
    log = _log_to_stderr()
    try:
        with SignalGuard() as guard:  # after SDL's own handler, so it replaces it
            _run_window(options, source, transcript, speaker, cues, launched, guard, console)
    finally:
        if log is not None:
            logging.getLogger(LOG_NAME).removeHandler(log)
    if guard.code is not None:
        if guard.code == 128 + signal.SIGINT and sys.stderr is not None:
            print(INTERRUPTED, file=sys.stderr)
        return guard.code
    return 1 if transcript.failed is not None else 0  # its reader was gone: said on stderr


def _without_console(options: Options) -> tuple[Options, list[str]]:
    """A windowed game (the Windows .exe) has no standard output or input: --transcript - and
    --keys - are dropped, and the game says why instead of failing on the missing stream."""
    missing: list[str] = []
    if options.transcript == "-" and sys.stdout is None:
        options = replace(options, transcript=None)
        missing.append(_("The transcript goes to standard output, and this game window has "
                         "none: start sudden-death-console for --transcript -, or give a file "
                         "name."))
    if options.keys == "-" and sys.stdin is None:
        options = replace(options, keys=None)
        missing.append(_("Keys from standard input need a console: start sudden-death-console "
                         "for --keys -, or give a file name."))
    return options, missing


def _run_window(options: Options, source: KeySource | None, transcript: Transcript,
                speaker: Speaker | None, cues: CuePlayer | None, launched: float,
                guard: SignalGuard, console: list[str] | None = None) -> None:
    """The window, the sound and the loop, each closed again however the loop ends."""
    pygame.font.init()
    # Resizable and maximisable: the layout follows the window's size on every frame.
    pygame.display.set_mode(options.window or (WIDTH, HEIGHT), pygame.RESIZABLE)
    closer: Callable[[], None] = lambda: None  # noqa: E731
    notices: list[str] = []
    poll: NoticePoll = _no_notices
    frames = FrameLog.from_environment()
    switch = sys.getswitchinterval()
    output: SpeechOutput | None = None
    restore_language: Token[LanguageChoice | None] | None = None
    log_file: logging.Handler | None = None
    wake = Wake()  # how the speech worker, the table's link and --keys - reach the loop
    if source is not None and source.live:
        source.wake_with(wake.set)
    try:
        # The language first: the speech worker and every word after start in its context.
        # Until the settings are read it is --lang's or the system's, which is also the right
        # one for their notice: a missing or unreadable file has no language of its own.
        chosen, language_notice = choose(options.lang or "")
        choice = LanguageChoice(chosen)
        restore_language = install(choice)
        loaded = load_settings(options.config)  # its notice is said later, by comfort
        saved = loaded[0]
        log_file = _open_log_file(options, saved.table_password)
        if options.lang is None and saved.language:
            choice.language, language_notice = choose(saved.language)
        notices.append(language_notice or "")
        notices += console or []
        # Translators: the window's title: the game's name.
        pygame.display.set_caption(_("Sudden Death"))
        if speaker is None or cues is None:
            speaker, cues, sound_notices, closer, poll = open_sound(options.no_sound,
                                                                    saved.speech_engine, wake)
            notices += sound_notices
        # The screen reader, when chosen, is asked for at once (off the loop: it answers when
        # it answers, and the built-in voice speaks meanwhile).
        output = SpeechOutput(speaker, find_screen_reader)
        output.set_output(saved.speech_output)
        _await_reader(output, lambda: guard.code is not None)
        speaker = output
        speaker.add_listener(lambda message: transcript.speech(message.text))
        cues.add_listener(transcript.cue)
        app = App(speaker, cues, options.seed, options.computer)
        app.friends.server_url = options.server
        app.friends.wake = wake
        app.config_folder = options.config
        app.keeps_games = True
        app.record = transcript.record
        if isinstance(log_file, logging.FileHandler):
            app.reporter.log_path = Path(log_file.baseFilename)
        app.reporter.copy_text = copy_to_clipboard
        app.reporter.sound_facts = partial(sound_facts, output, cues)
        early = output.poll()  # a reader that answered in time speaks the welcome itself
        app.start()
        for notice in dict.fromkeys([*notices, speaker.notice, cues.notice]):
            if notice:
                app.tell_notice(notice)
        for news in early:
            for words in app.comfort.controls.news_words(news):
                app.tell_notice(words, cue=False)
        app.comfort.start(options.config, loaded)
        presses = KeyPresses(app)
        pads = Pads(press=presses.press,
                    tell=lambda words: app.tell_notice(words, cue=False, again=True),
                    rumbles=lambda: app.comfort.settings.rumble, release=presses.release)
        app.on_cue = pads.cue_heard
        fonts = Fonts(app.comfort.settings.text_size)
        sys.setswitchinterval(GIL_SWITCH_SECONDS)
        # Everything made so far lives as long as the game: keep it out of the collector's
        # full passes, which otherwise pause every thread (the mixer's too) for over 15 ms.
        gc.freeze()
        driver = PadDriver(lambda low, high: transcript.record("rumble", low=low, high=high))
        try:
            _loop(app, source, fonts, transcript, poll, frames,
                  stop=lambda: guard.code is not None, pads=pads, driver=driver, wake=wake,
                  presses=presses)
        finally:
            app.close_table()  # the friend hears that this seat left
            driver.close()
            pads.close()
    finally:
        frames.close()
        sys.setswitchinterval(switch)
        gc.unfreeze()
        if output is not None:
            # The voice and the cues are the audio system's to close; the reader gets the
            # last words (Goodbye) first, unless it does not answer.
            output.close_reader(drain_seconds=READER_DRAIN_S)
        closer()
        transcript.close()
        pygame.display.quit()
        if log_file is not None:
            logging.getLogger(LOG_NAME).removeHandler(log_file)
            log_file.close()
        if restore_language is not None:
            restore(restore_language)


class SignalGuard:
    """SIGTERM and Ctrl+C (SIGINT) end the game like any signal-terminated program: the handler
    only notes the signal, the loop stops at its next turn, audio and window close, and the exit
    code is 128 + the signal (143, 130). Python's own Ctrl+C raises KeyboardInterrupt wherever
    the main thread is, which can be inside a lock's `with` before it is entered, and closing
    audio then waits on that lock for ever; SDL would turn SIGTERM into a window close request,
    which ends with 0. A second Ctrl+C while closing raises KeyboardInterrupt, so a player is
    never stuck. A Ctrl+C ignored when the game started (a shell's background job) stays
    ignored, as Python itself leaves it. Handlers can only be set from the main thread;
    elsewhere (a test running the app in a thread) the guard does nothing."""

    SIGNALS = ("SIGTERM", "SIGINT")

    def __init__(self) -> None:
        self.code: int | None = None
        self._previous: dict[int, Any] = {}

    def _on_signal(self, signum: int, frame: object) -> None:
        if self.code is not None and signum == signal.SIGINT:
            raise KeyboardInterrupt  # asked again while closing: leave now
        self.code = 128 + signum

    def __enter__(self) -> SignalGuard:
        if threading.current_thread() is threading.main_thread():
            for name in self.SIGNALS:
                number = getattr(signal, name, None)
                if number is None:
                    continue
                if name == "SIGINT" and signal.getsignal(number) is signal.SIG_IGN:
                    continue  # started with Ctrl+C ignored (a background job): leave it so
                self._previous[number] = signal.signal(number, self._on_signal)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, previous in self._previous.items():
            signal.signal(number, previous)
        self._previous.clear()


def _await_reader(output: SpeechOutput, stop: Callable[[], bool]) -> None:
    """At launch, give a saved screen reader a moment to answer, so the welcome is in the
    player's own reader; the window stays alive meanwhile (its events wait in SDL's queue) and
    a signal ends the wait. A reader still silent after it gets the welcome in the built-in
    voice, and its news later."""
    deadline = time.perf_counter() + READER_LAUNCH_WAIT_S
    while output.asking and time.perf_counter() < deadline and not stop():
        pygame.event.pump()
        time.sleep(SPIN_POLL_SECONDS)


def _open_log_file(options: Options, password: str) -> logging.Handler | None:
    """The log file (log_file.py) in the log folder, its first line saying what started."""
    try:
        folder = user_folders(options.config).log
    except RuntimeError:  # no home folder: no log
        return None
    logger = logging.getLogger(LOG_NAME)
    handler = open_log(folder, logger, secrets=[password])
    if handler is not None:  # into the file alone: the console stays quiet at a start
        frozen = "the built game" if getattr(sys, "frozen", False) else "from source"
        console = "windowed" if sys.stdout is None else "with a console"
        handler.handle(logger.makeRecord(
            LOG_NAME, logging.INFO, __file__, 0,
            "Sudden Death %s started (%s, %s, Python %s, pygame %s)",
            (__version__, frozen, console, sys.version.split()[0], pygame.version.ver), None))
    return handler


def _log_to_stderr() -> logging.Handler | None:
    """What libraries said when something failed goes here, for whoever reads the console; the
    player hears the game's own plain sentence instead. A windowed build has no stderr."""
    if sys.stderr is None:
        return None
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("sudden_death: %(message)s"))
    logger = logging.getLogger(LOG_NAME)
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return handler


def _key_source(keys: str | None) -> KeySource | None:
    if keys is None:
        return None
    if keys == "-":
        return KeySource.from_stdin()
    return KeySource.from_file(keys)


class KeyPresses:
    """Key presses and releases, from the keyboard and the pads, into the app and its
    `Repeater`: a held arrow or D-pad that means a move (`App.repeats`) is pressed again while
    held, at the player's setting (`key_repeat`), and any other press stops the repeating."""

    def __init__(self, app: App, clock: Callable[[], float] = time.perf_counter) -> None:
        self.app = app
        self.clock = clock
        self.repeater = Repeater()
        self._timing: object = object()  # none yet: the first look sets it
        self.sync()

    def sync(self) -> None:
        """The repeater's pause and rate as the setting says now (it may have just changed)."""
        timing = KEY_REPEATS.get(self.app.comfort.settings.key_repeat)
        if timing != self._timing:
            self._timing = timing
            self.repeater.set_timing(*(timing or (None, None)))

    def press(self, key: int, mod: int = 0) -> None:
        self.sync()
        if key not in MODIFIER_KEYS:  # Shift pressed while Down is held: Down goes on
            if self.app.repeats(key, mod):
                self.repeater.press(key, self.clock(), mod)
            else:
                self.repeater.stop()
        self.app.handle_key(key, mod)

    def release(self, key: int) -> None:
        self.repeater.release(key)

    def stop(self) -> None:
        self.repeater.stop()

    def repeat(self, now: float) -> bool:
        """Press again what is due at `now`; True if anything was. A key that no longer means
        a move here (the screen changed under it) stops repeating instead."""
        self.sync()
        made = False
        for key, mod in self.repeater.due(now):
            if self.app.repeats(key, mod):
                self.app.handle_key(key, mod)
                made = True
            else:
                self.repeater.stop()
        return made

    def next_due(self) -> float | None:
        return self.repeater.next_due()


class _Hold:
    """A key script's held step: let go (`release`) at `until`, and no other step till then."""

    def __init__(self, until: float, release: Callable[[], None]) -> None:
        self.until = until
        self.release = release


def _loop(app: App, source: KeySource | None, fonts: Fonts, transcript: Transcript,
          poll: NoticePoll = _no_notices, frames: FrameLog | None = None,
          stop: Callable[[], bool] = lambda: False, pads: Pads | None = None,
          driver: PadDriver | None = None, wake: Wake | None = None,
          presses: KeyPresses | None = None) -> None:
    """Turn until the game ends: the calls other threads posted, the app's news, a scripted
    step, the window's events, a held key's repeat and a frame; then, with nothing to do,
    sleep until the Wake or the next due time (see `_idle`)."""
    wake = wake if wake is not None else Wake()
    presses = presses if presses is not None else KeyPresses(app)
    hold: _Hold | None = None
    last_draw = 0.0
    waiting_said = False
    window = pygame.display.get_driver() not in HEADLESS_DRIVERS  # a keyboard may type
    while app.running and not stop() and transcript.failed is None:
        busy = wake.run_posted() > 0  # a line's sounds, handed over by the speech worker
        for notice in poll():  # an audio fault mid-game is shown and spoken when it happens
            app.tell_notice(notice)
        app.tick()
        idle_live = False  # a live script with no line ready: the loop may sleep for one
        if hold is not None and time.perf_counter() >= hold.until:
            hold.release()  # a held step's key comes up: its event is taken below
            hold = None
        if source is not None and hold is None and not pygame.event.peek():
            step = source.next(0)
            if step is False and source.live:
                idle_live = True
                if not waiting_said:
                    transcript.waiting()
                    waiting_said = True
            if step is None:
                break
            if isinstance(step, Step) and step.pad is not None:
                waiting_said = False
                try:
                    if driver is None:
                        raise PadStepError("this game has no virtual pads")
                    driver.step(step.pad, hold=step.hold is not None)
                    if step.hold is not None:
                        hold = _Hold(time.perf_counter() + step.hold, driver.let_go)
                except PadStepError as error:
                    transcript.error(f"pad {step.pad}: {error}")
            elif isinstance(step, Step):
                waiting_said = False
                post_step(step)
                if step.hold is not None:
                    hold = _Hold(time.perf_counter() + step.hold, partial(post_release, step))
            elif isinstance(step, StepError):  # said, then waiting again for the next line
                transcript.error(step.text)
                waiting_said = False
        events = pygame.event.get()
        for event in events:
            _dispatch(app, event, pads, presses)
            if not app.running:
                break
        now = time.perf_counter()
        if app.running and presses.repeat(now):
            busy = True
        recording = frames is not None and frames.active  # then every state is drawn
        if app.dirty and (now - last_draw >= FRAME_SECONDS or source is None or recording):
            try:
                surface = pygame.display.get_surface()  # a new size after a resize
                view = app.view()
                frame = draw(surface, fonts, view)
                app.panel.lines = (frame.panel_lines, frame.panel_shown)
                pygame.display.flip()
                if recording and frames is not None:
                    frames.record(frame, surface, view.menu.title if view.menu else "",
                                  view.text_size)
            except Exception:  # drawing must never end the game
                traceback.print_exc()
            app.dirty = False
            last_draw = now
        if busy or events or not app.running or not (source is None or idle_live
                                                     or hold is not None):
            continue  # something happened, or a script's next step is due at once
        if source is None and app.dirty:
            continue  # drawn on the next turn (an event's handler made it dirty after the draw)
        timeout = IDLE_WAIT_S
        if app.dirty:  # a frame held back to FRAME_SECONDS
            timeout = min(timeout, last_draw + FRAME_SECONDS - now)
        due = app.due()
        if due is not None:
            timeout = min(timeout, due - now)
        repeat_due = presses.next_due()  # a held key: woken exactly when it repeats
        if repeat_due is not None:
            timeout = min(timeout, repeat_due - now)
        if hold is not None:
            timeout = min(timeout, hold.until - now)
        if window or (pads is not None and pads.pads):
            timeout = min(timeout, INPUT_POLL_S)
        _idle(wake, timeout)


def _idle(wake: Wake, timeout: float) -> None:
    """Sleep until the Wake is raised (news from the table's link, a line's sounds from the
    speech worker, a line of `--keys -`) or `timeout` seconds pass; not at all if it was
    raised during this turn."""
    if timeout > 0 and not wake.is_set():
        wake.wait(timeout)


def _dispatch(app: App, event: Any, pads: Pads | None = None,
              presses: KeyPresses | None = None) -> None:
    """Handle one event; an unexpected error is logged and apologised for, never fatal. Keys
    go through `presses` (and so may repeat while held) when given."""
    try:
        if pads is not None and pads.handle(event):
            return
        if event.type == pygame.QUIT:
            app.running = False
        elif event.type == pygame.KEYDOWN:
            if presses is not None:
                presses.press(event.key, event.mod)
            else:
                app.handle_key(event.key, event.mod)
        elif event.type == pygame.KEYUP:
            if presses is not None:
                presses.release(event.key)
        elif event.type == pygame.WINDOWFOCUSLOST:
            if presses is not None:  # a key let go elsewhere never comes up here
                presses.stop()
        elif event.type == pygame.TEXTINPUT:
            app.handle_text(event.text)
        elif event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE, pygame.VIDEORESIZE,
                            pygame.WINDOWSIZECHANGED):
            app.dirty = True  # exposed, resized or maximised: lay out again for the new size
    except Exception:
        traceback.print_exc()
        app.cue("menu_error")
        app.say(_(APOLOGY), category=Category.ERROR)


def main(argv: list[str] | None = None) -> int:
    """Run the game; Ctrl+C ends it quietly (run_app has already closed audio and window)."""
    options = parse_options(argv)
    try:
        return run_app(options)
    except KeyboardInterrupt:  # before the window opened, or a second Ctrl+C while closing
        if sys.stderr is not None:
            print(INTERRUPTED, file=sys.stderr)
        return 130
