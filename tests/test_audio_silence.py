"""Silence trimming: the words start within a few milliseconds and end with a short pause."""

from __future__ import annotations

import io
import wave
from array import array

from sudden_death.audio.silence import LEAD_KEEP_S, TAIL_KEEP_S, THRESHOLD, trim_pcm, trim_wav
from sudden_death.audio.synth import pcm_to_wav

RATE = 22050


def tone(seconds: float, level: int = 8000) -> list[int]:
    return [level if (i // 10) % 2 else -level for i in range(int(seconds * RATE))]


def hush(seconds: float, level: int = 0) -> list[int]:
    return [level] * int(seconds * RATE)


def test_lead_and_tail_silence_are_cut_to_a_few_milliseconds_and_a_short_pause() -> None:
    sound = tone(0.5)
    samples = array("h", hush(0.05) + sound + hush(0.3))
    trimmed = trim_pcm(samples, RATE)
    lead, tail = int(LEAD_KEEP_S * RATE), int(TAIL_KEEP_S * RATE)
    assert len(trimmed) == lead + len(sound) + tail
    assert trimmed[lead:lead + len(sound)].tolist() == sound  # the words are untouched
    assert all(abs(v) <= THRESHOLD for v in trimmed[:lead])


def test_quiet_noise_counts_as_silence_and_silence_alone_is_kept() -> None:
    noisy = array("h", hush(0.1, level=THRESHOLD) + tone(0.2) + hush(0.4, level=-THRESHOLD))
    trimmed = trim_pcm(noisy, RATE)
    assert len(trimmed) < len(noisy) - int(0.35 * RATE)
    silent = array("h", hush(0.2))
    assert trim_pcm(silent, RATE) == silent


def test_stereo_frames_are_never_split() -> None:
    frames = [(0, 0)] * 300 + [(5000, -5000)] * 500 + [(0, 0)] * 9000
    samples = array("h", [v for frame in frames for v in frame])
    trimmed = trim_pcm(samples, RATE, channels=2)
    assert len(trimmed) % 2 == 0 and trimmed[int(LEAD_KEEP_S * RATE) * 2] == 5000


def test_a_wav_is_trimmed_and_anything_else_passes_through() -> None:
    data = pcm_to_wav(array("h", hush(0.1) + tone(0.3) + hush(0.3)).tobytes(), RATE)
    trimmed = trim_wav(data)
    with wave.open(io.BytesIO(trimmed)) as wav:
        seconds = wav.getnframes() / wav.getframerate()
    assert abs(seconds - (0.3 + LEAD_KEEP_S + TAIL_KEEP_S)) < 0.002
    assert trim_wav(b"FORM....AIFF not a wav") == b"FORM....AIFF not a wav"
    eight_bit = io.BytesIO()
    with wave.open(eight_bit, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(1)
        wav.setframerate(RATE)
        wav.writeframes(bytes(1000))
    assert trim_wav(eight_bit.getvalue()) == eight_bit.getvalue()
