"""A virtual game controller for key scripts (`pad ...` steps): SDL's own virtual joystick,
attached through ctypes on the very SDL library pygame loaded.

SDL treats it as a real pad: it appears through the GameController layer with its name, its
buttons and stick arrive as SDL's controller events, and a rumble the game asks for reaches
its Rumble callback, which the transcript records. So a scripted game on a pad runs the whole
road a player's pad does, from SDL's joystick update to the key map, which posting pygame
events would skip.

Steps (`pad` then): `connect [NAME]`, `disconnect`, a button (`a`, `b`, `x`, `y`, `back`,
`guide`, `start`, `left_stick`, `right_stick`, `left_shoulder`, `right_shoulder`, `dpad_up`,
`dpad_down`, `dpad_left`, `dpad_right`), or `stick up|down|left|right` (the left stick pushed
all the way). A button or the stick is pressed and let go again, each seen by SDL as a change;
the key script's `hold pad ... SECONDS` leaves it down that long (`PadDriver.let_go` after),
so a held D-pad or stick repeats as a player's would.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable
from pathlib import Path

import pygame

from ..keys.keymap import Pad

JOYSTICK_TYPE_GAMECONTROLLER = 1  # SDL_JOYSTICK_TYPE_GAMECONTROLLER
DESC_VERSION = 1  # SDL_VIRTUAL_JOYSTICK_DESC_VERSION
AXES = 6  # left x, y; right x, y; the two triggers
BUTTONS = 15  # SDL_CONTROLLER_BUTTON_A .. DPAD_RIGHT
AXIS_MAX = 32767
DEFAULT_NAME = "Sudden Death Virtual Pad"
STICK_AXES = {"left": (0, -AXIS_MAX), "right": (0, AXIS_MAX), "up": (1, -AXIS_MAX),
              "down": (1, AXIS_MAX)}
TRIGGER_AXES = (4, 5)  # at rest at the bottom of their range, as a real pad's are

RUMBLE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_uint16, ctypes.c_uint16)


class VirtualDesc(ctypes.Structure):
    """SDL_VirtualJoystickDesc (SDL 2.24 and later)."""

    _fields_ = [
        ("version", ctypes.c_uint16), ("type", ctypes.c_uint16), ("naxes", ctypes.c_uint16),
        ("nbuttons", ctypes.c_uint16), ("nhats", ctypes.c_uint16),
        ("vendor_id", ctypes.c_uint16), ("product_id", ctypes.c_uint16),
        ("padding", ctypes.c_uint16), ("button_mask", ctypes.c_uint32),
        ("axis_mask", ctypes.c_uint32), ("name", ctypes.c_char_p),
        ("userdata", ctypes.c_void_p), ("Update", ctypes.c_void_p),
        ("SetPlayerIndex", ctypes.c_void_p), ("Rumble", RUMBLE),
        ("RumbleTriggers", ctypes.c_void_p), ("SetLED", ctypes.c_void_p),
        ("SendEffect", ctypes.c_void_p),
    ]


class PadStepError(ValueError):
    """A pad step that can't be done: the message is one line for the transcript."""


def check_step(text: str) -> None:
    """PadStepError unless `text` (what follows `pad `) is a step this module can do."""
    words = text.split()
    if not words:
        raise PadStepError("a pad step needs a button, stick, connect or disconnect")
    head = words[0].lower()
    if head == "connect" or (head == "disconnect" and len(words) == 1):
        return
    if head == "stick" and len(words) == 2 and words[1].lower() in STICK_AXES:
        return
    if len(words) == 1 and head.upper() in Pad.__members__:
        return
    raise PadStepError(f"unknown pad step {text[:40]!r}")


def sdl_library() -> ctypes.CDLL:
    """The SDL 2 library pygame runs on: the same one, so its joysticks are pygame's."""
    if sys.platform.startswith("linux"):
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for row in maps:
                path = row.split()[-1]
                if "/libSDL2-2" in path or path.endswith("/libSDL2-2.0.so.0"):
                    return ctypes.CDLL(path)
    folder = Path(pygame.__file__).parent
    for candidate in (folder / "SDL2.dll", folder / "libSDL2-2.0.0.dylib"):
        if candidate.exists():
            return ctypes.CDLL(str(candidate))
    found = ctypes.util.find_library("SDL2")
    if found is None:
        raise PadStepError("pygame's SDL library was not found")
    return ctypes.CDLL(found)


class VirtualPad:
    """One attached virtual pad. `rumbled(low, high)` hears each rumble the game asks for, as
    SDL's 0-65535 motor strengths."""

    def __init__(self, sdl: ctypes.CDLL, name: str,
                 rumbled: Callable[[int, int], None]) -> None:
        self.sdl = sdl
        self._declare()
        self._name = name.encode("utf-8")[:100]
        self._rumbled = rumbled
        self._rumble = RUMBLE(self._on_rumble)  # kept: SDL holds only the pointer
        self._desc = VirtualDesc(version=DESC_VERSION, type=JOYSTICK_TYPE_GAMECONTROLLER,
                                 naxes=AXES, nbuttons=BUTTONS, nhats=0, name=self._name,
                                 Rumble=self._rumble)
        self.index = sdl.SDL_JoystickAttachVirtualEx(ctypes.byref(self._desc))
        if self.index < 0:
            raise PadStepError(f"SDL would not attach a virtual pad: {self._error()}")
        self.handle = sdl.SDL_JoystickOpen(self.index)
        if not self.handle:
            sdl.SDL_JoystickDetachVirtual(self.index)
            raise PadStepError(f"SDL would not open the virtual pad: {self._error()}")
        for axis in TRIGGER_AXES:
            sdl.SDL_JoystickSetVirtualAxis(self.handle, axis, -AXIS_MAX - 1)
        self.held: tuple[str, int] | None = None  # ("button", n) or ("axis", n)

    def _on_rumble(self, _data: object, low: int, high: int) -> int:
        try:
            self._rumbled(low, high)
        except Exception:  # a callback from C must not raise into SDL
            return -1
        return 0

    def _declare(self) -> None:
        sdl = self.sdl
        sdl.SDL_JoystickAttachVirtualEx.argtypes = [ctypes.POINTER(VirtualDesc)]
        sdl.SDL_JoystickAttachVirtualEx.restype = ctypes.c_int
        sdl.SDL_JoystickOpen.argtypes = [ctypes.c_int]
        sdl.SDL_JoystickOpen.restype = ctypes.c_void_p
        sdl.SDL_JoystickClose.argtypes = [ctypes.c_void_p]
        sdl.SDL_JoystickDetachVirtual.argtypes = [ctypes.c_int]
        sdl.SDL_JoystickSetVirtualButton.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                                     ctypes.c_uint8]
        sdl.SDL_JoystickSetVirtualAxis.argtypes = [ctypes.c_void_p, ctypes.c_int,
                                                   ctypes.c_int16]
        sdl.SDL_GetError.restype = ctypes.c_char_p

    def _error(self) -> str:
        error = self.sdl.SDL_GetError()
        return error.decode("utf-8", "replace") if error else "no reason given"

    def let_go(self) -> None:
        """Release what is held, and let SDL see it before anything else is pressed."""
        if self.held is None:
            return
        kind, number = self.held
        if kind == "button":
            self.sdl.SDL_JoystickSetVirtualButton(self.handle, number, 0)
        else:
            self.sdl.SDL_JoystickSetVirtualAxis(self.handle, number, 0)
        self.held = None
        pygame.event.pump()  # SDL reads the virtual pad's state here: the release is an event

    def press(self, button: Pad) -> None:
        self.let_go()
        self.sdl.SDL_JoystickSetVirtualButton(self.handle, button.value, 1)
        self.held = ("button", button.value)

    def push_stick(self, direction: str) -> None:
        self.let_go()
        axis, value = STICK_AXES[direction]
        self.sdl.SDL_JoystickSetVirtualAxis(self.handle, axis, value)
        self.held = ("axis", axis)

    def detach(self) -> None:
        self.let_go()
        self.sdl.SDL_JoystickClose(self.handle)
        self.sdl.SDL_JoystickDetachVirtual(self.index)


class PadDriver:
    """The key script's virtual pads: at most one plugged in at a time."""

    def __init__(self, rumbled: Callable[[int, int], None]) -> None:
        self.rumbled = rumbled
        self.pad: VirtualPad | None = None
        self._sdl: ctypes.CDLL | None = None

    def step(self, text: str, hold: bool = False) -> None:
        """Do one checked pad step; PadStepError when it can't be done now. A button or the
        stick is let go at once, unless `hold`: then it stays down until `let_go`."""
        words = text.split()
        head = words[0].lower()
        if head == "connect":
            if self.pad is not None:
                raise PadStepError("a virtual pad is connected already")
            if self._sdl is None:
                self._sdl = sdl_library()
            self.pad = VirtualPad(self._sdl, " ".join(words[1:]) or DEFAULT_NAME, self.rumbled)
            return
        if self.pad is None:
            raise PadStepError("no virtual pad is connected: `pad connect` first")
        if head == "disconnect":
            self.pad.detach()
            self.pad = None
        elif head == "stick":
            self.pad.push_stick(words[1].lower())
        else:
            self.pad.press(Pad[head.upper()])
        if not hold and self.pad is not None:
            pygame.event.pump()  # SDL sees it down before it comes up again
            self.pad.let_go()

    def let_go(self) -> None:
        """What a held step holds comes up (nothing, if the pad is gone)."""
        if self.pad is not None:
            self.pad.let_go()

    def close(self) -> None:
        if self.pad is not None:
            self.pad.detach()
            self.pad = None
