"""The speech output setting: the built-in voice, the player's screen reader, or both. These
tests use a recording voice and a fake screen reader that keeps what it was sent; the real
speech-dispatcher and BRLTTY are in test_screen_reader_linux.py, Prism's readers
(faked: they need Windows) in test_prism_output.py."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from app_driver import press, started_app
from audio_helpers import wait_for
from recording import RecordingSpeaker

from sudden_death.audio import reader_link
from sudden_death.audio.protocols import Message, Priority
from sudden_death.audio.reader_base import NoScreenReader
from sudden_death.audio.speech_output import (
    BOTH,
    BRAILLE,
    BUILTIN,
    SCREEN_READER,
    OutputNews,
    ReaderNews,
    SpeechOutput,
)
from sudden_death.storage.settings import Settings, from_mapping, load_settings
from sudden_death.ui.app import App

ROOT = Path(__file__).resolve().parent.parent


class FakeReader:
    """A screen reader that keeps what it was sent; `speaking_alert` plays its part of saying
    whether a result is still being spoken."""

    name = "Fake Reader"

    def __init__(self, braille_notice: str | None = None, fail_after: int | None = None) -> None:
        self.braille_notice = braille_notice
        self.spoken: list[tuple[str, bool, bool]] = []  # text, interrupt, alert
        self.brailled: list[str] = []
        self.cancels = 0
        self.closed = False
        self.speaking_alert = False
        self.fail_after = fail_after

    def speak(self, text: str, *, interrupt: bool, alert: bool) -> None:
        if self.fail_after is not None and len(self.spoken) >= self.fail_after:
            raise OSError("the screen reader quit")
        self.spoken.append((text, interrupt, alert))
        if interrupt:
            self.speaking_alert = False
        self.speaking_alert = self.speaking_alert or alert

    def braille(self, text: str) -> None:
        self.brailled.append(text)

    def cancel(self) -> None:
        self.cancels += 1
        self.speaking_alert = False

    def alert_speaking(self) -> bool:
        return self.speaking_alert

    def close(self) -> None:
        self.closed = True


def make_output(reader: FakeReader | None = None) -> tuple[SpeechOutput, RecordingSpeaker,
                                                            list[Message]]:
    voice = RecordingSpeaker()

    def find() -> FakeReader:
        if reader is None:
            raise NoScreenReader("no screen reader is running")
        return reader

    output = SpeechOutput(voice, find)
    heard: list[Message] = []
    output.add_listener(heard.append)
    return output, voice, heard


def news(output: SpeechOutput) -> list[OutputNews]:
    """What the output has to tell once its reader has answered and taken what was sent."""
    assert output.wait_settled(5.0)
    return output.poll()


def first_news(output: SpeechOutput) -> list[OutputNews]:
    """The first news the output has by itself (within 5 s): a reader it gave up on, say."""
    told: list[OutputNews] = []

    def has_news() -> bool:
        told.extend(output.poll())
        return bool(told)

    wait_for(has_news)
    return told


def sent(output: SpeechOutput, reader: FakeReader) -> list[tuple[str, bool, bool]]:
    assert output.wait_settled(5.0)
    return reader.spoken


def test_the_built_in_voice_is_the_default_and_asks_no_screen_reader() -> None:
    asked: list[str] = []
    voice = RecordingSpeaker()

    def find() -> FakeReader:
        asked.append("asked")
        return FakeReader()

    output = SpeechOutput(voice, find)
    assert Settings().speech_output == BUILTIN and output.output == BUILTIN
    output.set_output(BUILTIN)
    output.say("Coin toss.")
    assert news(output) == []
    assert [m.text for m in voice.spoken] == ["Coin toss."] and asked == []


def test_braille_only_shows_every_line_and_speaks_none_and_listeners_hear_each() -> None:
    reader = FakeReader()
    output, voice, heard = make_output(reader)
    output.set_output(BRAILLE)
    assert [n.news for n in news(output)] == [ReaderNews.CONNECTED]
    assert output.output == BRAILLE
    output.say("Touchdown, Hawks!", priority=Priority.ALERT)
    output.say("Play again, 1 of 2")
    output.silence()  # Control: nothing is being said, and the display keeps its line
    assert output.wait_settled(5.0)
    assert reader.brailled == ["Touchdown, Hawks!", "Play again, 1 of 2"]
    assert reader.spoken == [] and reader.cancels == 0 and voice.spoken == []
    assert [m.text for m in heard] == ["Touchdown, Hawks!", "Play again, 1 of 2"]


def test_braille_only_without_a_display_says_why_and_the_voice_goes_on() -> None:
    reader = FakeReader(braille_notice="no braille display answers through BRLTTY")
    output, voice, _heard = make_output(reader)
    output.set_output(BRAILLE)
    told = news(output)
    assert [n.news for n in told] == [ReaderNews.CONNECTED]
    assert output.poll() == [OutputNews(ReaderNews.NO_BRAILLE,
                                        reason="no braille display answers through BRLTTY")]
    assert output.output == BUILTIN  # the words still go somewhere
    output.say("Coin toss.")
    assert [m.text for m in voice.spoken] == ["Coin toss."] and reader.brailled == []
    output.set_output(SCREEN_READER)  # the same reader, for speech: it is used at once
    assert output.output == SCREEN_READER
    output.set_output(BRAILLE)
    assert output.output == BUILTIN and output.poll()[0].news is ReaderNews.NO_BRAILLE


def test_screen_reader_output_sends_speech_and_braille_and_silences_the_voice() -> None:
    reader = FakeReader()
    output, voice, heard = make_output(reader)
    output.set_output(SCREEN_READER)
    assert news(output) == [OutputNews(ReaderNews.CONNECTED, reader="Fake Reader")]
    started: list[str] = []
    output.say("Sacked! A loss of 7 yards.", priority=Priority.ALERT, category="result",
               on_start=lambda: started.append("dice and sack cue"))
    assert voice.spoken == []
    assert sent(output, reader) == [("Sacked! A loss of 7 yards.", True, True)]
    assert reader.brailled == ["Sacked! A loss of 7 yards."]
    assert started == ["dice and sack cue"]  # the cues still play, through pygame
    assert heard == [Message("Sacked! A loss of 7 yards.", Priority.ALERT, "result")]


def test_the_built_in_voice_speaks_until_the_reader_has_answered() -> None:
    """Choosing the reader never waits for it: the words meanwhile are the voice's."""
    answer = threading.Event()
    reader = FakeReader()

    def slow() -> FakeReader:
        answer.wait(10)
        return reader

    voice = RecordingSpeaker()
    output = SpeechOutput(voice, slow)
    output.set_output(SCREEN_READER)
    assert output.connecting and output.asking
    output.say("Coin toss: heads or tails?")
    assert [m.text for m in voice.spoken] == ["Coin toss: heads or tails?"]
    assert output.poll() == []  # nothing to tell while it has not answered
    answer.set()
    assert news(output)[0].news is ReaderNews.CONNECTED and not output.connecting
    output.say("Heads, 1 of 2")
    assert sent(output, reader) == [("Heads, 1 of 2", True, False)]
    assert len(voice.spoken) == 1


def test_both_outputs_speak_every_message_and_listeners_hear_it_once() -> None:
    reader = FakeReader()
    output, voice, heard = make_output(reader)
    output.set_output(BOTH)
    news(output)
    for text in ("Your cards.", "Scatback, 1 of 4", "Final calls: Draw against Blitz."):
        output.say(text)
    texts = ["Your cards.", "Scatback, 1 of 4", "Final calls: Draw against Blitz."]
    assert [m.text for m in voice.spoken] == texts
    assert [spoken[0] for spoken in sent(output, reader)] == texts
    assert [m.text for m in heard] == texts  # history, repeat and the window: once each


def test_a_focus_move_never_cuts_a_result_on_the_screen_reader() -> None:
    reader = FakeReader()
    output, _voice, _heard = make_output(reader)
    output.set_output(SCREEN_READER)
    news(output)
    output.say("Intercepted by the Bears!", priority=Priority.ALERT)
    output.say("Play again, 1 of 2", interrupt=True)  # a focus move while the result waits
    assert sent(output, reader)[-1] == ("Play again, 1 of 2", False, False)  # queued, not cut
    output.say("Touchdown!", priority=Priority.ALERT, interrupt=True)
    assert sent(output, reader)[-1] == ("Touchdown!", True, True)  # a result cuts anything
    reader.speaking_alert = False  # it has been said
    output.say("Quit, 2 of 2", interrupt=True)
    assert sent(output, reader)[-1] == ("Quit, 2 of 2", True, False)
    output.say("Ball on your own 30.", interrupt=False)
    assert sent(output, reader)[-1] == ("Ball on your own 30.", False, False)


def test_silence_cuts_the_screen_reader_too() -> None:
    reader = FakeReader()
    output, voice, _heard = make_output(reader)
    output.set_output(BOTH)
    news(output)
    output.silence()
    sent(output, reader)
    assert reader.cancels == 1 and voice.silenced == 1


def test_no_screen_reader_means_the_built_in_voice_goes_on_and_says_why() -> None:
    output, voice, heard = make_output(None)
    output.set_output(SCREEN_READER)
    assert news(output) == [OutputNews(ReaderNews.REFUSED, reason="no screen reader is running")]
    assert output.output == BUILTIN and not output.connecting
    output.say("Coin toss.")
    assert [m.text for m in voice.spoken] == ["Coin toss."] and len(heard) == 1


def test_a_screen_reader_is_looked_for_once_per_choice() -> None:
    """Set at launch and again by the saved settings, or unchanged by another setting: one
    search, one piece of news; choosing it anew searches again."""
    searches: list[str] = []

    def find() -> FakeReader:
        searches.append("searched")
        raise NoScreenReader("no screen reader is running")

    output = SpeechOutput(RecordingSpeaker(), find)
    output.set_output(SCREEN_READER)
    output.set_output(SCREEN_READER)
    assert len(news(output)) == 1
    assert searches == ["searched"] and output.output == BUILTIN
    output.set_output(BUILTIN)
    output.set_output(SCREEN_READER)
    assert len(news(output)) == 1 and len(searches) == 2


def test_a_client_library_failing_oddly_is_no_screen_reader_either(
        caplog: pytest.LogCaptureFixture) -> None:
    def broken() -> FakeReader:
        raise AttributeError("module 'speechd' has no attribute 'SSIPClient'")

    output = SpeechOutput(RecordingSpeaker(), broken)
    output.set_output(BOTH)
    assert news(output) == [OutputNews(ReaderNews.REFUSED)]  # no library words for the player
    assert output.output == BUILTIN
    assert "has no attribute 'SSIPClient'" in caplog.text  # they go to the log


def test_a_screen_reader_that_stops_answering_hands_over_to_the_voice() -> None:
    reader = FakeReader(fail_after=1)
    output, voice, heard = make_output(reader)
    output.set_output(SCREEN_READER)
    news(output)
    output.say("Coin toss.")
    output.say("Heads, 1 of 2")
    assert news(output) == [OutputNews(ReaderNews.LOST)]
    assert output.output == BUILTIN and reader.closed
    assert [m.text for m in voice.spoken] == ["Heads, 1 of 2"]  # the lost words, by the voice
    assert [m.text for m in heard] == ["Coin toss.", "Heads, 1 of 2"]  # nothing said twice


def test_a_reader_that_accepts_and_never_answers_is_let_go_and_said_to_be_silent() -> None:
    """speech-dispatcher whose audio failed accepts the connection and never replies: after
    the time to answer, the game says so and speaks on; the stuck thread is left behind."""
    never = threading.Event()

    def mute() -> FakeReader:
        never.wait(30)
        return FakeReader()

    voice = RecordingSpeaker()
    output = SpeechOutput(voice, mute, connect_seconds=0.2)
    output.set_output(SCREEN_READER)
    told = first_news(output)
    assert told == [OutputNews(ReaderNews.SILENT)]
    assert output.output == BUILTIN and not output.connecting
    output.say("Coin toss.")
    assert [m.text for m in voice.spoken] == ["Coin toss."]
    never.set()


def test_a_reader_that_hangs_in_a_request_mid_game_is_let_go_and_the_voice_says_it() -> None:
    hang = threading.Event()
    reader = FakeReader()
    slow_speak = reader.speak

    def speak(text: str, *, interrupt: bool, alert: bool) -> None:
        if text == "Heads, 1 of 2":
            hang.wait(30)
        slow_speak(text, interrupt=interrupt, alert=alert)

    reader.speak = speak  # type: ignore[method-assign]
    voice = RecordingSpeaker()
    output = SpeechOutput(voice, lambda: reader, call_seconds=0.2)
    output.set_output(SCREEN_READER)
    news(output)
    output.say("Heads, 1 of 2")
    told = first_news(output)
    assert told == [OutputNews(ReaderNews.LOST)]
    assert output.output == BUILTIN
    assert [m.text for m in voice.spoken] == ["Heads, 1 of 2"]
    hang.set()


def test_braille_missing_is_said_once_and_speech_still_goes_to_the_reader() -> None:
    reader = FakeReader(braille_notice="no braille display answers through BRLTTY")
    output, _voice, _heard = make_output(reader)
    output.set_output(SCREEN_READER)
    assert news(output) == [OutputNews(ReaderNews.CONNECTED, reader="Fake Reader",
                                       braille="no braille display answers through BRLTTY")]
    output.set_output(BOTH)
    assert news(output) == []  # the same reader, not asked again
    assert output.reader_name == "Fake Reader"
    output.set_output(BUILTIN)
    assert wait_for(lambda: reader.closed)  # closed on the reader's own thread
    assert output.reader_name is None


def test_the_voice_settings_still_reach_the_built_in_voice() -> None:
    output, voice, _heard = make_output(FakeReader())
    output.set_rate(260)
    assert voice.rate == 260 and output.rate_range == voice.rate_range


def test_the_setting_is_saved_and_a_bad_value_falls_back() -> None:
    assert from_mapping({"speech_output": "screen_reader"}).speech_output == SCREEN_READER
    assert from_mapping({"speech_output": "braille please"}).speech_output == BUILTIN
    assert from_mapping({"speech_output": 3}).speech_output == BUILTIN


# -- in the settings menu ----------------------------------------------------------------------


def make_app(tmp_path: Path, reader: FakeReader | None) -> tuple[App, RecordingSpeaker,
                                                                   SpeechOutput]:
    output, voice, _heard = make_output(reader)
    return started_app(tmp_path, output, seed=1), voice, output


def answered(app: App, output: SpeechOutput) -> None:
    """Let the reader answer, and the app hear of it, as a turn of the game loop does."""
    assert output.wait_settled(5.0)
    app.tick()


def test_changing_the_output_is_heard_at_once_and_confirmed_by_the_new_output(
        tmp_path: Path) -> None:
    reader = FakeReader()
    app, voice, output = make_app(tmp_path, reader)
    press(app, "o", "end", "up", "up", "up", "up")  # Done, Reset, Report, Keys, then output
    assert voice.spoken[-1].text == "Speech output: built-in voice"
    press(app, "right")
    assert voice.spoken[-1].text == "Speech output: screen reader, connecting"  # at once
    answered(app, output)
    assert output.output == SCREEN_READER
    assert sent(output, reader)[-1][0] == "Speech output: screen reader, Fake Reader"
    assert voice.spoken[-1].text == "Speech output: screen reader, connecting"  # voice quiet
    press(app, "right")
    assert output.output == BOTH
    both = "Speech output: both, the built-in voice and the screen reader, Fake Reader"
    assert sent(output, reader)[-1][0] == both and voice.spoken[-1].text == both
    press(app, "right")  # braille only: the line shown, none spoken
    only = ("Speech output: braille only, every line on your braille display and none "
            "spoken, Fake Reader")
    assert output.wait_settled(5.0)
    assert output.output == BRAILLE and reader.brailled[-1] == only
    assert voice.spoken[-1].text == both and sent(output, reader)[-1][0] == both
    press(app, "space")  # cycles round to the built-in voice
    assert output.output == BUILTIN and output.reader_name is None
    assert load_settings(tmp_path)[0].speech_output == BUILTIN


def test_choosing_a_screen_reader_that_is_not_there_says_so_in_the_voice(
        tmp_path: Path) -> None:
    app, voice, output = make_app(tmp_path, None)
    press(app, "o", "end", "up", "up", "up", "up", "right")
    answered(app, output)
    said = [m.text for m in voice.spoken[-2:]]
    assert said == [
        "Speech output: screen reader, connecting",
        "No screen reader answered: no screen reader is running. The built-in voice goes on."]
    assert output.output == BUILTIN
    assert app.top.menu.describe().startswith(  # the line shows it too
        "Speech output: screen reader, not answering, so the built-in voice speaks")
    assert load_settings(tmp_path)[0].speech_output == SCREEN_READER  # tried again next time
    press(app, "left", "right")  # asked again: said again, not swallowed as a repeat
    answered(app, output)
    assert voice.spoken[-1].text.startswith("No screen reader answered")


# -- the real game, without a screen reader here ------------------------------------------------


def test_the_game_without_speech_dispatchers_client_says_so_and_plays_on(tmp_path: Path) -> None:
    """A saved choice of the screen reader on a system without python3-speechd: the game
    starts in its own voice, says why, and plays."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"version": 1,
                                                      "speech_output": "screen_reader"}))
    empty = tmp_path / "no-system-python"
    empty.mkdir()
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "SUDDEN_DEATH_SYSTEM_PYTHON_PATH": str(empty)}
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", "1",
         "--keys", "-", "--transcript", "-", "--config", str(config)],
        input="return\ntype Hawks\nreturn\nreturn\n", capture_output=True, text=True,
        env=env, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    said = [json.loads(line).get("text") for line in result.stdout.splitlines()
            if '"speech"' in line]
    notice = ("No screen reader answered: speech-dispatcher's Python client is not installed "
              "(the python3-speechd package). The built-in voice goes on.")
    if sys.platform.startswith("linux"):
        assert said.count(notice) == 1  # said once, though the output is set at launch
    assert any(text and text.startswith("Coin toss") for text in said)


def test_reader_modules_are_not_loaded_until_asked(tmp_path: Path) -> None:
    """The default output costs nothing: no speechd, brlapi or prism (prismatoid) import."""
    code = ("import sys\n"
            "from sudden_death.audio.silent import SilentSpeaker\n"
            "from sudden_death.audio.screen_reader import find_screen_reader\n"
            "from sudden_death.audio.speech_output import SpeechOutput\n"
            "out = SpeechOutput(SilentSpeaker(), find_screen_reader)\n"
            "out.set_output('builtin'); out.say('Hello.')\n"
            "print(sorted(m for m in ('speechd', 'brlapi', 'prism') "
            "if m in sys.modules))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, timeout=60,
                            env={**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


REAL_QUEUE = queue.SimpleQueue


class DelayedTake:
    """A request queue whose consumer is held just after taking a request, before it sends:
    the moment when the queue is empty though a request is still on its way."""

    def __init__(self) -> None:
        self.inner: queue.SimpleQueue[object] = REAL_QUEUE()

    def put(self, item: object) -> None:
        self.inner.put(item)

    def get(self) -> object:
        item = self.inner.get()
        time.sleep(0.3)
        return item

    def empty(self) -> bool:
        return self.inner.empty()


def test_settled_means_sent_even_while_the_link_holds_a_taken_request(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reader_link.queue, "SimpleQueue", DelayedTake)
    reader = FakeReader()
    output, voice, _heard = make_output(reader)
    output.set_output(BOTH)
    news(output)
    output.silence()
    assert output.wait_settled(5.0)
    assert reader.cancels == 1 and voice.silenced == 1  # sent before "settled", not after
    output.say("Touchdown, Hawks!", priority=Priority.ALERT)
    assert output.wait_settled(5.0)
    assert reader.spoken[-1] == ("Touchdown, Hawks!", True, True)
