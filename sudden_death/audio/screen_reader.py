"""The player's own screen reader as a place to send the game's words: what the speech output
needs of one, and how one is found on this system.

Linux: speech-dispatcher (the speech server Orca uses), with braille through BrlAPI where BRLTTY
runs. Windows: NVDA, JAWS and the other screen readers Prism (prismatoid) knows, speech and braille.
macOS: VoiceOver through Prism, on Apple silicon (where prismatoid has wheels).
"""

from __future__ import annotations

import sys

from .prism_output import PrismReader
from .reader_base import NoScreenReader, ScreenReader
from .speech_dispatcher import SpeechDispatcher

__all__ = ["NoScreenReader", "ScreenReader", "find_screen_reader"]


def find_screen_reader() -> ScreenReader:
    """The screen reader running here, connected; `NoScreenReader` naming why not."""
    if sys.platform.startswith("linux"):
        return SpeechDispatcher.connect()
    return PrismReader.find()
