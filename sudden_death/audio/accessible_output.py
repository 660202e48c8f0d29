"""Windows and macOS: the game's words through the running screen reader (NVDA, JAWS, Dolphin,
System Access, ZDSR, PC-Talker, VoiceOver where supported), by accessible_output2.

Only real screen readers count: accessible_output2 would fall back to SAPI or another system
voice, which is not what a player who asked for their screen reader wants; the game's own voice
is the fallback. Screen readers do not say when a message has been spoken, so a result counts as
still being said for the time it would take at a brisk screen-reader rate.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import sys
import time
from typing import Any

from ..language import N_, _
from .reader_base import NoScreenReader

LOG = logging.getLogger(__name__)

# Translators: follows "No screen reader answered: " (lower case, no full stop);
# accessible_output2 is the name of a program library, keep it as it is.
MISSING = N_("accessible_output2 is not installed, so the game cannot reach a screen reader")
# Translators: follows "No screen reader answered: " (lower case, no full stop).
NONE_RUNNING = N_("no screen reader is running")
BRISK_WORDS_PER_SECOND = 300 / 60  # screen-reader users commonly listen this fast or faster


class AccessibleOutput:
    """One running screen reader, as accessible_output2 reaches it."""

    def __init__(self, output: Any) -> None:
        self._output = output
        self._own_name = str(output.name) if hasattr(output, "name") else None
        self.braille_notice: str | None = None
        self._alert_until = 0.0

    @property
    def name(self) -> str:
        """The screen reader's own name ("NVDA"), or a generic one if it gives none."""
        if self._own_name is None:
            # Translators: stands for a screen reader that does not give its own name (they
            # are named "NVDA", "JAWS" and so on).
            return _("screen reader")
        return self._own_name

    @classmethod
    def find(cls, outputs: Any = None) -> AccessibleOutput:
        """The first screen reader that is running (accessible_output2's own order), or
        `NoScreenReader`. `outputs` is accessible_output2's module of outputs (tests give a
        fake); by default it is imported here, since only Windows and macOS have it."""
        if outputs is None:
            _join_com()
            try:
                import accessible_output2.outputs.auto as auto
            except Exception:  # ImportError, or its DLL loader failing on this system
                raise NoScreenReader(_(MISSING)) from None
            outputs = auto
        try:
            candidates = list(outputs.Auto().outputs)
        except Exception as error:
            LOG.warning("the screen readers could not be asked: %s", error)
            # Translators: follows "No screen reader answered: ".
            raise NoScreenReader(_("the screen readers could not be asked")) from None
        for output in candidates:
            if getattr(output, "system_output", False):
                continue  # SAPI and other system voices: not the player's screen reader
            try:
                active = bool(output.is_active())
            except Exception:
                active = False
            if active:
                return cls(output)
        raise NoScreenReader(_(NONE_RUNNING))

    def speak(self, text: str, *, interrupt: bool, alert: bool) -> None:
        self._output.speak(text, interrupt=interrupt)
        now = time.monotonic()
        if alert:
            self._alert_until = now + len(text.split()) / BRISK_WORDS_PER_SECOND
        elif interrupt:
            self._alert_until = 0.0

    def braille(self, text: str) -> None:
        braille = getattr(self._output, "braille", None)
        if callable(braille):
            braille(text)

    def cancel(self) -> None:
        silence = getattr(self._output, "silence", None)
        if callable(silence):
            silence()
        self._alert_until = 0.0

    def alert_speaking(self) -> bool:
        return time.monotonic() < self._alert_until

    def close(self) -> None:
        self._output = _Closed()


def _join_com() -> None:
    """accessible_output2 reaches JAWS and others as COM objects, which a thread may use only
    after joining COM; the reader's calls all come from its own thread (audio/reader_link.py),
    not the game's, so that thread joins here."""
    if sys.platform != "win32":
        return
    with contextlib.suppress(Exception):  # without COM, the outputs that need it are off
        ctypes.windll.ole32.CoInitialize(None)


class _Closed:
    """What a closed screen reader connection does: nothing."""

    def speak(self, text: str, **options: object) -> None:
        del text, options
