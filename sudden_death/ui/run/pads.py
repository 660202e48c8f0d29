"""Game controllers, through SDL's GameController layer (pygame-ce's `_sdl2.controller`).

SDL maps every pad it knows onto one Xbox-like layout, so a button is the same number on any
pad; the key map holds buttons as keys of their own (`keymap.Pad`), and a press reaches the app
the way a key does, and a button let go (or the stick back) reaches it as a key let go, so a
held D-pad can repeat (repeat.py). The left stick is read as the D-pad: pushed past half way
it presses that direction, and it must come back under a quarter before it lets go. Plugging a pad
in or out is said with its name. A pad that can rumbles on a sack, a turnover and a score.

Nothing here waits: a pad that fails to open or to rumble is skipped, with a line in the log.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame
from pygame._sdl2 import controller

from ...language import _
from ..keys.keymap import PAD_BASE, Pad

LOG = logging.getLogger(__name__)

STICK_PRESS = 16384  # of 32767: half way
STICK_RELEASE = 8192  # a quarter: back near the middle
LEFT_X, LEFT_Y = 0, 1  # SDL's axis numbers for the left stick

# What shakes, how hard (low and high motors, 0 to 1) and how long (ms): a cue names the news.
RUMBLES: dict[str, tuple[float, float, int]] = {
    "sack": (0.6, 0.3, 250),
    "turnover": (1.0, 0.7, 450),
    "interception": (1.0, 0.7, 450),
    "fumble": (1.0, 0.7, 450),
    "turnover_won": (0.7, 0.9, 350),
    "touchdown": (0.8, 1.0, 600),
    "touchdown_theirs": (0.5, 0.3, 400),
    "field_goal_good": (0.5, 0.8, 300),
    "field_goal_theirs": (0.3, 0.3, 250),
    "safety": (0.8, 0.6, 400),
}


@dataclass
class Stick:
    """Which way the left stick presses now, per axis (0: none, -1 or 1)."""

    x: int = 0
    y: int = 0


def stick_direction(value: int, held: int) -> int:
    """The direction an axis presses at `value`, given the one it `held`: past half way
    presses, and only back under a quarter lets go (so a stick resting near half way does
    not flicker)."""
    if held and abs(value) >= STICK_RELEASE and (value > 0) == (held > 0):
        return held
    if value >= STICK_PRESS:
        return 1
    if value <= -STICK_PRESS:
        return -1
    return 0


STICK_BUTTONS = {(LEFT_X, -1): Pad.DPAD_LEFT, (LEFT_X, 1): Pad.DPAD_RIGHT,
                 (LEFT_Y, -1): Pad.DPAD_UP, (LEFT_Y, 1): Pad.DPAD_DOWN}


class Pads:
    """The pads plugged in, by SDL's instance id. `press(key)` is the app's key handler,
    `release(key)` hears it let go, `tell(words)` says a pad's arrival or leaving,
    `rumbles()` whether the setting is on."""

    def __init__(self, press: Callable[[int], None], tell: Callable[[str], None],
                 rumbles: Callable[[], bool],
                 release: Callable[[int], None] | None = None) -> None:
        self.press = press
        self.release: Callable[[int], None] = release or (lambda key: None)
        self.tell = tell
        self.rumbles = rumbles
        self.pads: dict[int, controller.Controller] = {}  # by SDL's instance id
        self.sticks: dict[int, Stick] = {}
        self.ready = False
        try:
            controller.init()
            self.ready = True
        except pygame.error as error:  # no joystick support in this SDL: keys only
            LOG.warning("game controllers can't be read: %s", error)

    EVENTS = (pygame.CONTROLLERDEVICEADDED, pygame.CONTROLLERDEVICEREMOVED,
              pygame.CONTROLLERBUTTONDOWN, pygame.CONTROLLERBUTTONUP,
              pygame.CONTROLLERAXISMOTION)

    def handle(self, event: Any) -> bool:
        """Take a controller's event; False for any other event."""
        if event.type not in self.EVENTS or not self.ready:
            return False
        if event.type == pygame.CONTROLLERDEVICEADDED:
            self._added(event.device_index)
        elif event.type == pygame.CONTROLLERDEVICEREMOVED:
            self._removed(event.instance_id)
        elif event.type == pygame.CONTROLLERBUTTONDOWN:
            if event.instance_id in self.pads:
                self.press(PAD_BASE + event.button)
        elif event.type == pygame.CONTROLLERBUTTONUP:
            if event.instance_id in self.pads:
                self.release(PAD_BASE + event.button)
        else:
            self._moved(event.instance_id, event.axis, event.value)
        return True

    def _added(self, index: int) -> None:
        try:
            pad = controller.Controller(index)
            instance = pad.as_joystick().get_instance_id()
            name = pad.name or _("a game controller")
        except (pygame.error, ValueError, TypeError) as error:
            LOG.warning("a game controller could not be opened: %s", error)
            return
        if instance in self.pads:  # SDL can tell of a pad twice at start
            return
        self.pads[instance] = pad
        self.sticks[instance] = Stick()
        LOG.info("controller connected: %s", name)
        # Translators: said when a game controller is plugged in; {name} is its name, as
        # "Xbox Wireless Controller".
        self.tell(_("Controller connected: {name}.").format(name=name))

    def _removed(self, instance: int) -> None:
        pad = self.pads.pop(instance, None)
        self.sticks.pop(instance, None)
        if pad is None:
            return
        for button in STICK_BUTTONS.values():  # a pad pulled out holds nothing down
            self.release(button.key)
        name = pad.name or _("a game controller")
        with contextlib.suppress(pygame.error):
            pad.quit()
        LOG.info("controller disconnected: %s", name)
        # Translators: said when a game controller is unplugged; {name} is its name.
        self.tell(_("Controller disconnected: {name}.").format(name=name))

    def _moved(self, instance: int, axis: int, value: int) -> None:
        stick = self.sticks.get(instance)
        if stick is None or axis not in (LEFT_X, LEFT_Y):
            return
        field = "x" if axis == LEFT_X else "y"
        held = getattr(stick, field)
        now = stick_direction(value, held)
        setattr(stick, field, now)
        if now == held:
            return
        if held:
            self.release(STICK_BUTTONS[(axis, held)].key)
        if now:
            self.press(STICK_BUTTONS[(axis, now)].key)

    def cue_heard(self, name: str) -> None:
        """A cue played: the news it names shakes every pad that can (the setting allowing)."""
        strength = RUMBLES.get(name)
        if strength is None or not self.pads or not self.rumbles():
            return
        low, high, milliseconds = strength
        for pad in self.pads.values():
            try:
                pad.rumble(low, high, milliseconds)  # False where the pad can't: nothing to do
            except pygame.error as error:
                LOG.warning("a controller would not rumble: %s", error)

    def close(self) -> None:
        for pad in self.pads.values():
            with contextlib.suppress(pygame.error):
                pad.quit()
        self.pads.clear()
        if self.ready:
            controller.quit()
            self.ready = False
