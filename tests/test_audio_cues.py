"""The cue WAVs: present, valid, audible, distinct, short, loudness-matched and reproducible;
and the cue player: every name plays, unknown names are ignored, dice click once per die."""

from __future__ import annotations

import hashlib
import math
import wave
from array import array
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudden_death.audio.cues import DIE_CLICK, dice_samples
from sudden_death.audio.protocols import CUE_NAMES
from sudden_death.audio.system import AudioSystem, open_audio
from sudden_death.resources import sounds_dir

ROOT = Path(__file__).resolve().parent.parent


def read(name: str) -> tuple[wave._wave_params, array]:
    with wave.open(str(sounds_dir() / f"{name}.wav"), "rb") as wav:
        params = wav.getparams()
        samples = array("h", wav.readframes(wav.getnframes()))
    return params, samples


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
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, 22050)
    seconds = params.nframes / params.framerate
    assert 0.02 < seconds <= (3.0 if name == "touchdown" else 1.5)
    assert max(abs(v) for v in samples) > 3000  # not silent (-18 dBFS RMS is about 4100)
    assert abs(samples[-1]) < 2000  # ends without a click


def test_no_two_cues_are_identical() -> None:
    digests = {hashlib.sha256(read(name)[1].tobytes()).hexdigest() for name in CUE_NAMES}
    assert len(digests) == len(CUE_NAMES)


def test_cues_are_loudness_matched() -> None:
    levels = {name: active_dbfs(read(name)[1], 22050) for name in CUE_NAMES}
    assert max(levels.values()) - min(levels.values()) < 4.0, levels


def test_the_generator_reproduces_the_committed_files() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_sounds", ROOT / "tools" / "make_sounds.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert set(CUE_NAMES) <= set(module.CUES)
    for name in ("menu_move", "coin", "dice"):
        assert module.render(name) == (sounds_dir() / f"{name}.wav").read_bytes()


def test_dice_sounds_have_one_click_per_die_and_follow_the_pips() -> None:
    _, click = read(DIE_CLICK)
    one = dice_samples(click, 22050, [3])
    two = dice_samples(click, 22050, [3, 3])
    three = dice_samples(click, 22050, [3, 3, 3])
    assert len(one) < len(two) < len(three)

    def onsets(samples: array) -> int:
        size = 22050 // 100  # 10 ms
        loud = [max(map(abs, samples[i : i + size])) > 4000 for i in range(0, len(samples), size)]
        return sum(1 for i, v in enumerate(loud) if v and (i == 0 or not loud[i - 1]))

    assert [onsets(s) for s in (one, two, three)] == [1, 2, 3]
    assert dice_samples(click, 22050, [1, 2]) != dice_samples(click, 22050, [6, 5])


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
    audio.set_cue_volume(0.25)
    sounds = audio.cues._sounds  # type: ignore[attr-defined]
    assert all(abs(s.get_volume() - 0.25) < 0.01 for s in sounds.values())
    audio.set_cue_volume(1.0)
