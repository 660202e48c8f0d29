"""A line is made and played a sentence at a time: the first plays before the last is made,
nothing is lost or reordered, and an interrupt drops the rest. A real SpeechService on a real
mixer channel (SDL's dummy driver), with a synthesizer whose parts can be held back."""

from __future__ import annotations

import threading
import time
from array import array
from collections.abc import Iterator

import pygame
import pytest
from audio_helpers import wait_for

from sudden_death.audio.notices import NoticeBoard
from sudden_death.audio.protocols import Voice
from sudden_death.audio.speech import SpeechService, sentences, stop_with_queue
from sudden_death.audio.synth import pcm_to_wav

RATE = 22050
PARTS = ["First down at their 30!", "A gain of 12 yards.", "The Bears call time out."]


class HeldSynth:
    """Renders each part as a tone whose length says which part it is; one part can be held
    back until released, to see what plays meanwhile."""

    rate_range = (80, 450)

    def __init__(self) -> None:
        self.rendered: list[str] = []
        self.hold: str | None = None
        self.release = threading.Event()

    def voices(self) -> list[Voice]:
        return []

    def apply(self, rate: int | None, voice_id: str | None) -> None:
        pass

    def render(self, text: str) -> bytes:
        if text == self.hold:
            self.release.wait(5)
        self.rendered.append(text)
        frames = int(seconds_of(text) * RATE)
        return pcm_to_wav(array("h", [6000, -6000] * (frames // 2)).tobytes(), RATE)

    def abort(self) -> None:
        self.release.set()


def seconds_of(text: str) -> float:
    """Each part plays for its own length: 0.25 s plus 0.02 s per character."""
    return 0.25 + 0.02 * len(text)


class ChannelWatch:
    """The lengths of the sounds the speech channel plays, in order (polled every 2 ms)."""

    def __init__(self, channel: pygame.mixer.Channel) -> None:
        self.lengths: list[float] = []
        self._channel = channel
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        last = None
        while not self._stop.is_set():
            sound = self._channel.get_sound() if self._channel.get_busy() else None
            if sound is not None and sound is not last:
                self.lengths.append(round(sound.get_length(), 2))
            last = sound
            time.sleep(0.002)

    def stop(self) -> list[float]:
        self._stop.set()
        self._thread.join(1)
        return self.lengths


@pytest.fixture
def service() -> Iterator[tuple[SpeechService, HeldSynth, pygame.mixer.Channel]]:
    pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=256)
    synth = HeldSynth()
    channel = pygame.mixer.Channel(0)
    speech = SpeechService(channel, lambda: synth, NoticeBoard())
    assert speech.wait_ready(5)
    yield speech, synth, channel
    speech.close()
    pygame.mixer.quit()


def test_a_line_is_split_into_sentences_and_a_short_first_clause() -> None:
    assert sentences(" ".join(PARTS)) == PARTS
    assert sentences("Band plus 1: matchup plus 1, Scatback plus 1.") == [
        "Band plus 1:", "matchup plus 1, Scatback plus 1."]
    assert sentences("Keep, 1 of 6") == ["Keep, 1 of 6"]  # a one-word clause stays whole
    assert sentences("Run a play") == ["Run a play"]


def test_the_first_sentence_plays_before_the_last_is_made_and_all_follow_in_order(
        service: tuple[SpeechService, HeldSynth, pygame.mixer.Channel]) -> None:
    speech, synth, channel = service
    synth.hold = PARTS[-1]
    watch = ChannelWatch(channel)
    speech.say(" ".join(PARTS))
    assert wait_for(lambda: channel.get_busy())
    assert PARTS[-1] not in synth.rendered  # heard before the last part was made
    synth.release.set()
    assert wait_for(lambda: not speech.is_speaking(), timeout=10)
    expected = [round(seconds_of(part), 2) for part in PARTS]
    assert watch.stop() == expected  # each part once, in order, none lost
    assert synth.rendered == PARTS


def test_an_interrupt_drops_the_sentences_not_yet_heard(
        service: tuple[SpeechService, HeldSynth, pygame.mixer.Channel]) -> None:
    speech, _synth, channel = service
    watch = ChannelWatch(channel)
    speech.say(" ".join(PARTS))
    assert wait_for(lambda: bool(watch.lengths))
    speech.say("Timeout.")  # interrupts during the first sentence
    assert wait_for(lambda: not speech.is_speaking(), timeout=10)
    assert watch.stop() == [round(seconds_of(PARTS[0]), 2), round(seconds_of("Timeout."), 2)]


def test_stopping_a_channel_drops_the_sound_queued_behind_it(
        service: tuple[SpeechService, HeldSynth, pygame.mixer.Channel]) -> None:
    """pygame-ce's Channel.stop() starts the queued sound (pygame's dropped it): an
    interrupted sentence must not let the next one play."""
    _speech, _synth, channel = service
    long = pygame.mixer.Sound(buffer=array("h", [800, -800] * RATE).tobytes())
    channel.play(long)
    channel.queue(long)
    assert wait_for(channel.get_busy) and channel.get_queue() is not None
    stop_with_queue(channel)
    time.sleep(0.05)
    assert not channel.get_busy() and channel.get_queue() is None
