"""Real speech: pyttsx3 + eSpeak NG (espeakng-loader) into pygame.mixer under SDL's dummy driver."""

from __future__ import annotations

import threading
import time
from array import array
from collections.abc import Iterator

import pygame
import pytest
from audio_helpers import wait_for

from sudden_death.audio.levels import MIX_HEADROOM
from sudden_death.audio.protocols import Message, Priority
from sudden_death.audio.silence import LEAD_KEEP_S, TAIL_KEEP_S, THRESHOLD
from sudden_death.audio.speech import SpeechService
from sudden_death.audio.system import SPEECH_CHANNEL, AudioSystem, open_audio

LONG = (
    "The quarterback takes the snap, drops back, looks left, looks right, and throws deep down "
    "the sideline toward the end zone where two receivers are racing the safety for the ball."
)


class Log:
    """Which texts started playing, in order (from the speech service's playback hook)."""

    def __init__(self, service: SpeechService) -> None:
        self.started: list[str] = []
        service.add_playback_listener(lambda text, _when: self.started.append(text))

    def wait_started(self, text: str) -> bool:
        return wait_for(lambda: text in self.started)


@pytest.fixture(scope="module")
def audio() -> Iterator[AudioSystem]:
    system = open_audio()
    assert system.notices == []
    assert system.speech is not None
    yield system
    system.close()


@pytest.fixture
def speech(audio: AudioSystem) -> Iterator[SpeechService]:
    assert audio.speech is not None
    audio.speech.silence()
    audio.speaker.set_rate(175)
    yield audio.speech
    audio.speech.silence()


def channel() -> pygame.mixer.Channel:
    return pygame.mixer.Channel(SPEECH_CHANNEL)


def samples_of(sound: pygame.mixer.Sound) -> array:
    return array("h", sound.get_raw())


def test_an_utterance_becomes_audible_audio_of_plausible_length(speech: SpeechService) -> None:
    log = Log(speech)
    text = "Fourth down and two at the opponent's thirty five yard line."
    speech.say(text)
    assert log.wait_started(text)
    sound = channel().get_sound()
    assert sound is not None and channel().get_busy()
    samples = samples_of(sound)
    peak = max(abs(v) for v in samples)
    rms = (sum(v * v for v in samples) / len(samples)) ** 0.5
    assert peak > 3000 and rms > 300
    words = len(text.split())
    # at 175 words a minute: 0.34 s a word, give or take pauses and the end pause
    assert words * 0.15 < sound.get_length() < words * 0.8


def test_real_speech_starts_at_once_and_ends_with_a_short_pause(speech: SpeechService) -> None:
    """eSpeak's leading silence and its 300 ms end pause are trimmed before playing."""
    log = Log(speech)
    text = "Coin toss: heads or tails?"
    speech.say(text)
    assert log.wait_started(text)
    sound = channel().get_sound()
    assert sound is not None
    frequency, _size, channels = pygame.mixer.get_init()
    samples = samples_of(sound)
    loud = [i // channels for i, v in enumerate(samples) if abs(v) > THRESHOLD]
    assert loud[0] <= (LEAD_KEEP_S + 0.001) * frequency  # the first sound within ~3 ms
    tail = len(samples) // channels - loud[-1]
    assert tail <= (TAIL_KEEP_S + 0.002) * frequency


def test_a_lines_sounds_start_with_its_words(speech: SpeechService) -> None:
    """`on_start` runs when the words start playing (the worker's thread), not when queued."""
    log = Log(speech)
    started: list[tuple[str, bool]] = []
    speech.say(LONG, priority=Priority.ALERT)
    speech.say("Touchdown!", interrupt=False, priority=Priority.ALERT,
               on_start=lambda: started.append(("touchdown", "Touchdown!" in log.started)))
    assert not started  # queued behind the long line: nothing played yet
    assert log.wait_started(LONG)
    assert not started
    speech.silence()
    speech.say("Touchdown!", priority=Priority.ALERT,
               on_start=lambda: started.append(("again", "Touchdown!" in log.started)))
    assert wait_for(lambda: bool(started))
    assert started == [("again", False)]  # called as the channel starts, before listeners
    speech.say("", on_start=lambda: started.append(("empty", True)))
    assert started[-1] == ("empty", True)  # nothing to hear: at once


def test_listeners_get_every_message_at_once_in_the_callers_thread(
    speech: SpeechService,
) -> None:
    got: list[tuple[Message, threading.Thread]] = []
    speech.add_listener(lambda m: got.append((m, threading.current_thread())))
    speech.say("Kickoff.", priority=Priority.ALERT, category="result")
    speech.say("Menu.", interrupt=False)
    speech.say("")  # nothing to speak, still a message
    assert [m for m, _ in got] == [
        Message("Kickoff.", Priority.ALERT, "result"),
        Message("Menu.", Priority.INFO, "info"),
        Message("", Priority.INFO, "info"),
    ]
    assert all(thread is threading.current_thread() for _, thread in got)


def test_interrupt_cuts_what_plays_and_drops_the_queue(speech: SpeechService) -> None:
    log = Log(speech)
    speech.say(LONG)
    assert log.wait_started(LONG)
    old = channel().get_sound()
    speech.say("Queued one.", interrupt=False)
    speech.say("Queued two.", interrupt=False)
    speech.say("Cut in.")
    assert channel().get_sound() is not old or not channel().get_busy()
    assert log.wait_started("Cut in.")
    assert speech.wait_idle(5)
    assert log.started == [LONG, "Cut in."]


def test_queued_speech_plays_in_order_without_interrupting(speech: SpeechService) -> None:
    log = Log(speech)
    speech.say("One.")
    speech.say("Two.", interrupt=False)
    speech.say("Three.", interrupt=False)
    assert speech.wait_idle(10)
    assert log.started == ["One.", "Two.", "Three."]


def test_info_waits_behind_an_alert_and_replaces_other_waiting_info(speech: SpeechService) -> None:
    log = Log(speech)
    alert = "Touchdown, home team wins."
    speech.say(alert, priority=Priority.ALERT)
    assert log.wait_started(alert)
    alert_sound = channel().get_sound()
    speech.say("Focus on punt.")
    speech.say("Focus on field goal.")
    assert channel().get_busy() and channel().get_sound() is alert_sound  # not cut
    assert speech.wait_idle(10)
    assert log.started == [alert, "Focus on field goal."]


def test_an_alert_cuts_info(speech: SpeechService) -> None:
    log = Log(speech)
    speech.say(LONG)
    assert log.wait_started(LONG)
    speech.say("Later info.", interrupt=False)
    speech.say("Interception!", priority=Priority.ALERT)
    assert log.wait_started("Interception!")
    assert speech.wait_idle(10)
    assert log.started == [LONG, "Interception!"]


def test_silence_stops_even_an_alert_and_drops_the_queue(speech: SpeechService) -> None:
    log = Log(speech)
    speech.say(LONG, priority=Priority.ALERT)
    speech.say("Never heard.", interrupt=False)
    assert log.wait_started(LONG)
    speech.silence()
    assert not channel().get_busy()
    time.sleep(0.1)
    assert not speech.is_speaking()
    assert log.started == [LONG]


def test_cache_hits_skip_synthesis(speech: SpeechService) -> None:
    log = Log(speech)
    text = "Select the play call: inside run."
    speech.say(text)
    assert log.wait_started(text)
    first = channel().get_sound()
    assert wait_for(lambda: not speech.is_speaking(), timeout=10)  # both parts made
    renders, hits = speech.synth_count, speech.cache_hits
    speech.say(text)
    assert log.started == [text, text]  # started at once, from the caller's thread
    assert channel().get_sound() is first
    assert wait_for(lambda: not speech.is_speaking(), timeout=10)
    assert speech.synth_count == renders  # both of its parts came from the cache
    assert speech.cache_hits == hits + 2


def test_cache_is_bounded() -> None:
    from sudden_death.audio.cache import PhraseCache

    cache: PhraseCache[str] = PhraseCache(max_bytes=100)
    for i in range(10):
        cache.put((f"t{i}", None, None), f"v{i}", 30)
    assert cache.size <= 100 and len(cache) == 3
    assert cache.get(("t9", None, None)) == "v9"
    assert cache.get(("t0", None, None)) is None


def test_a_rate_change_changes_the_duration(audio: AudioSystem, speech: SpeechService) -> None:
    log = Log(speech)
    text = "The kicker lines up for a forty yard attempt into the wind."
    lengths = []
    for rate in (110, 330):
        audio.speaker.set_rate(rate)
        speech.silence()
        speech.say(text)
        assert wait_for(lambda: len(log.started) == len(lengths) + 1)
        lengths.append(channel().get_sound().get_length())
    assert lengths[0] > 1.8 * lengths[1]
    low, high = audio.speaker.rate_range
    assert low < 110 and high > 330


def test_voices_are_listed_and_a_voice_change_changes_the_audio(
    audio: AudioSystem, speech: SpeechService
) -> None:
    voices = audio.speaker.voices()
    assert len(voices) > 1 and all(v.id and v.name for v in voices)
    log = Log(speech)
    text = "Safety."
    raws = []
    for voice in ("gmw/en", "gmw/de"):
        if voice not in {v.id for v in voices}:
            pytest.skip(f"voice {voice} not installed")
        audio.speaker.set_voice(voice)
        speech.silence()
        speech.say(text)
        assert wait_for(lambda: len(log.started) == len(raws) + 1)
        raws.append(channel().get_sound().get_raw())
    audio.speaker.set_voice("gmw/en")
    assert raws[0] != raws[1]


def test_speech_and_cue_volumes_are_separate(audio: AudioSystem, speech: SpeechService) -> None:
    log = Log(speech)
    audio.speaker.set_volume(0.4)
    audio.cues.set_volume(0.8)
    speech.say("Volume check.")
    assert log.wait_started("Volume check.")
    assert channel().get_volume() == pytest.approx(0.4 * MIX_HEADROOM, abs=0.01)
    audio.cues.set_volume(0.3)
    assert channel().get_volume() == pytest.approx(0.4 * MIX_HEADROOM, abs=0.01)
    audio.speaker.set_volume(1.0)
    audio.cues.set_volume(1.0)


@pytest.mark.timeout(30)
def test_close_mid_speech_returns_and_leaves_no_thread() -> None:
    # A second system in the same process, after the module's: the engine is reused.
    before = set(threading.enumerate())
    system = open_audio(sound=False)
    assert system.speech is not None and system.speech.worker_alive
    playing = threading.Event()
    system.speech.add_playback_listener(lambda _text, _when: playing.set())
    system.speaker.say(LONG)
    assert playing.wait(10) and system.speech.is_speaking()  # closed mid-utterance
    system.close()  # returns (the timeout guards a hang); how fast: benchmarks/exit_latency.py
    assert wait_for(lambda: set(threading.enumerate()) <= before, 10)
