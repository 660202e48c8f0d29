"""Held keys repeat, as a screen reader's do: after a pause, at a steady rate.

Why here and not SDL's key repeat: SDL repeats every key (Enter and Escape too) and never a
controller's D-pad or stick, and the loop could not know when to wake for it. So the loop tells
the `Repeater` what was pressed and let go, asks `due(now)` for the presses to make again, and
sleeps until `next_due()`: nothing held, nothing due, and the loop sleeps as before.

Like a keyboard, one key repeats at a time: the last one pressed. The clock is the caller's
(`time.perf_counter` in the loop, a plain number in tests).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Held:
    """The key held down, with the modifiers it was pressed with, and when it next repeats."""

    key: int
    mod: int
    due: float


class Repeater:
    """The key that repeats while held: first `pause` seconds after its press, then every
    1 / `rate` seconds. A `rate` or `pause` of None (or a rate of 0) turns repeating off."""

    def __init__(self, pause: float | None = 0.4, rate: float | None = 10.0) -> None:
        self.held: Held | None = None
        self.pause = 0.0
        self.interval: float | None = None
        self.set_timing(pause, rate)

    def set_timing(self, pause: float | None, rate: float | None) -> None:
        """A new pause and rate (the player's setting); off lets go of the key held."""
        if pause is None or rate is None or rate <= 0:
            self.interval = None
            self.held = None
            return
        self.pause = max(0.0, pause)
        self.interval = 1.0 / rate

    @property
    def on(self) -> bool:
        return self.interval is not None

    def press(self, key: int, now: float, mod: int = 0) -> None:
        """`key` went down at `now` and may repeat: it is the one held from now on."""
        if self.interval is None:
            return
        self.held = Held(key, mod, now + self.pause)

    def release(self, key: int) -> None:
        """`key` came up: it stops repeating (another key's release changes nothing)."""
        if self.held is not None and self.held.key == key:
            self.held = None

    def stop(self) -> None:
        """Nothing repeats: another key was pressed, or the window lost the keyboard."""
        self.held = None

    def due(self, now: float) -> list[tuple[int, int]]:
        """The presses (key, mod) to make again at `now`: at most one per call, and the next
        one a whole interval later, so a late loop never makes a burst of them."""
        held = self.held
        if held is None or self.interval is None or now < held.due:
            return []
        self.held = Held(held.key, held.mod, now + self.interval)
        return [(held.key, held.mod)]

    def next_due(self) -> float | None:
        """When the next repeat is due (None: nothing is held): the loop sleeps until then."""
        return None if self.held is None else self.held.due
