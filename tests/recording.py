"""Test doubles: silent speech and cue players that keep what they were asked to say and play,
and the settings applied to them, for fast UI tests (`--no-sound` uses the package's own
`audio/silent.py`, which keeps nothing).

They meet the same contract as the real ones (sudden_death/audio/protocols.py), listeners
included, so the window, history and transcript behave exactly as with sound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sudden_death.audio.protocols import CUE_NAMES, Category, Message, Priority, Voice
from sudden_death.audio.silent import SilentSpeaker


class RecordingSpeaker(SilentSpeaker):
    """A silent speaker that also keeps every message and the settings applied to it."""

    def __init__(self) -> None:
        super().__init__()
        self.spoken: list[Message] = []
        self.silenced = 0
        # Settings the front end applied (None until it does), so tests can assert them.
        self.rate: int | None = None
        self.voice: str | None = None
        self.volume: float | None = None
        self.rate_range: tuple[int, int] = (80, 450)
        self.engines: list[tuple[str, str]] = [("espeak", "eSpeak NG")]  # tests may add one
        self.engine = "espeak"

    def say(
        self,
        text: str,
        *,
        interrupt: bool = True,
        priority: Priority = Priority.INFO,
        category: Category = Category.INFO,
        on_start: Callable[[], None] | None = None,
    ) -> None:
        self.spoken.append(Message(text, priority, category))
        super().say(text, interrupt=interrupt, priority=priority, category=category,
                    on_start=on_start)

    def silence(self) -> None:
        self.silenced += 1

    def set_rate(self, words_per_minute: int) -> None:
        low, high = self.rate_range
        self.rate = max(low, min(high, int(words_per_minute)))

    def set_voice(self, voice_id: str) -> None:
        self.voice = voice_id

    def engine_choices(self) -> list[tuple[str, str]]:
        return list(self.engines)

    def set_engine(self, name: str) -> None:
        self.engine = name

    def set_volume(self, volume: float) -> None:
        self.volume = max(0.0, min(1.0, float(volume)))

    def voices(self) -> list[Voice]:
        return [Voice("fake/alto", "Alto"), Voice("fake/tenor", "Tenor")]


class RecordingCues:
    def __init__(self) -> None:
        self.notice: str | None = None
        self.played: list[str] = []
        self.tones: list[tuple[str, bytes]] = []  # (name, WAV) of each generated sound
        self.volume: float | None = None  # the cue volume the front end set, if any
        self.crowd = 0.0  # the stadium bed's level the front end set
        self.tension = False
        self.mono = False
        self._listeners: list[Callable[[str], None]] = []

    def play(self, name: str) -> None:
        if name not in CUE_NAMES:
            raise KeyError(f"no cue named {name!r}")
        self._emit(name)

    def play_dice(self, dice: Sequence[int], then: str | None = None) -> None:
        self._emit("dice")
        if then is not None:
            self.play(then)

    def play_tone(self, wav: bytes, name: str = "tone") -> None:
        self.tones.append((name, wav))
        self._emit(name)

    def set_volume(self, volume: float) -> None:
        self.volume = max(0.0, min(1.0, float(volume)))

    def set_crowd(self, level: float) -> None:
        self.crowd = max(0.0, min(1.0, float(level)))

    def set_tension(self, on: bool) -> None:
        self.tension = on

    def set_mono(self, on: bool) -> None:
        self.mono = on

    def tick(self) -> None:
        pass

    def add_listener(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def close(self) -> None:
        self._listeners.clear()

    def _emit(self, name: str) -> None:
        self.played.append(name)
        for listener in self._listeners:
            listener(name)
