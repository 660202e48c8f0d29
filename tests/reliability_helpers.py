"""Shared pieces of the reliability tests: an engine-invariant watcher that checks a match's
event log as it grows, and a key source that fuzzes the real game loop while steering it
toward progress so that games actually finish.

The source is consulted by the app's own loop each time the pygame queue is empty, so every key
it returns is posted as real KEYDOWN/KEYUP (or TEXTINPUT) events and goes through `_dispatch`
exactly like a player's keyboard. Floods are posted as one batch, like key repeat.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sudden_death import language
from sudden_death.engine import events as ev
from sudden_death.engine.state import GameEnd
from sudden_death.ui.run.key_script import (
    MAX_LINE,
    KeySource,
    Step,
    StepError,
    live_step,
    parse_step,
    post_step,
)
from sudden_death.ui.screens.base import ConfirmScreen
from sudden_death.ui.screens.decisions import CoinScreen, DecisionScreen, GameOverScreen, SideScreen
from sudden_death.ui.screens.hands import SelectionScreen
from sudden_death.ui.screens.welcome import NamingScreen, WelcomeScreen

SPEC_KEYS = [
    "tab", "shift+tab", "up", "down", "left", "right", "space", "return", "escape", "h",
    "shift+h", "s", "r", "d", "e", "f1", "left ctrl", "home", "end",
    *[str(n) for n in range(1, 10)],
]
LETTERS = [chr(c) for c in range(ord("a"), ord("z") + 1)]
FUNCTION_KEYS = [f"f{n}" for n in range(1, 13)] + ["shift+f1", "ctrl+f4"]
ODD_KEYS = [
    "0", "backspace", "delete", "insert", "page up", "page down", "right ctrl", "left alt",
    "caps lock", "numlock", "keypad enter", "[1]", "[9]", "ctrl+c", "ctrl+q", "ctrl+w",
    "ctrl+d", "shift+return", "shift+space", ",", ".", "/", "shift+,", "shift+.", "shift+/",
    "-", "=", "pause", "print screen", "keypad 5",
]
TYPED = ["type Jets", "type a", "type \u00e9\u00e8 \u2603", "type    ", "type 1234567890",
         "type " + "x" * 80, "type \U0001f3c8"]
# Raw lines as standard input may bring them, read the way `--keys -` reads them: unknown names,
# bytes that are not UTF-8, lines too long (cut short by the reader, or whole), a late byte
# order mark, NULs and control characters, and Alt / Meta combinations (not Alt+F4: it closes).
HOSTILE_LINES = [
    b"frobnicate\n", b"alt+frobnicate\n", b"shift+\n", b"ctrl+\n", b"+\n", b"type\n",
    b"\xff\xfe\n", b"caf\xe9\n", b"tab\xc3\n", b"\x00\n", b"\xef\xbb\xbftab\n",
    b"type " + b"x" * MAX_LINE + b"\n", b"x" * (5 * MAX_LINE), b"type " + b"y" * 70_000 + b"\n",
    ("type " + "\u00e9" * (MAX_LINE - 5) + "\n").encode(),
    b"type \x00\x1b[2J\x7f\x08\t\n", b"   # a comment\n", b"\r\n", b"  \t \n",
    b"alt+s\n", b"alt+tab\n", b"ALT+Return\n", b"ctrl+alt+delete\n", b"meta+d\n", b"super+tab\n",
    b"gui+l\n", b"shift+alt+f4\n", b"ctrl+alt+f4\n", b"alt+escape\n", b"alt+1\n", b"alt\n",
    b"meta\n", b"ctrl + shift + tab\n", b"shift++\n", b"[+]\n",
]


@dataclass
class InvariantWatcher:
    """Checks each match's events as they arrive: the same invariants as the engine tests,
    plus a conceded game (which may end after any number of drives)."""

    matches_seen: int = 0
    games_over: int = 0
    _match: Any = None
    _index: int = 0
    _scores: list[int] = field(default_factory=lambda: [0, 0])
    _drives: int = 0
    _over: int = 0

    def check(self, match: Any) -> None:
        if match is None:
            return
        if match is not self._match:
            self._match, self._index, self._scores, self._drives, self._over = (
                match, 0, [0, 0], 0, 0)
            self.matches_seen += 1
        log = match.match.game.log  # a game against the computer: its engine's log
        for event in log[self._index:]:
            self._event(event)
        self._index = len(log)
        if self._over:
            assert isinstance(log[-1], ev.GameOver), "nothing may follow GameOver"

    def _event(self, event: ev.Event) -> None:
        assert not self._over, f"{type(event).__name__} after GameOver"
        if isinstance(event, ev.DownStarted):
            down = event.down
            assert 0 < down.line < 100, down
            assert 1 <= down.number <= 4, down
            assert 0 < down.distance <= down.marker - down.line, down
        elif isinstance(event, ev.ScoreChanged):
            assert event.points in (1, 2, 3, 6), event
            self._scores[event.team] += event.points
            assert list(event.scores) == self._scores, event
        elif isinstance(event, ev.DriveStarted):
            self._drives += 1
            assert self._drives <= 2, "at most two drives"
            assert 0 < event.spot < 100, event
        elif isinstance(event, ev.PlayResolved):
            assert -3 <= event.band <= 3 and 0 <= event.spot <= 100, event
        elif isinstance(event, ev.GameOver):
            self._over += 1
            self.games_over += 1
            assert list(event.outcome.scores) == self._scores
            if event.outcome.end is GameEnd.BOTH_DRIVES:
                assert self._drives == 2
            elif event.outcome.end is GameEnd.SAFETY:
                assert self._drives in (1, 2)


def key_step(name: str) -> Step:
    step = parse_step(name)
    assert step is not None, name
    return step


def said_as(message: str) -> tuple[str, ...]:
    """How `message` begins in every language the game has (up to its first placeholder): the
    fuzz may change the language in settings, so what it waits for can be in any of them."""
    found = []
    for code in language.available():
        with language.using(language.load(code)):
            found.append(language._(message).split("{", 1)[0])
    return tuple(found)


class FuzzSource(KeySource):
    """Hostile keys with a pull toward progress; ends once `games` games are over (or after
    `max_steps`), with a final S whose spoken answer proves the app still answers."""

    def __init__(self, rng: random.Random, games: int, max_steps: int,
                 hostile: float = 0.45, on_step: Callable[[Any], None] | None = None) -> None:
        super().__init__([], live=False)
        self.rng = rng
        self.games = games
        self.max_steps = max_steps
        self.hostile = hostile
        self.on_step = on_step
        self.app: Any = None
        self.watcher = InvariantWatcher()
        self.steps = 0
        self.keys_posted = 0
        self.errors = 0  # hostile lines the reader refused (each an `error` record)
        self.finished_by = ""
        self._plan: list[str] = []
        self._closing = 0

    # -- the KeySource contract the loop uses ------------------------------------------------

    def next(self, timeout: float | None) -> Step | StepError | bool | None:
        app = self.app
        assert app is not None, "the app must register itself before the first step"
        self.watcher.check(app.match)
        if self.on_step is not None:
            self.on_step(app)
        if self._closing:
            self._closing -= 1
            return None if self._closing == 0 else self._count(key_step("s"))
        self.steps += 1
        done = (self.watcher.games_over >= self.games
                and isinstance(app.top, GameOverScreen) and not app.controls.section)
        if done or self.steps >= self.max_steps:
            self.finished_by = "games" if done else "steps"
            self._closing = 2  # one S, then the end of input
            return self._count(key_step("s"))
        if self._quit_dialog(app):
            self._plan.clear()
            return self._count(key_step("escape"))  # never let the fuzz quit the app
        if self._plan:
            return self._count(key_step(self._plan.pop(0)))
        if self.rng.random() < self.hostile:
            return self._hostile()
        return self._count(key_step(self._progress(app)))

    def empty(self) -> bool:
        return False

    # -- choosing keys -----------------------------------------------------------------------

    def _count(self, step: Step) -> Step:
        self.keys_posted += 1
        return step

    def _hostile(self) -> Step | StepError | bool:
        rng = self.rng
        roll = rng.random()
        if roll < 0.06:  # an Escape storm
            return self._flood("escape", rng.randrange(5, 40))
        if roll < 0.14:  # key repeat: one key many times in one batch
            return self._flood(rng.choice([*SPEC_KEYS, "tab", "down", "space", "return"]),
                               rng.randrange(5, 60))
        if roll < 0.20:
            return self._count(key_step(rng.choice(TYPED)))
        if roll < 0.30:
            return self._count(key_step(rng.choice(FUNCTION_KEYS)))
        if roll < 0.45:
            return self._count(key_step(rng.choice(LETTERS)))
        if roll < 0.55:
            return self._count(key_step(rng.choice(ODD_KEYS)))
        if roll < 0.60:
            return self._line(rng.choice(HOSTILE_LINES))
        return self._count(key_step(rng.choice(SPEC_KEYS)))

    def _line(self, raw: bytes) -> Step | StepError | bool:
        """A raw line as the live reader makes it: a step, an error record, or nothing."""
        step = live_step(raw, self.steps)
        if isinstance(step, Step):
            return self._count(step)
        if isinstance(step, StepError):
            self.errors += 1
            return step
        return False  # a blank line or a comment: no key this time

    def _flood(self, name: str, count: int) -> Step:
        step = key_step(name)
        for _ in range(count - 1):
            post_step(step)
        self.keys_posted += count - 1
        return self._count(step)

    @staticmethod
    def _quit_dialog(app: Any) -> bool:
        top = app.top  # in whatever language the fuzz has chosen in settings by now
        return isinstance(top, ConfirmScreen) and top.question.startswith(
            said_as("Quit Sudden Death?"))

    def _progress(self, app: Any) -> str:
        """The key a patient player would press next to move the game on."""
        if app.controls.section:
            return "escape"
        top = app.top
        menu = top.menu
        if isinstance(top, ConfirmScreen):  # concede: now and then say yes
            if self.rng.random() < 0.15:
                self._plan = ["return"]
                return "end"
            return "escape"
        if len(app.stack) > 1:
            return "escape"  # explorer, settings, how to play: back out
        if isinstance(top, WelcomeScreen):
            return "return" if menu.group.focus == 0 else "home"
        if isinstance(top, GameOverScreen):
            return "return" if menu.group.focus == 0 else "home"
        if isinstance(top, (NamingScreen, CoinScreen, SideScreen)):
            return "return"
        if isinstance(top, DecisionScreen) and menu.group_index == 0:
            return "tab"  # off the Concede control
        if isinstance(top, SelectionScreen):
            for index, need in ((1, 2), (2, 3)):
                group = menu.groups[index]
                if len(group.checked()) < need:
                    if menu.group_index != index:
                        return "tab"
                    free = [n for n, item in enumerate(group.items, 1) if not item.checked]
                    return str(self.rng.choice(free))
            return "return"
        item = menu.item
        if item is not None and not item.enabled:
            return "home"
        return "return"


def make_tracking_app(app_class: type, source: Any,
                      heard: list[Any] | None = None) -> type:
    """A subclass of App that hands itself to the fuzz source when run_app creates it, and
    (with `heard`) records every message the app says from its first word."""

    class TrackingApp(app_class):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            source.app = self
            if heard is not None:
                self.speaker.add_listener(heard.append)

        def after(self, events: list[ev.Event]) -> None:
            source.watcher.check(self.match)  # every batch, even inside a flood of keys
            super().after(events)

        def new_match(self, interrupt: bool = True) -> None:
            source.watcher.check(self.match)  # the old game's last events, before it goes
            super().new_match(interrupt)

    return TrackingApp


class ScriptSource(KeySource):
    """A fixed script for fault tests: key names, or callables run at that point with the app
    (to wait for speech, inject a fault or post a window close). Returning False from the
    KeySource means "no key this time", so the loop runs a frame and asks again."""

    def __init__(self, script: list[str | Callable[[Any], object]]) -> None:
        super().__init__([], live=False)
        self.script = list(script)
        self.app: Any = None
        self.watcher = InvariantWatcher()

    def next(self, timeout: float | None) -> Step | bool | None:
        self.watcher.check(self.app.match if self.app is not None else None)
        if not self.script:
            return None
        item = self.script.pop(0)
        if callable(item):
            item(self.app)
            return False
        return key_step(item)

    def empty(self) -> bool:
        return not self.script
