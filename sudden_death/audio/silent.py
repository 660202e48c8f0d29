"""Speech and cue players that make no sound but still tell listeners everything, so the window,
history and transcript work when sound is off or no device/engine exists."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .protocols import CUE_NAMES, Category, Message, Priority, Voice
from .synth import ESPEAK, ESPEAK_RATE_RANGE, engine_label


class SilentSpeaker:
    """Speaker for --no-sound runs and for when speech cannot work (`notice` says why). It
    takes every voice setting and, having no voice, keeps none."""

    rate_range = ESPEAK_RATE_RANGE  # the game's own voice's, as settings step it

    def __init__(self, notice: str | None = None) -> None:
        self.notice = notice
        self._listeners: list[Callable[[Message], None]] = []

    def say(
        self,
        text: str,
        *,
        interrupt: bool = True,
        priority: Priority = Priority.INFO,
        category: Category = Category.INFO,
        on_start: Callable[[], None] | None = None,
    ) -> None:
        if on_start is not None:  # nothing to wait for: the sounds open the line at once
            on_start()
        message = Message(text, priority, category)
        for listener in list(self._listeners):
            listener(message)

    def silence(self) -> None:
        pass

    def add_listener(self, listener: Callable[[Message], None]) -> None:
        self._listeners.append(listener)

    def close(self) -> None:
        self._listeners.clear()

    def set_rate(self, words_per_minute: int) -> None:
        pass

    def set_voice(self, voice_id: str) -> None:
        pass

    def set_volume(self, volume: float) -> None:
        pass

    def set_engine(self, name: str) -> None:
        pass

    def engine_choices(self) -> list[tuple[str, str]]:
        return [(ESPEAK, engine_label(ESPEAK))]

    def voices(self) -> list[Voice]:
        return []


class SilentCues:
    """CuePlayer that only informs listeners (unknown names are ignored, as with sound)."""

    def __init__(self, notice: str | None = None) -> None:
        self.notice = notice
        self._listeners: list[Callable[[str], None]] = []

    def play(self, name: str) -> None:
        if name in CUE_NAMES:  # unknown names are ignored, never raised
            self._emit(name)

    def play_dice(self, dice: Sequence[int], then: str | None = None) -> None:
        self._emit("dice")
        if then is not None:
            self.play(then)

    def play_tone(self, wav: bytes, name: str = "tone") -> None:
        self._emit(name)

    def set_volume(self, volume: float) -> None:
        pass

    def set_crowd(self, level: float) -> None:
        pass  # no sound: no crowd

    def set_tension(self, on: bool) -> None:
        pass

    def set_mono(self, on: bool) -> None:
        pass

    def tick(self) -> None:
        pass

    def add_listener(self, listener: Callable[[str], None]) -> None:
        self._listeners.append(listener)

    def close(self) -> None:
        self._listeners.clear()

    def _emit(self, name: str) -> None:
        for listener in list(self._listeners):
            listener(name)
