"""Hearing the field: the tone's pitch rises toward the opponent's goal, its pan moves left to
right, F plays it with the spot in words, and a short tone follows every play."""

from __future__ import annotations

import io
import itertools
import math
import re
import wave
from array import array
from pathlib import Path

import hypothesis.strategies as st
from hypothesis import given, settings
from recording import RecordingCues, RecordingSpeaker

from sudden_death.audio.stereo import fold_to_mono
from sudden_death.ui.aids import field_tone
from sudden_death.ui.run.cli import Options
from sudden_death.ui.run.loop import run_app

TO_FIRST_CARDS = ["return", "type Jets", "return", "return", "return", "return"]
ONE_DOWN = [*TO_FIRST_CARDS, "1", "2", "1", "2", "3", "return", "return", "return"]


def measured_frequency(samples: array, rate: int) -> float:
    """Frequency of the left+right mix from its rising zero crossings."""
    mono = [samples[i] + samples[i + 1] for i in range(0, len(samples), 2)]
    rising = [i for i in range(1, len(mono)) if mono[i - 1] < 0 <= mono[i]]
    return (len(rising) - 1) * rate / (rising[-1] - rising[0])


def channel_rms(samples: array) -> tuple[float, float]:
    left, right = samples[0::2], samples[1::2]
    return (math.sqrt(sum(v * v for v in left) / len(left)),
            math.sqrt(sum(v * v for v in right) / len(right)))


def test_pitch_rises_with_the_spot() -> None:
    spots = [0, 10, 25, 50, 75, 90, 100]
    heard = [measured_frequency(field_tone.tone_samples(s), field_tone.SAMPLE_RATE)
             for s in spots]
    assert all(a < b for a, b in itertools.pairwise(heard)), heard
    for spot, frequency in zip(spots, heard, strict=True):
        assert abs(frequency - field_tone.frequency_for(spot)) < 0.03 * frequency
    assert 200 < heard[0] < 240 and 820 < heard[-1] < 940  # two octaves, goal to goal


def test_pan_moves_left_to_right() -> None:
    balance = []
    for spot in (0, 25, 50, 75, 100):
        left, right = channel_rms(field_tone.tone_samples(spot))
        balance.append(right / (left + right))
    assert balance[0] < 0.01 and balance[-1] > 0.99 and abs(balance[2] - 0.5) < 0.01
    assert all(a < b for a, b in itertools.pairwise(balance))


def test_tone_is_a_short_stereo_wav() -> None:
    with wave.open(io.BytesIO(field_tone.tone_wav(40)), "rb") as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (2, 2, 22050)
        assert 0.1 < wav.getnframes() / wav.getframerate() < 0.4
        samples = array("h", wav.readframes(wav.getnframes()))
    assert max(abs(v) for v in samples) < 0.5 * 32767  # quieter than speech
    assert abs(samples[0]) < 200 and abs(samples[-1]) < 200  # faded: no click


def test_field_words() -> None:
    assert field_tone.field_words(25, 35, True) == \
        "Ball on your own 25, first down at your own 35, 10 to go."
    assert field_tone.field_words(94, 104, True) == \
        "Ball on their 6, goal to go: 6 yards to the end zone."
    assert field_tone.field_words(60, 50, False) == \
        "Ball on their 40, their first down at midfield, 10 to go."
    assert field_tone.field_words(99, 100, True) == \
        "Ball on their 1, goal to go: 1 yard to the end zone."
    assert field_tone.field_words(1, 0, False) == \
        "Ball on your own 1, they have goal to go: 1 yard from your end zone."


def play(tmp_path: Path, keys: list[str]) -> tuple[list[str], RecordingCues]:
    key_file = tmp_path / "keys.txt"
    key_file.write_text("\n".join(keys) + "\n", encoding="utf-8")
    speaker, cues = RecordingSpeaker(), RecordingCues()
    options = Options(seed=1, headless=True, keys=str(key_file), no_sound=True,
                      config=tmp_path / "cfg")
    assert run_app(options, speaker=speaker, cues=cues) == 0
    return [m.text for m in speaker.spoken], cues


def test_f_plays_the_tone_then_says_the_spot(tmp_path: Path) -> None:
    spoken, cues = play(tmp_path, ["f", *TO_FIRST_CARDS, "f"])
    assert "No ball on the field yet." in spoken
    assert spoken[-1] == "Ball on your own 25, first down at your own 35, 10 to go."
    assert [name for name, _ in cues.tones] == ["field_tone"]
    assert cues.played[-1] == "field_tone"
    with wave.open(io.BytesIO(cues.tones[0][1]), "rb") as wav:
        samples = array("h", wav.readframes(wav.getnframes()))
    expected = field_tone.frequency_for(25)
    assert abs(measured_frequency(samples, 22050) - expected) < 0.03 * expected


def test_a_brief_tone_follows_each_play(tmp_path: Path) -> None:
    spoken, cues = play(tmp_path, ONE_DOWN)
    assert "Inside Run against Blitz." in spoken
    tones = dict(cues.tones)
    assert [name for name, _ in cues.tones] == ["sweep", "field_tone"]
    # The tone comes with the new down's words, not when the final call is pressed.
    assert cues.played[cues.played.index("dice") + 1] == "field_tone"
    with wave.open(io.BytesIO(tones["field_tone"]), "rb") as wav:
        assert wav.getnframes() / wav.getframerate() < field_tone.TONE_SECONDS


def samples_of(wav_bytes: bytes) -> array:
    with wave.open(io.BytesIO(wav_bytes), "rb") as wav:
        assert wav.getnchannels() == 2 and wav.getframerate() == field_tone.SAMPLE_RATE
        return array("h", wav.readframes(wav.getnframes()))


def ends(samples: array, share: float = 0.2) -> tuple[array, array]:
    """The first and the last `share` of a stereo sweep, whole frames."""
    frames = len(samples) // 2
    cut = int(frames * share) * 2
    return samples[:cut], samples[len(samples) - cut:]


def test_the_play_is_heard_from_the_old_spot_to_the_new(tmp_path: Path) -> None:
    """The sweep starts at the line of scrimmage and ends at the new spot: its pitch and pan
    there are the field tone's for those spots."""
    spoken, cues = play(tmp_path, ONE_DOWN)
    sweep = samples_of(dict(cues.tones)["sweep"])
    # The result, in whichever phrasing ("A gain of 4 yards.", "Picks up 4 yards.").
    moved = next(found for text in spoken
                 if (found := re.search(r"\b(\d+) yards?\.$", text)) and "ball" not in text)
    gained = int(moved.group(1))
    first, last = ends(sweep, 0.1)
    for part, spot in ((first, 25), (last, 25 + gained)):
        expected = field_tone.frequency_for(spot)
        assert abs(measured_frequency(part, 22050) - expected) < 0.08 * expected, (spot, gained)
    assert cues.played.index("sweep") < cues.played.index("dice")  # with the dice, not after


def test_a_gain_rises_and_moves_right_and_a_loss_falls_back() -> None:
    gain_start, gain_end = ends(field_tone.sweep_samples(20, 80))
    loss_start, loss_end = ends(field_tone.sweep_samples(60, 50))
    assert measured_frequency(gain_end, 22050) > 1.8 * measured_frequency(gain_start, 22050)
    assert measured_frequency(loss_end, 22050) < measured_frequency(loss_start, 22050)
    left, right = channel_rms(gain_start)
    assert left > 2 * right  # near your own goal: mostly left
    left, right = channel_rms(gain_end)
    assert right > 2 * left  # near theirs: mostly right
    assert channel_rms(loss_end)[1] < channel_rms(loss_start)[1]


def test_hear_the_play_can_be_turned_off(tmp_path: Path) -> None:
    config = tmp_path / "cfg"  # play()'s settings folder
    config.mkdir()
    (config / "settings.json").write_text('{"version": 1, "play_sweep": false}')
    _spoken, cues = play(tmp_path, ONE_DOWN)
    assert [name for name, _ in cues.tones] == ["field_tone"]


def glide_sample_by_sample(start: float, end: float, seconds: float) -> list[int]:
    """The sweep as its definition says, each sample's pitch and pan computed afresh (slow:
    the game builds it by running products instead)."""
    count = max(1, int(seconds * field_tone.SAMPLE_RATE))
    fade = max(1, min(count // 2, int(field_tone.FADE_SECONDS * field_tone.SAMPLE_RATE)))
    out: list[int] = []
    phase = 0.0
    for i in range(count):
        spot = start + (end - start) * i / max(1, count - 1)
        angle = field_tone.pan_for(spot) * math.pi / 2
        phase += 2 * math.pi * field_tone.frequency_for(spot) / field_tone.SAMPLE_RATE
        envelope = min(1.0, i / fade, (count - 1 - i) / fade)
        value = field_tone.PEAK * 32767 * envelope * math.sin(phase)
        out += [int(value * math.cos(angle)), int(value * math.sin(angle))]
    return out


@settings(max_examples=40, deadline=None)
@given(start=st.integers(0, 100), end=st.integers(0, 100),
       seconds=st.sampled_from([0.00005, 0.001, 0.02, field_tone.SWEEP_SECONDS]))
def test_the_quick_sweep_is_the_sweep_sample_by_sample(start: int, end: int,
                                                       seconds: float) -> None:
    quick = list(field_tone.sweep_samples(start, end, seconds))
    slow = glide_sample_by_sample(start, end, seconds)
    assert len(quick) == len(slow)
    assert max(abs(a - b) for a, b in zip(quick, slow, strict=True)) <= 1  # rounding only


def test_a_sweep_past_the_goal_line_is_held_to_the_field() -> None:
    assert list(field_tone.sweep_samples(90, 112, 0.02)) == \
        list(field_tone.sweep_samples(90, 100, 0.02))
    assert list(field_tone.sweep_samples(-4, 10, 0.02)) == \
        list(field_tone.sweep_samples(0, 10, 0.02))


def test_mono_gives_both_ears_the_same_tone_and_sweep() -> None:
    """The Mono sound setting: each frame's two sides averaged into both, so a player with
    one ear or one speaker loses nothing; the pitch still moves with the spot."""
    for wav in (field_tone.tone_wav(80, mono=True), field_tone.sweep_wav(20, 80, mono=True)):
        samples = samples_of(wav)
        assert samples[0::2] == samples[1::2] and max(samples) > 1000
    stereo = field_tone.sweep_samples(20, 80)
    folded = fold_to_mono(stereo)
    assert all(folded[i] == (stereo[i] + stereo[i + 1]) // 2 for i in range(0, 2000, 2))
    start, end = ends(samples_of(field_tone.sweep_wav(20, 80, mono=True)))
    assert measured_frequency(end, 22050) > 1.8 * measured_frequency(start, 22050)
