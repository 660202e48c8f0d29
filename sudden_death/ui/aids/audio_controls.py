"""Settings applied to whatever speaker and cue player the game has (real, recording or silent).

Kept apart from `Comfort` so the settings menu can read the voices and ranges without knowing
anything else about the app.
"""

from __future__ import annotations

from typing import Any

from ...audio.protocols import Voice
from ...language import active
from ...settings import Settings

DEFAULT_RATE_RANGE = (80, 450)


class AudioControls:
    """Applies settings to whatever the speaker and cues support (real, recording or silent)."""

    def __init__(self, speaker: Any, cues: Any) -> None:
        self.speaker = speaker
        self.cues = cues
        self.applied: Settings | None = None
        self.voice = ""  # the voice id last asked for ("" for the engine's default)

    def apply(self, settings: Settings) -> str | None:
        """Apply `settings`; returns what the player must be told, if anything (no screen
        reader answered, or braille is off)."""
        _call(self.speaker, "set_engine", settings.speech_engine)  # first: the rest is its own
        _call(self.speaker, "set_rate", settings.speech_rate)
        # The player's voice, else the language's own; "" asks for the engine's default again
        # (only needed once another voice has been set).
        voice = settings.voice or active().voice
        if voice or self.voice:
            _call(self.speaker, "set_voice", voice)
        self.voice = voice
        _call(self.speaker, "set_volume", settings.speech_volume)
        _call(self.cues, "set_volume", settings.cue_volume)
        set_output = getattr(self.speaker, "set_output", None)  # asks only when it changes
        notice = set_output(settings.speech_output) if callable(set_output) else None
        self.applied = settings
        return notice

    def output_in_use(self) -> str:
        """Where the words go now: "builtin", "screen_reader" or "both"."""
        return str(getattr(self.speaker, "output", "builtin"))

    def reader_name(self) -> str | None:
        name = getattr(self.speaker, "reader_name", None)
        return name if isinstance(name, str) else None

    def voices(self) -> list[Voice]:
        getter = getattr(self.speaker, "voices", None)
        try:
            return list(getter()) if callable(getter) else []
        except Exception:  # a voice list is a nicety; never let it break the menu
            return []

    def engine_choices(self) -> list[tuple[str, str]]:
        """(name, label) of the speech engines offered here (just the game's own, by default)."""
        getter = getattr(self.speaker, "engine_choices", None)
        try:
            found = list(getter()) if callable(getter) else []
        except Exception:
            found = []
        return found or [("espeak", "eSpeak NG")]

    def rate_range(self) -> tuple[int, int]:
        found = getattr(self.speaker, "rate_range", None)
        if isinstance(found, tuple) and len(found) == 2:
            return int(found[0]), int(found[1])
        return DEFAULT_RATE_RANGE


def _call(target: Any, name: str, value: object) -> None:
    method = getattr(target, name, None)
    if callable(method):
        method(value)
