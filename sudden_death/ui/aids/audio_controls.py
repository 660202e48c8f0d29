"""Settings applied to whatever speaker and cue player the game has (real, recording or silent).

Kept apart from `Comfort` so the settings menu can read the voices and ranges without knowing
anything else about the app. Every speaker and cue player takes every setting (the protocols
in audio/protocols.py); only the choice of output needs the `SpeechOutput` in front of them.
"""

from __future__ import annotations

from ...audio.protocols import CuePlayer, Speaker, Voice
from ...audio.speech_output import BUILTIN, SpeechOutput
from ...audio.synth import ESPEAK, engine_label
from ...language import active
from ...settings import Settings


class AudioControls:
    """Applies settings to the speaker and the cues the game was started with."""

    def __init__(self, speaker: Speaker, cues: CuePlayer) -> None:
        self.speaker = speaker
        self.cues = cues
        # The screen reader is reached through the SpeechOutput the game speaks through; a
        # plain speaker (a test's) has the built-in voice only.
        self.output = speaker if isinstance(speaker, SpeechOutput) else None
        self.voice = ""  # the voice id last asked for ("" for the engine's default)

    def apply(self, settings: Settings) -> str | None:
        """Apply `settings`; returns what the player must be told, if anything (no screen
        reader answered, or braille is off)."""
        self.speaker.set_engine(settings.speech_engine)  # first: the rest is its own
        self.speaker.set_rate(settings.speech_rate)
        # The player's voice, else the language's own; "" asks for the engine's default again
        # (only needed once another voice has been set).
        voice = settings.voice or active().voice
        if voice or self.voice:
            self.speaker.set_voice(voice)
        self.voice = voice
        self.speaker.set_volume(settings.speech_volume)
        self.cues.set_volume(settings.cue_volume)
        if self.output is None:
            return None
        return self.output.set_output(settings.speech_output)  # asks only when it changes

    def output_in_use(self) -> str:
        """Where the words go now: "builtin", "screen_reader" or "both"."""
        return BUILTIN if self.output is None else self.output.output

    def reader_name(self) -> str | None:
        return None if self.output is None else self.output.reader_name

    def voices(self) -> list[Voice]:
        try:
            return list(self.speaker.voices())
        except Exception:  # a voice list is a nicety; never let it break the menu
            return []

    def engine_choices(self) -> list[tuple[str, str]]:
        """(name, label) of the speech engines offered here (just the game's own, by default)."""
        try:
            found = list(self.speaker.engine_choices())
        except Exception:  # as the voice list: the game's own engine is always there
            found = []
        return found or [(ESPEAK, engine_label(ESPEAK))]

    def rate_range(self) -> tuple[int, int]:
        return self.speaker.rate_range
