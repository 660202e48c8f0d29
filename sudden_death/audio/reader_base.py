"""What the speech output needs of a screen reader, and the error for "none answered".

Apart from `screen_reader.py` so that each screen reader's module can name them without
importing the others.
"""

from __future__ import annotations

from typing import Protocol


class NoScreenReader(Exception):
    """No screen reader answered; the message says why, in words for the player."""


class ScreenReader(Protocol):
    """Speech and braille through the player's screen reader.

    `speak(..., alert=True)` marks a result: `alert_speaking()` is True until it has been said,
    so that a focus move does not cut it (the built-in voice's rule, kept here)."""

    @property
    def name(self) -> str:
        """For the player: "speech-dispatcher", "NVDA"."""

    braille_notice: str | None  # why braille is not shown, when speech works without it

    def speak(self, text: str, *, interrupt: bool, alert: bool) -> None: ...

    def braille(self, text: str) -> None: ...

    def cancel(self) -> None: ...

    def alert_speaking(self) -> bool: ...

    def close(self) -> None: ...
