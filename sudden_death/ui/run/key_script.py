"""Key scripts for `--keys`: parse each line and post it into pygame's queue as real events.

A step is a pygame key name with optional `shift+` / `ctrl+` / `alt+` / `meta+` prefixes (`tab`,
`shift+tab`, `return`, `f1`, `alt+f4`), `type TEXT` for typed text, `pad STEP` for a
virtual game controller (`virtual_pad.py`: `pad connect NAME`, `pad a`, `pad stick down`), or
`hold STEP SECONDS` for a key or a pad's button or stick held down that long, then let go
(`hold down 1.0`, `hold pad dpad_down 1.0`, `hold pad stick down 1.0`): the loop takes no
other step meanwhile, so a held key repeats as a player's would (repeat.py).
Posting real KEYDOWN/KEYUP and TEXTINPUT events means scripted runs go through exactly the same
loop and handlers as a player's keyboard; `alt+f4` is a close request, as the window manager
would send it.

Whatever a script holds, reading it is bounded: a file must be a regular file of at most
MAX_SCRIPT_BYTES, read line by line; a line may hold at most MAX_LINE characters (a `type` step
posts one event per character, and pygame's queue holds only 65,535). A file with a line that
can't be used is refused before the game starts (KeyScriptError, naming the file and line); on
standard input such a line becomes a StepError, which the loop reports, and reading goes on.
Standard input's reader thread never calls pygame (its key names are looked up when the loop
takes the step, on the loop's thread) and wakes the loop when a line arrives.
"""

from __future__ import annotations

import contextlib
import functools
import os
import queue
import stat
import sys
import threading
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import BinaryIO

import pygame

from .virtual_pad import PadStepError, check_step

MAX_LINE = 1000
"""Characters in one line. A whole game is about 60 short lines; the longest useful line is a
`type` step with a team name. Well under pygame's queue of 65,535 events."""
MAX_SCRIPT_BYTES = 1024 * 1024
"""Bytes in a key script file (1 MiB): about 100,000 steps, well over a thousand games."""
LINE_BYTES = 4 * MAX_LINE + 2
"""Bytes one read may take: MAX_LINE characters of up to 4 UTF-8 bytes each, and CR LF."""
LIVE_QUEUE = 10_000
"""Steps read ahead from standard input; past that the reader waits for the game."""
STDERR_COPIES = 20
"""Bad standard-input lines also copied to stderr (the transcript has all of them); capped so
a driver that never reads stderr can't fill its pipe and stall the reader."""
ECHO = 40
"""Characters of a bad line quoted in a message."""
MAX_HOLD_S = 60.0
"""Seconds one `hold` step may hold a key: longer than any test needs, short of a hang."""

ALIASES = {
    "enter": "return",
    "esc": "escape",
    "ctrl": "left ctrl",
    "control": "left ctrl",
    "shift": "left shift",
    "alt": "left alt",
    "meta": "left meta",
    "gui": "left meta",
    "super": "left meta",
    "pageup": "page up",
    "pagedown": "page down",
}
MODIFIERS = {
    "shift": "shift",
    "ctrl": "ctrl",
    "control": "ctrl",
    "alt": "alt",
    "meta": "gui",
    "gui": "gui",
    "super": "gui",
}


class KeyScriptError(ValueError):
    """A key script, or one of its lines, that can't be used: the message is one line."""


@dataclass(frozen=True)
class StepError:
    """A line of a live script (`--keys -`) that could not be used: the loop writes it to the
    transcript as `{"kind": "error", "text": ...}` and goes on waiting for the next line."""

    text: str


@dataclass(frozen=True)
class Step:
    """One scripted step: a key press (with modifiers) or a piece of typed text."""

    key: str = ""
    shift: bool = False
    ctrl: bool = False
    text: str | None = None
    alt: bool = False
    gui: bool = False
    pad: str | None = None  # a virtual controller's step (virtual_pad.py), not a key
    hold: float | None = None  # seconds the key or pad step is held down before it is let go

    @property
    def closes_window(self) -> bool:
        """`alt+f4`: what the window manager turns into a close request."""
        return self.key == "f4" and self.alt and not (self.shift or self.ctrl or self.gui)


def echo(text: str) -> str:
    """A piece of a line fit to quote in a one-line message."""
    return repr(text[:ECHO]) + ("..." if len(text) > ECHO else "")


def parse_step(line: str) -> Step | None:
    """The step a script line asks for; None for blank lines and `#` comments. A line longer
    than MAX_LINE characters raises KeyScriptError; key names are checked by `key_code`."""
    stripped = line.strip("\r\n")
    if len(stripped) > MAX_LINE:
        raise KeyScriptError(f"longer than {MAX_LINE} characters: {echo(stripped)}")
    if not stripped.strip() or stripped.lstrip().startswith("#"):
        return None
    if stripped.lstrip().lower().startswith("type "):
        return Step(text=stripped.lstrip()[5:])
    if stripped.lstrip().lower().startswith("hold "):
        return _hold_step(stripped.strip()[5:].strip())
    if stripped.lstrip().lower().startswith("pad "):
        return Step(pad=stripped.strip()[4:].strip())
    name = stripped.strip().lower()
    held: set[str] = set()
    while "+" in name[:-1]:
        prefix, rest = name.split("+", 1)
        modifier = MODIFIERS.get(prefix.strip())
        if modifier is None:
            break
        held.add(modifier)
        name = rest.strip()
    return Step(key=ALIASES.get(name, name), shift="shift" in held, ctrl="ctrl" in held,
                alt="alt" in held, gui="gui" in held)


def _hold_step(text: str) -> Step:
    """`hold STEP SECONDS`: a key or pad step (not typed text, not another hold) held down."""
    head, _space, last = text.rpartition(" ")
    try:
        seconds = float(last)
    except ValueError:
        raise KeyScriptError(f"hold needs a key and seconds, as 'hold down 1.0': {echo(text)}"
                             ) from None
    if not 0 < seconds <= MAX_HOLD_S:  # also refuses nan
        raise KeyScriptError(f"a hold is more than 0 and at most {MAX_HOLD_S:g} seconds: "
                             f"{echo(last)}")
    step = parse_step(head)
    if step is None or step.text is not None or step.hold is not None or step.closes_window:
        raise KeyScriptError(f"hold needs a key or a pad's button or stick: {echo(head)}")
    if step.pad is not None and step.pad.split()[0].lower() in ("connect", "disconnect"):
        raise KeyScriptError(f"a pad's {step.pad.split()[0]} can't be held")
    return replace(step, hold=seconds)


def checked_step(line: str, keys: bool = True) -> Step | None:
    """`parse_step`, with the key name checked too (unless not `keys`: pygame is asked, so
    only on the loop's thread): KeyScriptError for a line that can't be used."""
    step = parse_step(line)
    if step is not None and step.pad is not None:
        try:
            check_step(step.pad)
        except PadStepError as error:
            raise KeyScriptError(str(error)) from None
    elif step is not None and step.text is None and keys:
        key_code(step)
    return step


def parse_script(lines: Iterable[str]) -> list[Step]:
    """The steps of a whole script; KeyScriptError (with the line number) at its first bad line,
    so that a script fails before the game starts."""
    steps = []
    for number, line in enumerate(lines, 1):
        try:
            step = checked_step(line)
        except KeyScriptError as error:
            raise KeyScriptError(f"line {number}: {error}") from None
        if step is not None:
            steps.append(step)
    return steps


def key_code(step: Step) -> int:
    try:
        return _code(step.key)
    except ValueError:  # unknown, empty, or with a NUL or a lone surrogate in it
        raise KeyScriptError(f"unknown key name {echo(step.key)}") from None


@functools.lru_cache(maxsize=512)
def _code(name: str) -> int:
    """pygame's code for a key name (cached: a long script repeats a few names)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # key_code warns before pygame.init(); it still works
        return int(pygame.key.key_code(name))


def post_step(step: Step) -> None:
    """Post one step as the events a real keyboard (or window manager) would give; a held
    step's key goes down only (`post_release` lets it go)."""
    if step.text is not None:
        for char in step.text:
            pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=char))
        return
    if step.closes_window:  # the window manager takes Alt+F4: the game sees a close request
        pygame.event.post(pygame.event.Event(pygame.WINDOWCLOSE))
        pygame.event.post(pygame.event.Event(pygame.QUIT))
        return
    _post_key(step, (pygame.KEYDOWN,) if step.hold is not None else
              (pygame.KEYDOWN, pygame.KEYUP))


def post_release(step: Step) -> None:
    """A held step's key let go."""
    _post_key(step, (pygame.KEYUP,))


def _post_key(step: Step, kinds: tuple[int, ...]) -> None:
    code = key_code(step)
    mod = ((pygame.KMOD_LSHIFT if step.shift else 0) | (pygame.KMOD_LCTRL if step.ctrl else 0)
           | (pygame.KMOD_LALT if step.alt else 0) | (pygame.KMOD_LGUI if step.gui else 0))
    unicode = step.key if len(step.key) == 1 else ""
    if step.shift and unicode:
        unicode = unicode.upper()
    for kind in kinds:
        pygame.event.post(
            pygame.event.Event(kind, key=code, mod=mod, unicode=unicode, scancode=0)
        )


def read_line(stream: BinaryIO) -> bytes:
    """One line of at most LINE_BYTES bytes (b"" at the end). A longer line comes back cut
    short, without its newline: `line_step` calls that too long."""
    return stream.readline(LINE_BYTES)


def line_step(raw: bytes, first: bool = False, keys: bool = True) -> Step | None:
    """The checked step of one raw line as `read_line` gives it: KeyScriptError if it is too
    long, not UTF-8 text, or names no key pygame knows (looked up only if `keys`). `first`: a
    UTF-8 BOM is allowed."""
    if len(raw) >= LINE_BYTES and not raw.endswith(b"\n"):
        cut = raw[: 4 * ECHO].decode("utf-8", "replace")
        raise KeyScriptError(f"longer than {MAX_LINE} characters: {echo(cut + '...')}")
    try:
        line = raw.decode("utf-8-sig" if first else "utf-8")
    except UnicodeDecodeError:
        raise KeyScriptError("not UTF-8 text") from None
    return checked_step(line, keys)


def live_step(raw: bytes, number: int, keys: bool = True) -> Step | StepError | None:
    """What a live script makes of its line `number`: the step, None for a blank line or a
    comment, or a StepError that names the line. Not `keys`: the key name is left for
    `checked_key` to look up."""
    try:
        return line_step(raw, first=number == 1, keys=keys)
    except KeyScriptError as error:
        return StepError(f"line {number}: {error}")


@dataclass(frozen=True)
class _Read:
    """A live line's step as the reader thread leaves it: its key name not yet looked up."""

    step: Step
    number: int


def checked_key(read: _Read) -> Step | StepError:
    """A live step with its key name looked up (pygame: on the loop's thread)."""
    step = read.step
    if step.pad is None and step.text is None:
        try:
            key_code(step)
        except KeyScriptError as error:
            return StepError(f"line {read.number}: {error}")
    return step


def _describe(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _check_file(path: str, info: os.stat_result) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise KeyScriptError(f"key script {path}: {_describe(info.st_mode)}, not a file; "
                             "use a text file, or - for standard input")
    if info.st_size > MAX_SCRIPT_BYTES:
        raise KeyScriptError(f"key script {path}: too large ({info.st_size} bytes; "
                             f"at most {MAX_SCRIPT_BYTES} bytes, 1 MiB)")


def read_script(path: str) -> list[Step]:
    """The steps of a key script file, read line by line within the limits above;
    KeyScriptError naming the file (and line) if it can't be used."""
    try:
        _check_file(path, os.stat(path))  # before opening: opening a pipe would wait
        with open(path, "rb") as stream:
            _check_file(path, os.fstat(stream.fileno()))  # the file opened is the one checked
            steps: list[Step] = []
            total = number = 0
            while raw := read_line(stream):
                number += 1
                total += len(raw)
                if total > MAX_SCRIPT_BYTES:
                    raise KeyScriptError(f"key script {path}: grew past {MAX_SCRIPT_BYTES} "
                                         "bytes while being read")
                try:
                    step = line_step(raw, first=number == 1)
                except KeyScriptError as error:
                    raise KeyScriptError(f"key script {path}, line {number}: {error}") from None
                if step is not None:
                    steps.append(step)
            return steps
    except OSError as error:
        raise KeyScriptError(f"key script {path}: can't be read ({error.strerror or error})"
                             ) from None


class LineReader:
    """Lines of at most `size` bytes from a `read(n)` that returns what is there (os.read on a
    pipe, or a stream's read1): never more than one chunk and one line held at a time."""

    CHUNK = 65536

    def __init__(self, read: Callable[[int], bytes]) -> None:
        self._read = read
        self._buffer = bytearray()
        self._ended = False

    def readline(self, size: int) -> bytes:
        """Up to and including the next newline, cut at `size` bytes; b"" at the end."""
        searched = 0
        while True:
            found = self._buffer.find(b"\n", searched, size)
            if found >= 0 or len(self._buffer) >= size or self._ended:
                end = found + 1 if found >= 0 else min(size, len(self._buffer))
                line = bytes(self._buffer[:end])
                del self._buffer[:end]
                return line
            searched = len(self._buffer)
            chunk = self._read(self.CHUNK)
            if chunk:
                self._buffer += chunk
            else:
                self._ended = True


class KeySource:
    """Steps from a file (all read up front) or from standard input (read by a thread)."""

    def __init__(self, steps: list[Step] | None = None, live: bool = False) -> None:
        given = list(steps or [])
        size = max(LIVE_QUEUE, len(given) + 1) if live else 0  # a file's queue is unbounded
        self._steps: queue.Queue[Step | _Read | StepError | None] = queue.Queue(size)
        for step in given:
            self._steps.put(step)
        self.live = live
        self.finished = not live  # a file's steps are all queued already
        self._copies = 0
        self._woken: Callable[[], None] = lambda: None
        if not live:
            self._steps.put(None)

    @classmethod
    def from_file(cls, path: str) -> KeySource:
        return cls(read_script(path))

    @classmethod
    def from_stdin(cls, stream: BinaryIO | None = None,
                   woken: Callable[[], None] | None = None) -> KeySource:
        """Steps read live from standard input (or `stream`), in binary, line by line;
        `woken` is called (on the reader's thread) after each, so the loop need not poll.

        Standard input is read from its file descriptor, not through `sys.stdin`: a thread
        blocked inside `sys.stdin.buffer` holds its lock, and the interpreter aborts at exit
        ("could not acquire lock") when the game ends (Alt+F4, Quit) with input still open."""
        if stream is not None:
            read: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
        else:
            try:
                fd = sys.stdin.fileno()
            except (AttributeError, OSError, ValueError):  # no stdin (a windowed program)
                raise KeyScriptError("key script: standard input can't be read") from None
            read = functools.partial(os.read, fd)
        source = cls(live=True)
        if woken is not None:
            source.wake_with(woken)
        thread = threading.Thread(target=source._read_live, args=(LineReader(read),),
                                  name="keys-stdin", daemon=True)
        thread.start()
        return source

    def _read_live(self, reader: LineReader) -> None:
        number = 0
        try:
            while raw := reader.readline(LINE_BYTES):
                number += 1
                step = live_step(raw, number, keys=False)
                if isinstance(step, StepError):
                    self._report(step)
                    while raw and not raw.endswith(b"\n"):  # the rest of a line too long
                        raw = reader.readline(LINE_BYTES)
                if step is not None:
                    self.put(_Read(step, number) if isinstance(step, Step) else step)
        except (OSError, ValueError) as error:  # a broken or closed stream ends the input
            self.put(StepError(f"line {number + 1}: standard input failed ({error})"))
        finally:
            self.put(None)

    def wake_with(self, woken: Callable[[], None]) -> None:
        """Call `woken` (from the thread that puts it) after each step put from now on."""
        self._woken = woken

    def put(self, step: Step | _Read | StepError | None) -> None:
        """A live step as the reader gives it (None: the input ended), and the loop woken."""
        self._steps.put(step)
        self._woken()

    def _report(self, error: StepError) -> None:
        """A copy for a person watching stderr; the transcript line is the contract."""
        self._copies += 1
        if self._copies > STDERR_COPIES:
            return
        more = "; more errors go to the transcript only" if self._copies == STDERR_COPIES else ""
        with contextlib.suppress(OSError, ValueError, AttributeError):  # no stderr, or closed
            print(f"sudden_death: key script (standard input), {error.text}{more}",
                  file=sys.stderr, flush=True)

    def next(self, timeout: float | None) -> Step | StepError | bool | None:
        """The next step; None at the end of input; False if none arrived within `timeout`;
        a StepError for a live line that could not be used."""
        try:
            if timeout is None or timeout <= 0:
                found = self._steps.get_nowait()
            else:
                found = self._steps.get(timeout=timeout)
        except queue.Empty:
            return False
        if isinstance(found, _Read):
            found = checked_key(found)
            if isinstance(found, StepError):
                self._report(found)
        return found

    def empty(self) -> bool:
        return self._steps.empty()
