"""Key scripts for `--keys`: parse each line and post it into pygame's queue as real events.

A step is a pygame key name with optional `shift+` / `ctrl+` prefixes (`tab`, `shift+tab`,
`return`, `f1`), or `type TEXT` for typed text. Posting real KEYDOWN/KEYUP and TEXTINPUT events
means scripted runs go through exactly the same loop and handlers as a player's keyboard.
"""

from __future__ import annotations

import queue
import sys
import threading
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ALIASES = {
    "enter": "return",
    "esc": "escape",
    "ctrl": "left ctrl",
    "control": "left ctrl",
    "shift": "left shift",
    "pageup": "page up",
    "pagedown": "page down",
}


class KeyScriptError(ValueError):
    """A line of a key script names no key pygame knows."""


@dataclass(frozen=True)
class Step:
    """One scripted step: a key press (with modifiers) or a piece of typed text."""

    key: str = ""
    shift: bool = False
    ctrl: bool = False
    text: str | None = None


def parse_step(line: str) -> Step | None:
    """The step a script line asks for; None for blank lines and `#` comments."""
    stripped = line.strip("\r\n")
    if not stripped.strip() or stripped.lstrip().startswith("#"):
        return None
    if stripped.lstrip().lower().startswith("type "):
        return Step(text=stripped.lstrip()[5:])
    name = stripped.strip().lower()
    shift = ctrl = False
    while True:
        if name.startswith("shift+") and len(name) > len("shift+"):
            shift, name = True, name[len("shift+") :]
        elif name.startswith("ctrl+") and len(name) > len("ctrl+"):
            ctrl, name = True, name[len("ctrl+") :]
        else:
            break
    return Step(key=ALIASES.get(name, name), shift=shift, ctrl=ctrl)


def parse_script(lines: Iterable[str]) -> list[Step]:
    steps = [step for step in (parse_step(line) for line in lines) if step is not None]
    for step in steps:
        if step.text is None:
            key_code(step)  # fail early, before the game starts, on an unknown key name
    return steps


def key_code(step: Step) -> int:
    import pygame

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # key_code warns before pygame.init(); it still works
            return int(pygame.key.key_code(step.key))
    except ValueError:
        raise KeyScriptError(f"unknown key name in the key script: {step.key!r}") from None


def post_step(step: Step) -> None:
    """Post one step as the events a real keyboard would give."""
    import pygame

    if step.text is not None:
        for char in step.text:
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
        return
    code = key_code(step)
    mod = (pygame.KMOD_LSHIFT if step.shift else 0) | (pygame.KMOD_LCTRL if step.ctrl else 0)
    unicode = step.key if len(step.key) == 1 else ""
    if step.shift and unicode:
        unicode = unicode.upper()
    for kind in (pygame.KEYDOWN, pygame.KEYUP):
        pygame.event.post(
            pygame.event.Event(kind, key=code, mod=mod, unicode=unicode, scancode=0)
        )


class KeySource:
    """Steps from a file (all read up front) or from standard input (read by a thread)."""

    def __init__(self, steps: list[Step] | None = None, live: bool = False) -> None:
        self._steps: queue.Queue[Step | None] = queue.Queue()
        for step in steps or []:
            self._steps.put(step)
        self.live = live
        self.finished = not live  # a file's steps are all queued already
        if not live:
            self._steps.put(None)

    @classmethod
    def from_file(cls, path: str) -> KeySource:
        text = Path(path).read_text(encoding="utf-8")
        return cls(parse_script(text.splitlines()))

    @classmethod
    def from_stdin(cls) -> KeySource:
        source = cls(live=True)
        thread = threading.Thread(target=source._read_stdin, name="keys-stdin", daemon=True)
        thread.start()
        return source

    def _read_stdin(self) -> None:
        for line in sys.stdin:
            try:
                step = parse_step(line)
                if step is not None and step.text is None:
                    key_code(step)
            except KeyScriptError as error:
                print(error, file=sys.stderr)
                continue
            if step is not None:
                self._steps.put(step)
        self._steps.put(None)

    def next(self, timeout: float | None) -> Step | bool | None:
        """The next step; None at the end of input; False if none arrived within `timeout`."""
        try:
            if timeout is None or timeout <= 0:
                return self._steps.get_nowait()
            return self._steps.get(timeout=timeout)
        except queue.Empty:
            return False

    def empty(self) -> bool:
        return self._steps.empty()
