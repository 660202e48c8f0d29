"""Proof that speech is really played: SDL's `disk` audio driver writes every sample the device
played to a file. Runs in a subprocess because one process gets one mixer and one engine."""

from __future__ import annotations

from pathlib import Path

from audio_helpers import play_on_disk

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, time
import pygame
from sudden_death.audio.system import SPEECH_CHANNEL, open_audio
audio = open_audio(sound=False)
mixer_format = pygame.mixer.get_init()
lengths = []
audio.speech.add_playback_listener(
    lambda text, when: lengths.append(pygame.mixer.Channel(SPEECH_CHANNEL).get_sound().get_length())
)
audio.speaker.say("Touchdown, home team.", interrupt=False)
finished = audio.speech.wait_idle(10)
time.sleep(0.15)  # let the device drain its last buffers into the file
audio.close()
print(json.dumps({"format": mixer_format, "lengths": lengths, "finished": finished,
                  "notices": audio.notices}))
"""


def test_speech_samples_reach_the_audio_device(tmp_path: Path) -> None:
    report, samples = play_on_disk(tmp_path, CHILD)
    assert report["notices"] == [] and report["finished"]
    assert report["format"][1] == -16  # signed 16-bit, as the mixer asked for
    rate, channels = report["format"][0], report["format"][2]
    (utterance,) = report["lengths"]
    played = len(samples) / channels / rate
    assert played >= utterance * 0.9  # the whole utterance went through the device
    loud = [abs(v) > 2000 for v in samples]
    voiced = sum(loud) / channels / rate
    assert voiced > 0.1  # well over a tenth of a second of clearly audible speech


LOUD_CHILD = """
import json, time
import pygame
from sudden_death.audio.system import SPEECH_CHANNEL, open_audio
audio = open_audio()
audio.speaker.set_volume(1.0)
audio.cues.set_volume(1.0)
line = ("The quarterback takes the snap, drops back, looks left, looks right and throws deep "
        "down the sideline toward the end zone, where two receivers race the safety.")
speech = pygame.mixer.Channel(SPEECH_CHANNEL)
audio.speaker.say(line)
deadline = time.monotonic() + 20
while not speech.get_busy() and time.monotonic() < deadline:
    time.sleep(0.005)
under = []  # each cue, and whether the speech was still playing when it started and ended
for name in ("touchdown", "dice", "punt", "big_play", "coin", "game_won"):
    started = speech.get_busy()
    audio.cues.play(name)  # one at a time, each under the speech
    time.sleep(0.9)
    under.append([name, started and speech.get_busy()])
audio.speech.wait_idle(20)
time.sleep(0.15)
audio.close()
print(json.dumps({"format": pygame.mixer.get_init() or [0, 0, 0], "notices": audio.notices,
                  "under": under}))
"""


def test_a_cue_under_speech_never_clips_at_full_volumes(tmp_path: Path) -> None:
    """Every mixed sample of loud cues over speech, both at full volume, stays under full scale
    (levels.MIX_HEADROOM); the mix is also really loud, so the headroom is not silence."""
    report, samples = play_on_disk(tmp_path, LOUD_CHILD)
    assert report["notices"] == []
    # The precondition, checked: every cue was mixed under the speech, start to end, so the
    # loudest overlap was really played (a late engine would otherwise pass with no overlap).
    assert all(under for _name, under in report["under"]), report["under"]
    peak = max(abs(v) for v in samples)
    assert 16000 < peak < 32767, peak


DICE_CHILD = """
import json, time
from array import array
import pygame
from sudden_death.audio.system import open_audio
audio = open_audio(speech=False, sound=True)
cues = audio.cues
roll = cues._compose_dice((3, 5))
freq, size, channels = pygame.mixer.get_init()
time.sleep(0.2)
import threading
threads = threading.active_count()
cues.play_dice([3, 5], then="touchdown")
added = threading.active_count() - threads
time.sleep(roll.get_length() + 0.8)
raw, volume = list(array("h", roll.get_raw())), roll.get_volume()
audio.close()
print(json.dumps({"roll": raw, "volume": volume, "channels": channels, "freq": freq,
                  "notices": audio.notices, "threads_added": added}))
"""


def test_a_rolls_result_cue_starts_as_the_last_click_ends(tmp_path: Path) -> None:
    """What the device played: the roll alone (nothing of the result cue under it), then the
    result cue straight after, queued on the roll's channel (no timer thread)."""
    facts, played = play_on_disk(tmp_path, DICE_CHILD)
    assert facts["notices"] == []
    assert facts["threads_added"] == 0  # a timer per roll outlived fast scripted games
    roll = [round(v * facts["volume"]) for v in facts["roll"]]
    start = next(i for i, v in enumerate(played) if v != 0)
    offset = start - next(i for i, v in enumerate(roll) if v != 0)
    under_roll = played[offset: offset + len(roll)]
    assert max(abs(a - b) for a, b in zip(under_roll, roll, strict=True)) <= 4
    after = played[offset + len(roll): offset + len(roll) + facts["freq"] * facts["channels"] // 4]
    assert max(abs(v) for v in after) > 2000  # the result cue, at once
