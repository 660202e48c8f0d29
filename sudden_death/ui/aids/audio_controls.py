"""Settings applied to whatever speaker and cue player the game has (real, recording or silent).

Kept apart from `Comfort` so the settings menu can read the voices and ranges without knowing
anything else about the app. Every speaker and cue player takes every setting (the protocols
in audio/protocols.py); only the choice of output needs the `SpeechOutput` in front of them.
"""

from __future__ import annotations

from ...audio.protocols import CuePlayer, Speaker, Voice
from ...audio.speech_output import BUILTIN, OutputNews, ReaderNews, SpeechOutput
from ...audio.synth import ESPEAK, engine_label
from ...engine.field import GOAL_LINE
from ...engine.state import GameState
from ...language import N_, _, active
from ...storage.settings import Settings

# The choices as spoken after "Speech output: " (N_: translated where spoken).
OUTPUT_WORDS = {
    "builtin": N_("built-in voice"),
    "screen_reader": N_("screen reader"),
    "both": N_("both, the built-in voice and the screen reader"),
    "braille": N_("braille only, every line on your braille display and none spoken"),
}


class AudioControls:
    """Applies settings to the speaker and the cues the game was started with."""

    def __init__(self, speaker: Speaker, cues: CuePlayer) -> None:
        self.speaker = speaker
        self.cues = cues
        # The screen reader is reached through the SpeechOutput the game speaks through; a
        # plain speaker (a test's) has the built-in voice only.
        self.output = speaker if isinstance(speaker, SpeechOutput) else None
        self.voice = ""  # the voice id last asked for ("" for the engine's default)
        self.crowd = 0.0  # the crowd setting; heard only while a game is being played
        self._crowd_heard: tuple[float, bool] | None = None  # (level, tense) last set

    def apply(self, settings: Settings) -> None:
        """Apply `settings`. A screen reader asked for answers later: `news` says how."""
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
        self.cues.set_mono(settings.mono)
        self.crowd = settings.crowd_volume
        self._crowd_heard = None  # set again at the next follow(), at the new level
        if self.output is not None:
            self.output.set_output(settings.speech_output)  # asks only when it changes

    def follow(self, state: GameState | None) -> None:
        """Every loop turn: the crowd under a game being played, leaning in at its tense
        moments (third and fourth down, near either goal line), and silent outside one (the
        title screen, a game over). Told the cue player only when it changes."""
        playing = state is not None and state.outcome is None
        heard = (self.crowd if playing else 0.0, playing and state is not None and tense(state))
        if heard != self._crowd_heard:
            self._crowd_heard = heard
            self.cues.set_crowd(heard[0])
            self.cues.set_tension(heard[1])
        self.cues.tick()

    def news(self, confirm: bool = False) -> list[str]:
        """What the player must hear about the screen reader since the last call, once each:
        that it refused or fell silent; that braille is off; and, when `confirm` (the player
        just chose it), that it answered."""
        if self.output is None:
            return []
        return [words for news in self.output.poll() for words in self.news_words(news, confirm)]

    def news_words(self, news: OutputNews, confirm: bool = False) -> list[str]:
        if news.news is ReaderNews.CONNECTED:
            answered = [self.output_words(self.output.choice)] if confirm and self.output else []
            return [*answered, *([news.braille] if news.braille else [])]
        if news.news is ReaderNews.SILENT:
            return [_("The screen reader does not answer, so the built-in voice goes on.")]
        if news.news is ReaderNews.NO_BRAILLE:
            # Translators: {reason} is a clause such as "no braille display answers through
            # BRLTTY"; the player chose braille only.
            return [_("Braille only needs a braille display: {reason}. The built-in voice "
                      "goes on.").format(reason=news.reason)]
        if news.news is ReaderNews.LOST:
            return [_("The screen reader stopped answering. The built-in voice goes on.")]
        if news.reason:
            # Translators: {reason} is a clause such as "no screen reader is running".
            return [_("No screen reader answered: {reason}. The built-in voice goes on."
                      ).format(reason=news.reason)]
        return [_("No screen reader answered. The built-in voice goes on.")]

    def output_words(self, chosen: str) -> str:
        """The speech output setting as said: the choice, and what speaks now when that is
        not it (still connecting, or no screen reader answered)."""
        words = OUTPUT_WORDS.get(chosen)
        output = _(words) if words is not None else chosen
        in_use, reader = self.output_in_use(), self.reader_name()
        if chosen != BUILTIN and self.output is not None and self.output.connecting:
            # Translators: {output} is the chosen output, as "screen reader"; the game is
            # still waiting for it to answer (the built-in voice speaks meanwhile).
            return _("Speech output: {output}, connecting").format(output=output)
        if chosen != BUILTIN and in_use == BUILTIN:
            # Translators: {output} is the chosen output, as "screen reader"; no screen reader
            # answered, so the game's own voice speaks instead.
            return _("Speech output: {output}, not answering, so the built-in voice "
                     "speaks").format(output=output)
        if reader and in_use != BUILTIN:
            # Translators: {output} is the chosen output, as "screen reader"; {reader} is the
            # screen reader's name, as "NVDA".
            return _("Speech output: {output}, {reader}").format(output=output, reader=reader)
        # Translators: {output} is "built-in voice", "screen reader" or "both, the built-in
        # voice and the screen reader".
        return _("Speech output: {output}").format(output=output)

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


TENSE_DOWN = 3  # third and fourth down
NEAR_GOAL = 10  # yards from either goal line: a score or a safety is close


def tense(state: GameState) -> bool:
    """A moment the crowd leans in for: third or fourth down, or the ball near a goal line."""
    down = state.down
    if down is None:
        return False
    return (down.number >= TENSE_DOWN or down.line >= GOAL_LINE - NEAR_GOAL
            or down.line <= NEAR_GOAL)
