"""The stadium bed: a crowd that loops without a seam, follows the game, and ducks under speech.

The ducking is measured on the mixed output, with real eSpeak NG speech through the real mixer
and SDL's `disk` driver writing every sample the device played (as test_audio_disk.py): while
words play, speech stays at least 15 dB above the crowd, with the crowd at full volume and
leaning in (the loudest it gets), and the mix stays under -1 dBFS."""

from __future__ import annotations

import io
import itertools
import math
import wave
from array import array
from pathlib import Path

import pytest
from audio_helpers import play_on_disk
from engine_helpers import fourth_down
from recording import RecordingCues, RecordingSpeaker

from sudden_death.engine.state import Down, GameEnd, GameState, Outcome, Team
from sudden_death.resources import sounds_dir
from sudden_death.storage.settings import Settings
from sudden_death.ui.aids.audio_controls import AudioControls

ROOT = Path(__file__).resolve().parent.parent
LINE = "The quarterback drops back and throws deep down the sideline toward the end zone."

CHILD = """
import json, os, sys, time
import pygame
from sudden_death.audio.system import SPEECH_CHANNEL, open_audio
out = os.environ["SDL_DISKAUDIOFILE"]
crowd_level, line = float(sys.argv[1]), sys.argv[2]
audio = open_audio()
mixer_format = list(pygame.mixer.get_init())
audio.speaker.set_volume(1.0)
audio.cues.set_crowd(crowd_level)
audio.cues.set_tension(True)
speech = pygame.mixer.Channel(SPEECH_CHANNEL)
marks = {}
time.sleep(0.6)
marks["alone"] = os.path.getsize(out)
time.sleep(0.8)
marks["alone_end"] = os.path.getsize(out)
audio.speaker.say(line)
deadline = time.monotonic() + 20
while not speech.get_busy() and time.monotonic() < deadline:
    time.sleep(0.002)
marks["speech"] = os.path.getsize(out)
# The crowd's lowest gain while the words play: the speech worker ducks it just after it starts
# the words, so a single read at their start could come before the duck.
ducked = None
while speech.get_busy() and time.monotonic() < deadline:
    if audio.cues.crowd is not None:
        gain = audio.cues.crowd.gain
        ducked = gain if ducked is None else min(ducked, gain)
    audio.cues.tick()
    time.sleep(0.002)
marks["speech_end"] = os.path.getsize(out)
for _ in range(300):
    audio.cues.tick()
    time.sleep(0.002)
back = audio.cues.crowd.gain if audio.cues.crowd is not None else None
audio.close()
print(json.dumps({"format": mixer_format,
                  "marks": marks, "ducked": ducked, "back": back, "notices": audio.notices}))
"""


def played(tmp_path: Path, crowd: float) -> tuple[dict, array]:
    return play_on_disk(tmp_path, CHILD, str(crowd), LINE, name=f"crowd-{crowd}.raw",
                        timeout=90)


def frame_rms(samples: array, start: int, end: int, size: int) -> list[float]:
    """RMS of each `size`-sample frame between the byte offsets `start` and `end`."""
    part = samples[start // 2:end // 2]
    return [math.sqrt(sum(v * v for v in part[i:i + size]) / size)
            for i in range(0, len(part) - size, size)]


def db(value: float) -> float:
    return 20 * math.log10(max(value, 1e-9) / 32767)


def test_while_words_play_the_crowd_stays_15_db_under_them_and_the_mix_never_clips(
        tmp_path: Path) -> None:
    with_crowd, mixed = played(tmp_path, 1.0)
    alone, speech_only = played(tmp_path, 0.0)
    assert with_crowd["notices"] == [] and alone["notices"] == []
    rate, channels = with_crowd["format"][0], with_crowd["format"][2]
    size = rate * channels // 50  # 20 ms frames
    marks = with_crowd["marks"]
    crowd = frame_rms(mixed, marks["alone"], marks["alone_end"], size)
    assert db(sum(crowd) / len(crowd)) > -45  # the crowd is really there when nobody speaks
    # Speech: its loudness where it is voiced (frames within 20 dB of its loudest), from the
    # run without a crowd.
    words = frame_rms(speech_only, alone["marks"]["speech"], alone["marks"]["speech_end"], size)
    voiced = [r for r in words if r >= max(words) / 10]
    speech_db = db(math.sqrt(sum(r * r for r in voiced) / len(voiced)))
    # The crowd while speech plays: the quietest tenth of the frames in the same window of the
    # run with the crowd (the gaps between words), an upper bound on the crowd alone.
    during = sorted(frame_rms(mixed, marks["speech"], marks["speech_end"], size))
    crowd_under_db = db(during[len(during) // 10])
    print(f"speech {speech_db:.1f} dBFS, crowd under it {crowd_under_db:.1f} dBFS, crowd alone "
          f"{db(sum(crowd) / len(crowd)):.1f} dBFS, mix peak {db(max(map(abs, mixed))):.1f} dBFS")
    assert speech_db - crowd_under_db >= 15.0, (speech_db, crowd_under_db)
    assert with_crowd["ducked"] < with_crowd["back"]  # ducked while words played, then back
    peak = max(abs(v) for v in mixed) / 32767
    assert 20 * math.log10(peak) <= -1.0, peak


def read_bed() -> tuple[list[array], int]:
    """The bed's channels, each on its own, and its rate."""
    with wave.open(io.BytesIO((sounds_dir() / "crowd.wav").read_bytes())) as wav:
        samples = array("h", wav.readframes(wav.getnframes()))
        channels, rate = wav.getnchannels(), wav.getframerate()
    return [samples[side::channels] for side in range(channels)], rate


def test_the_crowd_loops_without_a_seam_and_surrounds_the_listener() -> None:
    """On each side its last sample runs on into its first as neighbours do elsewhere in it,
    and the level either side of the join is the same. The two sides are two takes of the
    crowd, not one copied: a crowd all around, not in the middle."""
    sides, rate = read_bed()
    assert len(sides) == 2
    for samples in sides:
        assert len(samples) / rate >= 6  # long enough not to be heard repeating at once
        steps = sorted(abs(b - a) for a, b in itertools.pairwise(samples))
        assert abs(samples[0] - samples[-1]) <= steps[int(len(steps) * 0.99)]
        window = rate // 20
        before = math.sqrt(sum(v * v for v in samples[-window:]) / window)
        after = math.sqrt(sum(v * v for v in samples[:window]) / window)
        assert abs(db(before) - db(after)) < 3.0
    left, right = sides
    alike = sum(a * b for a, b in zip(left, right, strict=True))
    power = math.sqrt(sum(a * a for a in left) * sum(b * b for b in right))
    assert abs(alike / power) < 0.3  # little in common sample by sample


def midfield(number: int) -> GameState:
    return GameState(scores=(0, 0), drive=1, offense=Team.HOME, down=Down(number, 50, 60))


def test_the_crowd_is_heard_only_in_a_game_and_leans_in_on_third_down_and_near_a_goal() -> None:
    cues = RecordingCues()
    controls = AudioControls(RecordingSpeaker(), cues)
    controls.apply(Settings(crowd_volume=0.4))
    controls.follow(None)  # the title screen
    assert (cues.crowd, cues.tension) == (0.0, False)
    controls.follow(midfield(1))
    assert (cues.crowd, cues.tension) == (0.4, False)
    controls.follow(midfield(3))
    assert cues.tension
    controls.follow(fourth_down(30))
    assert cues.tension
    controls.follow(GameState(scores=(0, 0), drive=1, offense=Team.HOME,
                              down=Down(1, 95, 100)))  # first and goal
    assert cues.tension
    over = GameState(scores=(7, 0), drive=2, offense=None, down=None,
                     outcome=Outcome((7, 0), Team.HOME, GameEnd.BOTH_DRIVES))
    controls.follow(over)
    assert (cues.crowd, cues.tension) == (0.0, False)
    controls.apply(Settings(crowd_volume=0.0))  # the setting at 0: no crowd in a game either
    controls.follow(midfield(1))
    assert cues.crowd == 0.0


MONO_CHILD = """
import json, os, time
import pygame
from sudden_death.audio.system import open_audio
from sudden_death.ui.aids import field_tone
audio = open_audio()
audio.cues.set_mono(True)
audio.cues.set_crowd(1.0)
time.sleep(0.3)
audio.cues.play_tone(field_tone.sweep_wav(10, 90, mono=True), "sweep")
audio.cues.play("touchdown")
audio.speaker.say("Touchdown, Hawks!")
time.sleep(1.5)
audio.close()
print(json.dumps({"format": None, "notices": audio.notices}))
"""


def test_mono_sound_gives_both_ears_the_same_on_the_mixed_output(tmp_path: Path) -> None:
    """With Mono sound on, the stereo crowd, a sweep across the field, a cue and speech
    together: every frame the device played has the same left and right (the disk driver)."""
    report, samples = play_on_disk(tmp_path, MONO_CHILD, name="mono.raw")
    assert report["notices"] == []
    assert max(samples) > 3000  # all of it was really played
    assert samples[0::2] == samples[1::2]


def test_the_crowd_roars_for_the_players_news_and_hushes_for_the_others() -> None:
    """The bed answers a side's news (the cue that tells it) on the real mixer's channels: up
    for the player's, down for the other side's, nothing for the rest. Under the words that
    tell it, it stays ducked; the answer lasts REACTION_S once they are over, then it
    settles back to the player's level."""
    import pygame

    from sudden_death.audio.crowd import REACTION_S, REACTIONS_DB, Crowd
    from sudden_death.audio.levels import MIX_HEADROOM
    from sudden_death.audio.system import CROWD_CHANNEL, SPEECH_CHANNEL, open_audio

    audio = open_audio(speech=False)  # the game's own mixer set-up and reserved channels
    try:
        bed = pygame.mixer.Sound(buffer=bytes(4 * 4410))
        words = pygame.mixer.Sound(buffer=b"\x10\x00" * 2 * 44100 * 5)  # 5 s "of speech"
        speech = pygame.mixer.Channel(SPEECH_CHANNEL)
        crowd = Crowd(bed, pygame.mixer.Channel(CROWD_CHANNEL), speech)
        crowd.set_level(0.5)
        settled = crowd.gain
        assert settled == pytest.approx(0.5 * MIX_HEADROOM, abs=0.01)

        def db_from_settled() -> float:  # the mixer keeps volumes in 128 steps: within 0.8
            return 20 * math.log10(crowd.gain / settled)

        crowd.react("menu_move", now=10.0)  # not news
        assert crowd.gain == settled
        crowd.react("touchdown", now=10.0)  # the player's score: a roar
        assert db_from_settled() == pytest.approx(REACTIONS_DB["touchdown"], abs=0.8)
        crowd.tick(now=10.0 + REACTION_S - 0.1)
        assert db_from_settled() > 5
        crowd.tick(now=10.0 + REACTION_S + 0.1)
        assert crowd.gain == pytest.approx(settled, abs=0.005)  # and it settles

        crowd.react("touchdown_theirs", now=20.0)  # theirs: the home crowd goes quiet
        assert db_from_settled() == pytest.approx(REACTIONS_DB["touchdown_theirs"], abs=0.8)
        speech.play(words)  # the words that tell it: ducked under them, answer held
        crowd.duck()
        ducked = crowd.gain
        assert ducked < settled
        crowd.tick(now=40.0)  # long past, but the words still play
        assert crowd.reaction_db == REACTIONS_DB["touchdown_theirs"]
        speech.stop()
        crowd.tick(now=41.0)  # the words are over: the hush is heard now
        assert db_from_settled() == pytest.approx(REACTIONS_DB["touchdown_theirs"], abs=0.8)
        crowd.tick(now=41.0 + REACTION_S + 0.1)
        assert crowd.gain == pytest.approx(settled, abs=0.005)
        crowd.close()
    finally:
        audio.close()
