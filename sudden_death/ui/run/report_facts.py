"""What only the loop knows for a problem report (`ui/files/reporting.py`): the speech and sound in
use, and the clipboard, which SDL keeps on the window's thread (the loop's)."""

from __future__ import annotations

import pygame

from ...audio.protocols import CuePlayer, Speaker
from ...audio.speech_output import SpeechOutput

# SDL's drivers with no real window: a clipboard "set" there goes nowhere a player can paste.
NO_CLIPBOARD_DRIVERS = frozenset({"dummy", "offscreen"})


def copy_to_clipboard(text: str) -> bool:
    """Put `text` on the system's clipboard; False where there is none (a headless run, a
    driver without one, an SDL error). SDL's call returns at once: it never waits on another
    program."""
    try:
        if pygame.display.get_driver() in NO_CLIPBOARD_DRIVERS:
            return False
        pygame.scrap.put_text(text)
    except pygame.error:
        return False
    return True


def sound_facts(output: SpeechOutput, cues: CuePlayer) -> list[tuple[str, str]]:
    """(what, which) of the speech and sound in use, asked when the report is written: the
    screen reader may have answered, or gone, since the start."""
    voice: Speaker = output.voice
    engine = getattr(voice, "engine", None)  # the speech worker's: None for a silent voice
    reader = output.reader_name or "none"
    try:
        mixer = pygame.mixer.get_driver() if pygame.mixer.get_init() else "not open"
    except pygame.error:
        mixer = "not open"
    return [("speech output", output.output), ("screen reader", reader),
            ("voice", type(voice).__name__), ("speech engine", str(engine or "none")),
            ("sound", type(cues).__name__), ("audio driver", mixer),
            ("video driver", pygame.display.get_driver())]
