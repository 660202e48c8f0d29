"""pygame is called from the loop's thread only: a seeded game played with the real speech
and cues (headless SDL drivers) starts every cue, roll, sweep, field tone and rumble on the
thread that runs the loop. Only the speech worker's own words, on the speech channel, are
played from its thread. A result's sounds used to be started by the speech worker (the line's
`on_start`), and pygame called from two threads has crashed the process; now the worker hands
them to the loop through its Wake."""

from __future__ import annotations

import io
import threading
import time
from pathlib import Path
from typing import Any

import pygame
import pytest
from game_script import plan_game

from sudden_death.audio import system as audio_system
from sudden_death.audio.system import SPEECH_CHANNEL
from sudden_death.ui.run import loop as loop_module
from sudden_death.ui.run import wake as wake_module
from sudden_death.ui.run.cli import Options
from sudden_death.ui.run.key_script import KeySource, parse_step
from sudden_death.ui.run.pads import Pads

SEED = 7
KEY_GAP_S = 0.03  # between the script's keys: the worker has lines to start meanwhile
QUIET_WAIT_S = 30.0  # at the end, the longest the words still queued may take


class Calls:
    """Who made each watched call: (what, thread id, thread name)."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, int, str]] = []
        self._lock = threading.Lock()

    def note(self, what: str) -> None:
        thread = threading.current_thread()
        with self._lock:
            self.seen.append((what, threading.get_ident(), thread.name))


def watch(monkeypatch: pytest.MonkeyPatch, calls: Calls) -> None:
    """Every sound played, every channel started or queued, every rumble and every call handed
    to the loop is noted with its thread."""

    class WatchedSound(pygame.mixer.Sound):
        def play(self, *args: Any, **kwargs: Any) -> Any:
            calls.note("Sound.play")
            return super().play(*args, **kwargs)

    class WatchedChannel(pygame.mixer.Channel):
        def play(self, *args: Any, **kwargs: Any) -> Any:
            calls.note(f"Channel({self.id}).play")
            return super().play(*args, **kwargs)

        def queue(self, *args: Any, **kwargs: Any) -> Any:
            calls.note(f"Channel({self.id}).queue")
            return super().queue(*args, **kwargs)

    cue_heard = Pads.cue_heard
    post = wake_module.Wake.post

    def rumble(pads: Pads, name: str) -> None:
        calls.note("Pads.cue_heard")  # where a cue's rumble reaches the controllers
        cue_heard(pads, name)

    def handed(wake: wake_module.Wake, call: Any) -> None:
        calls.note("Wake.post")
        post(wake, call)

    monkeypatch.setattr(pygame.mixer, "Sound", WatchedSound)
    monkeypatch.setattr(pygame.mixer, "Channel", WatchedChannel)
    monkeypatch.setattr(Pads, "cue_heard", rumble)
    monkeypatch.setattr(wake_module.Wake, "post", handed)


def test_a_whole_game_calls_pygame_from_the_loops_thread_only(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = Calls()
    watch(monkeypatch, calls)
    keys, _events = plan_game(SEED)
    source = KeySource(live=True)
    monkeypatch.setattr(loop_module, "_key_source", lambda _keys: source)
    opened: list[Any] = []
    open_audio = audio_system.open_audio

    def keep(**kwargs: Any) -> Any:
        audio = open_audio(**kwargs)
        opened.append(audio)
        return audio

    monkeypatch.setattr(audio_system, "open_audio", keep)

    def player() -> None:
        """The keys at a player's pace, then time for the last words before the end."""
        for line in keys:
            step = parse_step(line)
            if step is not None:
                source.put(step)
            time.sleep(KEY_GAP_S)
        deadline = time.monotonic() + QUIET_WAIT_S
        while time.monotonic() < deadline:
            speech = opened[0].speech if opened else None
            if speech is None or (source.empty() and not speech.is_speaking()):
                break
            time.sleep(0.1)
        source.put(None)

    threading.Thread(target=player, daemon=True).start()
    loop_thread = threading.get_ident()
    options = Options(seed=SEED, headless=True, keys="-", config=tmp_path / "cfg")
    assert loop_module.run_app(options) == 0
    assert opened and opened[0].speech is not None, "the real speech service spoke"

    speech_channel = f"Channel({SPEECH_CHANNEL})."
    words = [seen for seen in calls.seen if seen[0].startswith(speech_channel)]
    assert any(name == "speech-worker" for _what, _ident, name in words), \
        "the worker started words itself"
    handed = [seen for seen in calls.seen if seen[0] == "Wake.post"]
    assert handed and all(name == "speech-worker" for _what, _ident, name in handed), \
        "lines with sounds were started by the worker, and their sounds handed over"
    sounds = [seen for seen in calls.seen
              if seen[0] != "Wake.post" and not seen[0].startswith(speech_channel)]
    assert len([s for s in sounds if s[0] == "Sound.play"]) > 20, sounds  # cues and rolls
    assert any(what == "Pads.cue_heard" for what, _ident, _name in sounds)
    off_loop = [seen for seen in sounds if seen[1] != loop_thread]
    assert off_loop == []


def test_the_wake_runs_what_other_threads_post_on_the_loops_own_thread(
        capsys: pytest.CaptureFixture[str]) -> None:
    wake = wake_module.Wake()
    assert not wake.wait(0.01)  # nothing yet: the timeout passes
    ran: list[int] = []

    def fails() -> None:
        raise RuntimeError("a broken sound")

    def post_both() -> None:
        wake.post(fails)
        wake.post(lambda: ran.append(threading.get_ident()))

    poster = threading.Thread(target=post_both)
    poster.start()
    poster.join()
    assert wake.wait(5.0)  # woken at once
    assert wake.run_posted() == 2  # the failing one is printed, and the next still made
    assert ran == [threading.get_ident()]
    assert "a broken sound" in capsys.readouterr().err
    assert not wake.is_set()  # lowered as the turn began
    wake.set()
    assert wake.is_set() and wake.wait(0)  # raised during a turn: the next wait ends at once


def test_the_stdin_reader_wakes_the_loop_and_leaves_key_names_to_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from sudden_death.ui.run import key_script
    from sudden_death.ui.run.key_script import Step, StepError

    looked_up: list[int] = []
    code = key_script._code

    def watched(name: str) -> int:
        looked_up.append(threading.get_ident())
        return code(name)

    monkeypatch.setattr(key_script, "_code", watched)
    wake = wake_module.Wake()
    source = KeySource.from_stdin(io.BytesIO(b"tab\nfrobnicate\n"), woken=wake.set)
    assert wake.wait(5.0)
    steps = []
    while (step := source.next(5)) is not None:
        steps.append(step)
    assert steps == [Step(key="tab"), StepError("line 2: unknown key name 'frobnicate'")]
    assert looked_up and set(looked_up) == {threading.get_ident()}  # here, not on the reader


def test_the_tables_link_raises_the_wake_when_news_arrives() -> None:
    from sudden_death.net.link import TableLink
    from sudden_death.net.news import Lost
    from sudden_death.wire import protocol as p

    wake = threading.Event()  # an Alarm: anything with set()
    link = TableLink("ws://127.0.0.1:9", p.Join(p.PROTOCOL_VERSION, "123456", "Bears"),
                     wake=wake)
    link.start()
    try:
        assert wake.wait(10.0)  # the line could not be made: said at once, not polled for
        assert any(isinstance(news, Lost) for news in link.poll())
    finally:
        link.close()
