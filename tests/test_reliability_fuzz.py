"""Key fuzz: hundreds of seeded games of hostile keys through the real loop, headless.

Every key in SPEC plus letters, function keys, odd keys, typed text, key-repeat floods and
Escape storms. Zero crashes: the loop's safety net (apology + traceback) must never fire, nothing
may reach stderr, engine invariants hold after every batch of events, and each launch ends with
its games over (`Final score` spoken) and the app still answering a last S.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from recording import RecordingCues, RecordingSpeaker
from reliability_helpers import FuzzSource, make_tracking_app, said_as

from sudden_death.audio.protocols import Message
from sudden_death.audio.speech import SpeechService
from sudden_death.ui.run import loop as loop_module
from sudden_death.ui.run.cli import Options
from sudden_death.ui.run.loop import APOLOGY, run_app

LAUNCHES = 25
GAMES_PER_LAUNCH = 8  # 200 games in all, each launch using the play-again loop
MAX_STEPS = 12_000  # per launch; far more than 8 steered games need


def fuzz_launch(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: int, games: int,
                speaker: RecordingSpeaker | None = None, cues: RecordingCues | None = None,
                hostile: float = 0.45, on_step: Callable[[Any], None] | None = None,
                ) -> tuple[FuzzSource, list[Message]]:
    """One launch of the app driven by a FuzzSource; returns the source and what was said."""
    source = FuzzSource(random.Random(seed), games, MAX_STEPS, hostile=hostile, on_step=on_step)
    heard: list[Message] = []
    monkeypatch.setattr(loop_module, "App", make_tracking_app(loop_module.App, source, heard))
    monkeypatch.setattr(loop_module, "_key_source", lambda _keys: source)
    options = Options(seed=seed, headless=True, keys="fuzz", config=tmp_path / f"cfg{seed}")
    assert run_app(options, speaker=speaker, cues=cues) == 0
    return source, heard


def check_launch(source: FuzzSource, heard: list[Message], games: int) -> None:
    texts = [m.text for m in heard]
    assert not set(said_as(APOLOGY)) & set(texts), "the loop's safety net caught an exception"
    assert not set(said_as("Goodbye.")) & set(texts), "the fuzz must not quit the app"
    assert source.finished_by == "games", (source.steps, source.watcher.games_over)
    assert source.watcher.games_over >= games
    final = said_as("Final score: {score}.")
    finals = sum(1 for m in heard if m.category == "game_over" and m.text.startswith(final))
    assert finals == source.watcher.games_over, "every game over is announced"
    assert heard[-1].category == "info", heard[-1]  # the closing S was answered
    assert texts[-1].startswith(said_as("Score: {score}.")), texts[-1]


@pytest.mark.soak
def test_two_hundred_fuzzed_games_never_crash(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              capfd: pytest.CaptureFixture[str]) -> None:
    threads = threading.active_count()
    total_games = total_keys = 0
    for launch in range(LAUNCHES):
        seed = 1000 * launch + 17
        speaker, cues = RecordingSpeaker(), RecordingCues()
        source, heard = fuzz_launch(monkeypatch, tmp_path, seed, GAMES_PER_LAUNCH, speaker, cues)
        check_launch(source, heard, GAMES_PER_LAUNCH)
        total_games += source.watcher.games_over
        total_keys += source.keys_posted
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err and "Error" not in captured.err, captured.err[-2000:]
    assert total_games >= 200
    assert total_keys >= 200 * 100  # hundreds of keys a game, floods included
    assert threading.active_count() == threads
    print(f"fuzz: {total_games} games, {total_keys} key presses")


def test_fuzzed_games_with_real_speech_keys_during_speech(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
        capfd: pytest.CaptureFixture[str]) -> None:
    """The real audio layer (eSpeak NG through the mixer, dummy device): keys land while
    utterances are being synthesized and played; nothing hangs and no fault is reported."""
    threads = {t.name for t in threading.enumerate()}
    pauses = random.Random(5)
    seen: dict[str, object] = {}

    def now_and_then_listen(app: loop_module.App) -> None:
        seen["speaker"] = app.speaker.voice  # the built-in voice behind the speech output
        if pauses.random() < 0.08:
            time.sleep(0.04)  # long enough for an utterance to start playing, then a key cuts it

    source, heard = fuzz_launch(monkeypatch, tmp_path, 4242, 2, hostile=0.45,
                                on_step=now_and_then_listen)
    check_launch(source, heard, 2)
    speaker = seen["speaker"]
    assert isinstance(speaker, SpeechService), "the real speech service must be under test"
    assert speaker.synth_count > 20 and not speaker.worker_alive
    texts = [m.text for m in heard]
    assert not any("could not be synthesized" in t for t in texts), texts
    assert {t.name for t in threading.enumerate()} <= threads, "a thread outlived the game"
    captured = capfd.readouterr()
    assert "Traceback" not in captured.err, captured.err[-2000:]
