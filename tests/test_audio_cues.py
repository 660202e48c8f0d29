"""The cue WAVs: present, valid, audible, distinct, short, loudness-matched and reproducible;
and the cue player: every name plays, unknown names are ignored, dice click once per die."""

from __future__ import annotations

import cmath
import hashlib
import itertools
import math
import wave
from array import array
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path

import pytest
from scripts import load_script

from sudden_death.audio.cues import DIE_CLICK, dice_samples
from sudden_death.audio.levels import MIX_HEADROOM
from sudden_death.audio.protocols import CUE_NAMES
from sudden_death.audio.system import AudioSystem, open_audio
from sudden_death.resources import sounds_dir

ROOT = Path(__file__).resolve().parent.parent
CUE_RATE = 44100  # every cue file's rate (tools/make_sounds.py)
# Cues made in stereo: a crowd all around, two takes of it, one for each side.
STEREO_CUES = {"touchdown", "touchdown_theirs"}
# Cues allowed longer than the default 1.5 s, or held shorter because they interrupt play.
MAX_SECONDS = {
    "touchdown": 3.0,
    "game_won": 2.5,
    "game_lost": 2.5,
    "game_tied": 2.5,
    "big_play": 1.2,
    "turnover": 1.2,
    "touchdown_theirs": 2.0,
    "big_play_theirs": 1.2,
    "turnover_won": 1.2,
}
# Each side's news has its own sound: the other team's score, big play and the player's
# takeaway must not be mistaken for the player's own (or for anything else).
WHOSE_CUES = ("touchdown_theirs", "field_goal_theirs", "big_play_theirs", "turnover_won")
DRAMA_CUES = ("big_play", "turnover", "game_won", "game_lost", "game_tied", *WHOSE_CUES)
# The older cues a drama cue could most easily be mistaken for.
LOOKALIKES = (
    "touchdown",
    "field_goal_good",
    "field_goal_no_good",
    "interception",
    "fumble",
    "safety",
)


def read(name: str) -> tuple[wave._wave_params, array]:
    """A cue's header and its samples, a stereo cue's two sides averaged (what both ears hear
    together), so every check of what a cue holds sees one line of samples."""
    params, samples = frames(name)
    if params.nchannels == 2:
        samples = array("h", ((a + b) // 2 for a, b in zip(samples[0::2], samples[1::2],
                                                               strict=True)))
    return params, samples


def frames(name: str) -> tuple[wave._wave_params, array]:
    """A cue's header and its samples as stored (a stereo cue's interleaved)."""
    with wave.open(str(sounds_dir() / f"{name}.wav"), "rb") as wav:
        return wav.getparams(), array("h", wav.readframes(wav.getnframes()))


def sides(name: str) -> tuple[array, array]:
    samples = frames(name)[1]
    return samples[0::2], samples[1::2]


def active_dbfs(samples: array, rate: int) -> float:
    size = rate // 50
    energies = [
        sum(v * v for v in samples[i : i + size]) / len(samples[i : i + size])
        for i in range(0, len(samples), size)
    ]
    loud = max(energies)
    active = [e for e in energies if e >= loud / 1000]
    return 10 * math.log10(sum(active) / len(active) / 32767**2)


@pytest.mark.parametrize("name", [*CUE_NAMES, DIE_CLICK])
def test_each_cue_is_a_valid_short_audible_wav(name: str) -> None:
    params, samples = read(name)
    channels = 2 if name in STEREO_CUES else 1
    assert (params.nchannels, params.sampwidth, params.framerate) == (channels, 2, CUE_RATE)
    seconds = params.nframes / params.framerate
    assert 0.02 < seconds <= MAX_SECONDS.get(name, 1.5)
    assert max(abs(v) for v in samples) > 3000  # not silent (-18 dBFS RMS is about 4100)
    assert abs(samples[-1]) < 2000  # ends without a click


def test_no_two_cues_are_identical() -> None:
    digests = {hashlib.sha256(read(name)[1].tobytes()).hexdigest() for name in CUE_NAMES}
    assert len(digests) == len(CUE_NAMES)


def test_cues_are_loudness_matched() -> None:
    levels = {name: active_dbfs(read(name)[1], CUE_RATE) for name in CUE_NAMES}
    assert max(levels.values()) - min(levels.values()) < 4.0, levels


FFT_SIZE = 1024
HANN = [0.5 - 0.5 * math.cos(2 * math.pi * i / FFT_SIZE) for i in range(FFT_SIZE)]
ANALYSIS_RATE = 22050  # the bands end at 8 kHz: a 44.1 kHz cue is halved before its FFTs
SLICE_EDGES_S = (0.0, 0.3, 0.7, 1.3, 2.6)  # time slices of the spectrogram
BAND_EDGES_HZ = tuple(100 * 80 ** (i / 12) for i in range(13))  # 12 log bands, 100 Hz-8 kHz
FLOOR_DB = -50.0
TWIDDLES = [cmath.exp(-2j * math.pi * k / FFT_SIZE) for k in range(FFT_SIZE // 2)]


def fft(values: Sequence[complex]) -> list[complex]:
    """Radix-2 FFT of up to FFT_SIZE points; numpy is not a dependency, and this is quick enough."""
    n = len(values)
    if n == 1:
        return [complex(values[0])]
    even, odd = fft(values[0::2]), fft(values[1::2])
    step = FFT_SIZE // n
    twiddled = [TWIDDLES[k * step] * odd[k] for k in range(n // 2)]
    pairs = list(zip(even, twiddled, strict=True))
    return [e + t for e, t in pairs] + [e - t for e, t in pairs]


def spectrogram(samples: Sequence[float], rate: int = CUE_RATE) -> list[float]:
    """Coarse spectrogram: energy in 12 log bands in each of 4 time slices, in dB of the total.

    This is what sets two cues apart by ear (which pitches/noise, and when), but blind to level,
    so loudness matching cannot make different cues look alike or alike cues look different.
    It is taken at ANALYSIS_RATE whatever the file's rate (neighbouring samples averaged), so
    each FFT spans the same 46 ms and each band the same bins: a cue's rate alone must not
    move it."""
    if rate == 2 * ANALYSIS_RATE:
        samples = [(a + b) / 2 for a, b in zip(samples[0::2], samples[1::2], strict=False)]
        rate = ANALYSIS_RATE
    bins = [
        [k for k in range(FFT_SIZE // 2) if lo <= k * rate / FFT_SIZE < hi]
        for lo, hi in itertools.pairwise(BAND_EDGES_HZ)
    ]
    cells: list[float] = []
    for start_s, end_s in itertools.pairwise(SLICE_EDGES_S):
        power = [0.0] * (FFT_SIZE // 2)
        end = min(len(samples), int(end_s * rate))
        for start in range(int(start_s * rate), end, FFT_SIZE):
            frame = list(samples[start : start + FFT_SIZE])
            frame += [0.0] * (FFT_SIZE - len(frame))
            spectrum = fft([v * w for v, w in zip(frame, HANN, strict=True)])
            for k in range(FFT_SIZE // 2):
                power[k] += abs(spectrum[k]) ** 2
        cells.extend(sum(power[k] for k in band) for band in bins)
    total = sum(cells)
    return [max(FLOOR_DB, 10 * math.log10(c / total)) if c > 0 else FLOOR_DB for c in cells]


def spectral_distance(a: Sequence[float], b: Sequence[float]) -> float:
    """Mean dB difference over the cells where either cue is audible (within 40 dB of its total):
    cells silent in both would only dilute the difference between two short cues."""
    cells = [(x, y) for x, y in zip(a, b, strict=True) if max(x, y) > FLOOR_DB + 10]
    return sum(abs(x - y) for x, y in cells) / len(cells)


@cache
def cue_spectrogram(name: str) -> tuple[float, ...]:
    """Each committed cue's spectrogram, computed once: the FFTs are most of these tests' time."""
    return tuple(spectrogram(read(name)[1]))


def test_the_distance_ignores_level_and_a_small_delay_but_not_content() -> None:
    """The check below is only worth something if the same sound scores near zero here."""
    samples = read("big_play")[1]
    quieter_later = [0.0] * (CUE_RATE // 50) + [v * 0.3 for v in samples]  # -10 dB, 20 ms late
    same = spectral_distance(cue_spectrogram("big_play"), spectrogram(quieter_later))
    assert same < 2.0
    half_speed = [v for v in samples for _ in range(2)][: len(samples)]  # an octave down, slower
    assert spectral_distance(cue_spectrogram("big_play"), spectrogram(half_speed)) > 6.0


@pytest.mark.parametrize("name", DRAMA_CUES)
def test_drama_cues_are_spectrally_distinct(name: str) -> None:
    """Big play, turnover and the three game results must not be mistaken for each other or
    for the scoring and turnover cues they sit beside. Different hashes are not enough: two
    cheers with different noise seeds differ in every byte yet sound the same."""
    others = [n for n in (*DRAMA_CUES, *LOOKALIKES) if n != name]
    distances = {
        other: spectral_distance(cue_spectrogram(name), cue_spectrogram(other)) for other in others
    }
    too_close = {other: round(d, 1) for other, d in distances.items() if d < 8.0}
    assert not too_close, f"{name} sounds too much like {too_close}"


def share_above_db(samples: Sequence[float], hertz: float, rate: int = CUE_RATE) -> float:
    """The energy above `hertz`, in dB of the whole (Hann-windowed FFT frames)."""
    above = total = 0.0
    for start in range(0, len(samples) - FFT_SIZE, FFT_SIZE):
        spectrum = fft([v * w for v, w in zip(samples[start : start + FFT_SIZE], HANN,
                                              strict=True)])
        for k in range(FFT_SIZE // 2):
            power = abs(spectrum[k]) ** 2
            total += power
            above += power * (k * rate / FFT_SIZE > hertz)
    return 10 * math.log10(max(above, 1e-12) / total)


def test_only_the_cheer_reaches_past_the_old_rates_limit() -> None:
    """The cues are made at 44.1 kHz. The cheer's claps use the band past 11 kHz that a
    22.05 kHz file could not carry; the noise in the other crowds is band-limited as it was
    heard before, so the higher rate does not turn them into hiss."""
    assert share_above_db(read("touchdown")[1], 11025) > -22
    for name in ("touchdown_theirs", "crowd", "whistle"):
        assert share_above_db(read(name)[1], 11025) < -26, name


def test_the_generator_reproduces_the_committed_files() -> None:
    module = load_script("tools/make_sounds.py")
    assert set(CUE_NAMES) <= set(module.CUES)
    rendered = {}
    for name in ("menu_move", "coin", "dice", "touchdown_theirs", "crowd"):
        rendered[name] = module.render(name)
        assert rendered[name] == (sounds_dir() / f"{name}.wav").read_bytes()
    # Its list of sources, from the committed files (the same bytes, as checked above).
    committed = {name: (sounds_dir() / f"{name}.wav").read_bytes() for name in module.CUES}
    assert module.licenses_text(committed) == (sounds_dir() / "LICENSES.md").read_text(
        encoding="utf-8")


def test_dice_sounds_have_one_click_per_die_and_follow_the_pips() -> None:
    _, click = read(DIE_CLICK)
    one = dice_samples(click, CUE_RATE, [3])
    two = dice_samples(click, CUE_RATE, [3, 3])
    three = dice_samples(click, CUE_RATE, [3, 3, 3])
    assert len(one) < len(two) < len(three)

    def onsets(samples: array) -> int:
        size = CUE_RATE // 100  # 10 ms
        loud = [max(map(abs, samples[i : i + size])) > 4000 for i in range(0, len(samples), size)]
        return sum(1 for i, v in enumerate(loud) if v and (i == 0 or not loud[i - 1]))

    assert [onsets(s) for s in (one, two, three)] == [1, 2, 3]
    assert dice_samples(click, CUE_RATE, [1, 2]) != dice_samples(click, CUE_RATE, [6, 5])


@pytest.fixture(scope="module")
def audio() -> Iterator[AudioSystem]:
    system = open_audio(speech=False)
    yield system
    system.close()


def test_every_cue_plays_and_listeners_hear_its_name(audio: AudioSystem) -> None:
    import pygame

    heard: list[str] = []
    audio.cues.add_listener(heard.append)
    for name in CUE_NAMES:
        audio.cues.play(name)
    assert pygame.mixer.get_busy()
    audio.cues.play_dice([2, 6])
    assert heard == [*CUE_NAMES, "dice"]
    assert audio.notices == []


def test_an_unknown_cue_is_ignored_with_a_notice(audio: AudioSystem) -> None:
    heard: list[str] = []
    audio.cues.add_listener(heard.append)
    audio.cues.play("kazoo")
    audio.cues.play("kazoo")
    assert heard == []
    assert sum("kazoo" in n for n in audio.notices) == 1
    assert audio.cues.notice is not None


def test_cue_volume_applies_to_every_cue(audio: AudioSystem) -> None:
    audio.cues.set_volume(0.25)
    sounds = audio.cues._sounds  # type: ignore[attr-defined]
    assert all(abs(s.get_volume() - 0.25 * MIX_HEADROOM) < 0.01 for s in sounds.values())
    audio.cues.set_volume(1.0)


def test_every_sound_file_has_its_source_and_licence_written_down() -> None:
    """sounds/LICENSES.md names each file's source (all made by tools/make_sounds.py today);
    a file added without its row fails here."""
    listed = (sounds_dir() / "LICENSES.md").read_text(encoding="utf-8")
    files = sorted(path.name for path in sounds_dir().glob("*.wav"))
    assert files and [name for name in files if f"| `{name}` |" not in listed] == []
    assert "MIT" in listed and "tools/make_sounds.py" in listed


@pytest.mark.parametrize("name", sorted(STEREO_CUES))
def test_a_stereo_cue_is_two_takes_at_one_level(name: str) -> None:
    """All around the player: the two sides are different noise (not one copy, which would
    sound in the middle of the head), as loud as each other."""
    left, right = sides(name)
    assert left != right
    assert abs(active_dbfs(left, CUE_RATE) - active_dbfs(right, CUE_RATE)) < 1.5
    # Nor one side a delayed copy of the other: they barely correlate.
    dot = sum(a * b for a, b in zip(left, right, strict=True))
    power = math.sqrt(sum(a * a for a in left) * sum(b * b for b in right))
    assert abs(dot) / power < 0.5


def test_mono_folds_the_stereo_cues_and_keeps_their_volume(audio: AudioSystem) -> None:
    cues = audio.cues
    sounds = cues._sounds  # type: ignore[attr-defined]
    wide = {name: sounds[name] for name in STEREO_CUES}
    whistle = sounds["whistle"]
    cues.set_volume(0.5)
    cues.set_mono(True)
    try:
        for name in STEREO_CUES:
            raw = array("h", sounds[name].get_raw())
            assert raw[0::2] == raw[1::2], name  # the same in both ears
            assert abs(sounds[name].get_volume() - 0.5 * MIX_HEADROOM) < 0.01
        assert sounds["whistle"] is whistle  # a mono cue is left as it is
        cues.set_volume(0.8)  # changed while folded: the stereo sounds get it back too
        cues.set_mono(False)
        for name in STEREO_CUES:
            assert sounds[name] is wide[name]
            raw = array("h", sounds[name].get_raw())
            assert raw[0::2] != raw[1::2]
            assert abs(sounds[name].get_volume() - 0.8 * MIX_HEADROOM) < 0.01
    finally:
        cues.set_mono(False)
        cues.set_volume(1.0)
