"""Where the game's words go: the built-in voice, the player's screen reader, or both.

`SpeechOutput` is the `Speaker` the game talks to. Listeners (window text, history, the
transcript) hear every message once, whatever the output; the built-in voice keeps its own
settings (rate, voice, engine), reached through this object; the screen reader gets each
message as speech and on braille, under the same rule as the built-in voice: an interrupting
message cuts what is being said, except that a focus move never cuts a result.
"""

from __future__ import annotations

from collections.abc import Callable

from ..language import _
from .protocols import Category, Message, Priority, Speaker, Voice
from .reader_base import NoScreenReader, ScreenReader

BUILTIN, SCREEN_READER, BOTH = "builtin", "screen_reader", "both"
SPEECH_OUTPUTS = (BUILTIN, SCREEN_READER, BOTH)

ReaderFinder = Callable[[], ScreenReader]


class SpeechOutput:
    """A `Speaker` that sends each message to the built-in voice, the screen reader, or both."""

    def __init__(self, voice: Speaker, find_reader: ReaderFinder) -> None:
        self.voice = voice
        self._find_reader = find_reader
        self._reader: ScreenReader | None = None
        self._listeners: list[Callable[[Message], None]] = []
        self.output = BUILTIN  # what is used now (the saved choice may be unavailable)
        self.choice = BUILTIN  # what the player asked for
        self._muted = False
        # While the voice speaks, listeners hear each message when the voice reports it, in
        # the voice's own order with its cues; without it, this object tells them itself.
        voice.add_listener(self._tell)

    # -- choosing the output ---------------------------------------------------------------

    @property
    def reader_name(self) -> str | None:
        return None if self._reader is None else self._reader.name

    def set_output(self, choice: str) -> str | None:
        """Use `choice` from now on; returns what the player must be told, if anything: that
        no screen reader answered (the built-in voice then goes on), or that braille is off.
        The choice already in force is not asked for again, so a screen reader is looked for
        once per choice, not at every settings change."""
        if choice not in SPEECH_OUTPUTS:
            choice = BUILTIN
        if choice == self.choice:
            return None
        self.choice = choice
        if choice == BUILTIN:
            self.close_reader()
            self.output = BUILTIN
            return None
        if self._reader is None:
            try:
                self._reader = self._find_reader()
            except NoScreenReader as reason:
                self.output = BUILTIN
                # Translators: {reason} is a clause such as "no screen reader is running".
                return _("No screen reader answered: {reason}. The built-in voice goes on."
                         ).format(reason=reason)
            except Exception as error:  # a client library failing in a way nobody foresaw
                self.output = BUILTIN
                # Translators: {error} is the name of a programming error, such as OSError.
                return _("No screen reader answered ({error}). The built-in voice goes on."
                         ).format(error=type(error).__name__)
            self.output = choice
            return self._reader.braille_notice
        self.output = choice
        return None

    def close_reader(self) -> None:
        """Let go of the screen reader (braille back to the screen); the voice stays."""
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    # -- the Speaker protocol ---------------------------------------------------------------

    @property
    def notice(self) -> str | None:
        return self.voice.notice

    def say(
        self,
        text: str,
        *,
        interrupt: bool = True,
        priority: Priority = Priority.INFO,
        category: Category = Category.INFO,
        on_start: Callable[[], None] | None = None,
    ) -> None:
        reader = self._reader  # there is one exactly when the output is not the voice alone
        if self.output != SCREEN_READER:
            self.voice.say(text, interrupt=interrupt, priority=priority, category=category,
                           on_start=on_start)
        else:
            if on_start is not None:
                on_start()  # a screen reader does not say when it starts: the cue goes now
            self._tell(Message(text, priority, category))
        if reader is not None:
            self._to_reader(reader, text, interrupt, priority)

    def _tell(self, message: Message) -> None:
        if self._muted:
            return
        for listener in self._listeners:
            listener(message)

    def _to_reader(self, reader: ScreenReader, text: str, interrupt: bool,
                   priority: Priority) -> None:
        alert = priority >= Priority.ALERT
        cut = interrupt and (alert or not reader.alert_speaking())
        try:
            reader.speak(text, interrupt=cut, alert=alert)
            reader.braille(text)
        except Exception:  # the screen reader went away mid-game: the built-in voice goes on
            self.close_reader()
            self.output = BUILTIN
            self.say(_("The screen reader stopped answering. The built-in voice goes on."),
                     interrupt=False, priority=Priority.ALERT, category=Category.NOTICE)
            self._muted = True  # the listeners had these words already
            try:
                self.voice.say(text, interrupt=False, priority=priority)
            finally:
                self._muted = False

    def silence(self) -> None:
        self.voice.silence()
        if self._reader is not None:
            self._reader.cancel()

    def add_listener(self, listener: Callable[[Message], None]) -> None:
        self._listeners.append(listener)

    def close(self) -> None:
        self.close_reader()
        self.voice.close()

    # -- the built-in voice's settings: a screen reader keeps the player's own ---------------

    @property
    def rate_range(self) -> tuple[int, int]:
        return self.voice.rate_range

    def set_rate(self, words_per_minute: int) -> None:
        self.voice.set_rate(words_per_minute)

    def set_voice(self, voice_id: str) -> None:
        self.voice.set_voice(voice_id)

    def set_volume(self, volume: float) -> None:
        self.voice.set_volume(volume)

    def set_engine(self, name: str) -> None:
        self.voice.set_engine(name)

    def engine_choices(self) -> list[tuple[str, str]]:
        return self.voice.engine_choices()

    def voices(self) -> list[Voice]:
        return self.voice.voices()
