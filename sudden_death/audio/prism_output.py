"""Windows and macOS: the game's words through the running screen reader (NVDA, JAWS, ZDSR,
ZoomText, PC-Talker, Sense Reader, Boy PC Reader, VoiceOver...), by Prism (`prismatoid`).

Prism is maintained and ships one library for every reader, where accessible_output2 (its
predecessor here) last released in 2022. Its registry lists backends best first, screen readers
before system voices; only screen readers count here, since a player who asked for their screen
reader does not want SAPI or another system voice, and the game's own voice is the fallback.
UI Automation notifications are left out too: they are accepted whether or not a reader listens.
Screen readers do not say when a message has been spoken, so a result counts as still being said
for the time it would take at a brisk screen-reader rate.
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
# prismatoid is the name of a program library, keep it as it is.
MISSING = N_("the screen-reader library (prismatoid) is not available on this computer")
# Translators: follows "No screen reader answered: " (lower case, no full stop).
NONE_RUNNING = N_("no screen reader is running")
BRISK_WORDS_PER_SECOND = 300 / 60  # screen-reader users commonly listen this fast or faster
# Prism's backends that are not the player's screen reader (names in prism.BackendId).
NOT_READERS = ("SAPI", "ONE_CORE", "AV_SPEECH", "SPEECH_DISPATCHER", "ANDROID_TTS",
               "WEB_SPEECH", "UIA")


class PrismReader:
    """One running screen reader, as Prism reaches it."""

    def __init__(self, context: Any, backend: Any) -> None:
        self._context = context  # the backend lives as long as its context
        self._backend = backend
        self._name = _backend_name(backend)
        self._braille = _feature(backend, "supports_braille")
        self._stop = _feature(backend, "supports_stop")
        # Translators: said alone, when the screen reader speaks the game's words but shows
        # none of them in braille.
        self.braille_notice: str | None = None if self._braille else _(
            "this screen reader takes no braille from the game")
        self._alert_until = 0.0

    @property
    def name(self) -> str:
        """The screen reader's own name ("NVDA"), or a generic one if it gives none."""
        if self._name is None:
            # Translators: stands for a screen reader that does not give its own name (they
            # are named "NVDA", "JAWS" and so on).
            return _("screen reader")
        return self._name

    @classmethod
    def find(cls, prism: Any = None) -> PrismReader:
        """The first screen reader that is running (Prism's own order, best first), or
        `NoScreenReader`. `prism` is the prismatoid module (tests give a fake); by default it
        is imported here, since only Windows and Apple silicon have wheels of it."""
        if prism is None:
            _join_com()
            try:
                import prism as imported
            except Exception:  # ImportError, or its DLL failing to load on this system
                raise NoScreenReader(_(MISSING)) from None
            prism = imported
        try:
            context = prism.Context()
            ids = [context.id_of(index) for index in range(context.backends_count)]
        except Exception as error:
            LOG.warning("the screen readers could not be asked: %s", error)
            # Translators: follows "No screen reader answered: ".
            raise NoScreenReader(_("the screen readers could not be asked")) from None
        skipped = {getattr(prism.BackendId, name) for name in NOT_READERS
                   if hasattr(prism.BackendId, name)}
        for backend_id in ids:
            if backend_id in skipped:
                continue
            try:  # creating one initializes it, which fails when its reader is not running
                backend = context.create(backend_id)
                running = _feature(backend, "is_supported_at_runtime")
            except Exception as error:
                LOG.debug("screen reader %s did not answer: %s", backend_id, error)
                continue
            if running:
                return cls(context, backend)
        raise NoScreenReader(_(NONE_RUNNING))

    def speak(self, text: str, *, interrupt: bool, alert: bool) -> None:
        if text.strip():  # Prism refuses empty text
            self._backend.speak(text, interrupt=interrupt)
        now = time.monotonic()
        if alert:
            self._alert_until = now + len(text.split()) / BRISK_WORDS_PER_SECOND
        elif interrupt:
            self._alert_until = 0.0

    def braille(self, text: str) -> None:
        if self._braille and text.strip():
            self._backend.braille(text)

    def cancel(self) -> None:
        if self._stop:
            with contextlib.suppress(Exception):  # "not speaking" is an error to Prism
                self._backend.stop()
        self._alert_until = 0.0

    def alert_speaking(self) -> bool:
        return time.monotonic() < self._alert_until

    def close(self) -> None:
        self._backend = _Closed()
        self._braille = self._stop = False


def _backend_name(backend: Any) -> str | None:
    try:
        name = str(backend.name).strip()
    except Exception:
        return None
    return name or None


def _feature(backend: Any, flag: str) -> bool:
    return bool(getattr(backend.features, flag, False))


def _join_com() -> None:
    """Prism reaches JAWS and others as COM objects, which a thread may use only after joining
    COM; the reader's calls all come from its own thread (audio/reader_link.py), not the game's,
    so that thread joins here."""
    if sys.platform != "win32":
        return
    with contextlib.suppress(Exception):  # without COM, the readers that need it are off
        ctypes.windll.ole32.CoInitialize(None)  # type: ignore[attr-defined,unused-ignore]


class _Closed:
    """What a closed screen reader connection does: nothing."""

    def speak(self, text: str, **options: object) -> None:
        del text, options

    def braille(self, text: str) -> None:
        del text

    def stop(self) -> None:
        pass
