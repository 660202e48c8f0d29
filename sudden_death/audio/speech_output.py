"""Where the game's words go: the built-in voice, the player's screen reader, both, or the
braille display alone.

`SpeechOutput` is the `Speaker` the game talks to. Listeners (window text, history, the
transcript) hear every message once, whatever the output; the built-in voice keeps its own
settings (rate, voice, engine), reached through this object; the screen reader gets each
message as speech and on braille, under the same rule as the built-in voice: an interrupting
message cuts what is being said, except that a focus move never cuts a result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from .protocols import Category, Message, Priority, Speaker, Voice
from .reader_link import CALL_SECONDS, CONNECT_SECONDS, LinkState, ReaderFinder, ReaderLink

BUILTIN, SCREEN_READER, BOTH, BRAILLE = "builtin", "screen_reader", "both", "braille"
SPEECH_OUTPUTS = (BUILTIN, SCREEN_READER, BOTH, BRAILLE)


class ReaderNews(Enum):
    """What became of the screen reader the player asked for (`SpeechOutput.poll`)."""

    CONNECTED = "connected"  # it answered: the words go to it from now on
    REFUSED = "refused"  # none is there, or its client said no: `OutputNews.reason` says why
    SILENT = "silent"  # it accepted and never answered
    LOST = "lost"  # it was in use and stopped answering
    NO_BRAILLE = "no_braille"  # braille alone was asked for and no display answers: `reason`


@dataclass(frozen=True)
class OutputNews:
    news: ReaderNews
    reason: str = ""  # for REFUSED: plain words for the player (the library's own are logged)
    reader: str = ""  # for CONNECTED: its name ("speech-dispatcher", "NVDA")
    braille: str | None = None  # for CONNECTED: why braille is not shown, if it is not


class SpeechOutput:
    """A `Speaker` that sends each message to the built-in voice, the screen reader, or both.

    The screen reader is reached through a `ReaderLink`, on a thread of its own: choosing it
    never waits for it. Until it answers the built-in voice speaks, and `poll` (the game loop
    asks every frame) says once when it answers, refuses, or falls silent."""

    def __init__(self, voice: Speaker, find_reader: ReaderFinder,
                 connect_seconds: float = CONNECT_SECONDS,
                 call_seconds: float = CALL_SECONDS) -> None:
        self.voice = voice
        self._find_reader = find_reader
        self._times = (connect_seconds, call_seconds)
        self._link: ReaderLink | None = None
        self._listeners: list[Callable[[Message], None]] = []
        self.output = BUILTIN  # what is used now (the saved choice may be unavailable)
        self.choice = BUILTIN  # what the player asked for
        self.reader_name: str | None = None
        self._last_sent = ""  # the last words sent to the reader, said again if it is lost
        self._braille_notice: str | None = None  # the connected reader's: why no braille
        self._news: list[OutputNews] = []  # told by the next poll
        self._muted = False
        # While the voice speaks, listeners hear each message when the voice reports it, in
        # the voice's own order with its cues; without it, this object tells them itself.
        voice.add_listener(self._tell)

    # -- choosing the output ---------------------------------------------------------------

    @property
    def connecting(self) -> bool:
        """A screen reader was asked for and is not in use yet: it has not answered, or its
        answer has not been taken by `poll`."""
        return self._link is not None and self.output == BUILTIN

    @property
    def asking(self) -> bool:
        """The screen reader asked for has not answered at all yet."""
        return self._link is not None and self._link.state is LinkState.CONNECTING

    def set_output(self, choice: str) -> None:
        """Use `choice` from now on. A screen reader is looked for once per choice, off the
        game's loop; `poll` tells what came of it."""
        if choice not in SPEECH_OUTPUTS:
            choice = BUILTIN
        if choice == self.choice:
            return
        self.choice = choice
        if choice == BUILTIN:
            self.close_reader()
            self.output = BUILTIN
            return
        if self._link is None:
            self._link = ReaderLink(self._find_reader, *self._times)
        elif self._link.state is LinkState.READY:
            self.output = self._usable(choice)  # the same reader, with or without the voice

    def _usable(self, choice: str) -> str:
        """`choice`, or the built-in voice when it is braille alone and the reader has no
        braille display (the words must go somewhere): the next poll says why."""
        if choice == BRAILLE and self._braille_notice is not None:
            self._news.append(OutputNews(ReaderNews.NO_BRAILLE, reason=self._braille_notice))
            return BUILTIN
        return choice

    def poll(self) -> list[OutputNews]:
        """What became of the screen reader since the last call (at most one piece of news)."""
        if self._news:
            return [self._news.pop(0)]
        link = self._link
        news = None if link is None else link.poll()
        if link is None or news is None:
            return []
        if news.state is LinkState.READY and news.reader is not None:
            self.reader_name = news.reader.name
            self._braille_notice = news.reader.braille_notice
            if self.choice != BUILTIN:
                self.output = self._usable(self.choice)
            return [OutputNews(ReaderNews.CONNECTED, reader=self.reader_name,
                               braille=news.reader.braille_notice)]
        was_in_use = self.output != BUILTIN
        self._link, self.reader_name, self.output = None, None, BUILTIN
        if not was_in_use:
            if news.state is LinkState.SILENT:
                return [OutputNews(ReaderNews.SILENT)]
            return [OutputNews(ReaderNews.REFUSED, reason=news.reason)]
        if self._last_sent:  # the listeners had these words already: only the voice says them
            self._muted = True
            try:
                self.voice.say(self._last_sent, interrupt=False, priority=Priority.ALERT)
            finally:
                self._muted = False
        return [OutputNews(ReaderNews.LOST)]

    def wait_settled(self, timeout: float = 5.0) -> bool:
        """For tests and tools: wait (at most `timeout`) until the reader has answered and
        everything sent to it is sent; `poll` then has the news."""
        return self._link is None or self._link.wait_idle(timeout)

    def close_reader(self, drain_seconds: float = 0.0) -> None:
        """Let go of the screen reader (braille back to the screen); the voice stays. At exit,
        `drain_seconds` lets the last words reach it first."""
        if self._link is not None:
            self._link.close(drain_seconds)
            self._link = None
        self.reader_name = None

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
        link = self._link if self.output != BUILTIN else None
        if self.output not in (SCREEN_READER, BRAILLE):
            self.voice.say(text, interrupt=interrupt, priority=priority, category=category,
                           on_start=on_start)
        else:
            if on_start is not None:
                on_start()  # a screen reader does not say when it starts: the cue goes now
            self._tell(Message(text, priority, category))
        if link is not None and self.output == BRAILLE:
            link.braille(text)  # every line on the display, and none spoken
            self._last_sent = text
        elif link is not None:
            alert = priority >= Priority.ALERT
            cut = interrupt and (alert or not link.alert_speaking())
            link.speak(text, interrupt=cut, alert=alert)
            link.braille(text)
            self._last_sent = text

    def _tell(self, message: Message) -> None:
        if self._muted:
            return
        for listener in self._listeners:
            listener(message)

    def silence(self) -> None:
        self.voice.silence()
        if self._link is not None and self.output not in (BUILTIN, BRAILLE):
            self._link.cancel()

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
