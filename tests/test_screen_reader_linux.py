"""The screen-reader output on Linux, with the real thing: a private speech-dispatcher (the
speech server Orca uses; its own config, socket and log, speech to ALSA's null device) and a
private BRLTTY (its TTY driver drawing a 40-cell display on a pseudo-terminal).

The server's own log is the witness: which sentences it was sent, in which order, what it handed
to the synthesizer, and when a cancel came. CI sets SUDDEN_DEATH_REQUIRE_SPEECHD=1, and
tests/speech_servers.py installs the Debian packages with apt; elsewhere these tests skip.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from apt_install import install_requested
from recording import RecordingSpeaker
from speech_servers import (
    REQUIRE_ENV,
    SYSTEM_PYTHON,
    BrailleServer,
    SpeechDispatcherServer,
    brltty,
    ensure_speech_servers,
    speech_dispatcher,
)

from sudden_death import language
from sudden_death.audio.protocols import Priority
from sudden_death.audio.screen_reader import find_screen_reader
from sudden_death.audio.speech_dispatcher import MISSING_BRLAPI, Braille, SpeechDispatcher
from sudden_death.audio.speech_output import (
    BRAILLE,
    SCREEN_READER,
    OutputNews,
    ReaderNews,
    SpeechOutput,
)

ROOT = Path(__file__).resolve().parent.parent
LONG = ("Sentence {} goes on for quite a while, so that it takes the synthesizer some time to "
        "say, with plenty of words in it for the queue to hold.")

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only"),
    # speechd's client ends its reading thread with sys.exit() when the connection closes;
    # Python ignores that in a thread, pytest reports it: only that report is let through.
    pytest.mark.filterwarnings(
        "ignore:Exception in thread SSIP client communication thread"
        ":pytest.PytestUnhandledThreadExceptionWarning"),
]


@pytest.fixture(scope="module")
def installed() -> None:
    if not ensure_speech_servers():
        if install_requested(REQUIRE_ENV):
            pytest.fail("speech-dispatcher and BRLTTY could not be installed with apt")
        pytest.skip(f"speech-dispatcher and BRLTTY are not installed (CI sets {REQUIRE_ENV}=1)")


def braille_loads_here() -> bool:
    """python3-brlapi is compiled for Debian's own Python: other versions cannot load it."""
    return any((SYSTEM_PYTHON / f"brlapi{suffix}").is_file()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


@pytest.fixture
def server(installed: None, tmp_path: Path,
           monkeypatch: pytest.MonkeyPatch) -> Iterator[SpeechDispatcherServer]:
    with speech_dispatcher(tmp_path / "speechd") as running:
        monkeypatch.setenv("SPEECHD_ADDRESS", running.address)
        monkeypatch.setenv("BRLAPI_HOST", ":59")  # no BRLTTY there unless a test starts one
        yield running


@pytest.fixture
def display(installed: None, tmp_path: Path,
            monkeypatch: pytest.MonkeyPatch) -> Iterator[BrailleServer]:
    if not braille_loads_here():
        pytest.skip("braille untested on Python {}.{}: python3-brlapi is built for Debian's "
                    "own Python only".format(*sys.version_info[:2]))
    number = 40 + os.getpid() % 50  # one BrlAPI socket per test process
    with brltty(tmp_path / "brltty", number) as running:
        monkeypatch.setenv("BRLAPI_HOST", running.host)
        yield running


def test_sentences_arrive_in_the_order_they_were_said(server: SpeechDispatcherServer) -> None:
    reader = SpeechDispatcher.connect()
    try:
        said = ["Coin toss: heads or tails?", "Heads, 1 of 2", "You won the toss."]
        for text in said:
            reader.speak(text, interrupt=False, alert=False)
        assert server.wait_for(lambda: server.spoken() == said), server.spoken()
        assert server.queued() == said
    finally:
        reader.close()


def test_an_interrupt_cancels_what_is_being_said_and_what_waits(
        server: SpeechDispatcherServer) -> None:
    reader = SpeechDispatcher.connect()
    try:
        for number in range(1, 6):
            reader.speak(LONG.format(number), interrupt=False, alert=False)
        reader.speak("Play again, 1 of 2", interrupt=True, alert=False)
        assert server.wait_for(lambda: "Play again, 1 of 2" in server.spoken())
        lines = server.log_lines()
        cancel = next(i for i, line in enumerate(lines) if line.startswith("Cancel received"))
        queued_again = next(i for i, line in enumerate(lines)
                            if line.startswith("Queueing message |Play again"))
        assert cancel < queued_again
        spoken = server.spoken()
        assert spoken[-1] == "Play again, 1 of 2"
        # Sentences still waiting when the cancel came were never handed to the synthesizer.
        assert len(spoken) < 6, spoken
    finally:
        reader.close()


def test_the_reader_is_told_the_language_of_the_words(server: SpeechDispatcherServer) -> None:
    """Orca's voice for English would read Spanish words badly: each line goes with its
    language, so speech-dispatcher picks the player's voice for it."""
    reader = SpeechDispatcher.connect()
    try:
        reader.speak("Coin toss: heads or tails?", interrupt=False, alert=False)
        with language.using(language.load("es")):
            reader.speak("Volado: ¿cara o cruz?", interrupt=False, alert=False)
        reader.speak("Heads, 1 of 2", interrupt=False, alert=False)
        assert server.wait_for(lambda: "Heads, 1 of 2" in server.spoken()), server.spoken()
        lines = server.log_lines()

        def first(start: str) -> int:
            return next(i for i, line in enumerate(lines) if start in line)

        assert first("SET self LANGUAGE en") < first("Queueing message |Coin toss")
        assert first("Queueing message |Coin toss") < first("SET self LANGUAGE es") \
            < first("Queueing message |Volado")
        told = [line for line in lines if "SET self LANGUAGE" in line]
        assert [line.rsplit(" ", 1)[1] for line in told] == ["en", "es", "en"]
    finally:
        reader.close()


def test_a_focus_move_waits_behind_a_result_instead_of_cutting_it(
        server: SpeechDispatcherServer) -> None:
    voice = RecordingSpeaker()
    output = SpeechOutput(voice, find_screen_reader)
    assert output.output == "builtin"
    output.set_output(SCREEN_READER)  # with or without braille
    assert output.wait_settled() and output.poll()[0].news is ReaderNews.CONNECTED
    assert output.output == SCREEN_READER
    try:
        result = LONG.format("of the result")
        output.say(result, priority=Priority.ALERT, category="result")
        output.say("Play again, 1 of 2", interrupt=True)  # a focus move right after
        assert server.wait_for(lambda: server.spoken() == [result, "Play again, 1 of 2"]), \
            server.spoken()
        lines = server.log_lines()
        start = next(i for i, line in enumerate(lines)
                     if line.startswith("Queueing message |Sentence of the result"))
        after = lines[start:]
        assert not any(line.startswith("Cancel received") for line in after), after
        assert voice.spoken == []  # the built-in voice stayed quiet
    finally:
        output.close_reader()


def test_without_brltty_speech_works_and_braille_says_why(
        server: SpeechDispatcherServer) -> None:
    reader = SpeechDispatcher.connect()
    try:
        assert reader.braille_notice in ("no braille display answers through BRLTTY",
                                         MISSING_BRLAPI)  # plain words: BrlAPI's are logged
    finally:
        reader.close()


def test_no_server_is_no_screen_reader(installed: None, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPEECHD_ADDRESS", f"unix_socket:{tmp_path / 'nobody-listens.sock'}")
    output = SpeechOutput(RecordingSpeaker(), find_screen_reader)
    output.set_output(SCREEN_READER)
    assert output.wait_settled()
    assert output.poll() == [OutputNews(ReaderNews.REFUSED,
                                        reason="speech-dispatcher does not answer")]
    assert output.output == "builtin"


def test_braille_shows_each_message_on_the_display(server: SpeechDispatcherServer,
                                                   display: BrailleServer) -> None:
    output = SpeechOutput(RecordingSpeaker(), find_screen_reader)
    output.set_output(SCREEN_READER)
    assert output.wait_settled()  # speech and braille both answered
    assert output.poll() == [OutputNews(ReaderNews.CONNECTED, reader="speech-dispatcher")]
    try:
        output.say("First down at your own 35!", priority=Priority.ALERT)
        assert display.wait_for("First down at your own 35!")
        output.say("Scatback, 2 of 4")
        assert display.wait_for("Scatback, 2 of 4")
    finally:
        output.close_reader()
    assert display.wait_for("no screen")  # the display is BRLTTY's own again


def test_braille_only_shows_each_line_and_sends_speech_dispatcher_nothing(
        server: SpeechDispatcherServer, display: BrailleServer) -> None:
    """The braille-only output with the real BRLTTY and speech-dispatcher: the line is on the
    display, and speech-dispatcher (which the connection goes through) is sent no words."""
    voice = RecordingSpeaker()
    output = SpeechOutput(voice, find_screen_reader)
    output.set_output(BRAILLE)
    assert output.wait_settled()
    assert output.poll() == [OutputNews(ReaderNews.CONNECTED, reader="speech-dispatcher")]
    before = list(server.queued())
    try:
        output.say("Interception! The Bears have it!", priority=Priority.ALERT)
        assert display.wait_for("Interception! The Bears have it!")
        output.say("Keep, 1 of 3")
        assert display.wait_for("Keep, 1 of 3")
        assert output.wait_settled()
    finally:
        output.close_reader()
    assert server.queued() == before and voice.spoken == []


def test_braille_alone_reconnects_nothing_when_brltty_is_gone(display: BrailleServer) -> None:
    braille, notice = Braille.connect()
    assert braille is not None and notice is None
    braille.show("Touchdown!")
    assert display.wait_for("Touchdown!")
    braille.close()
    braille.show("after closing")  # a closed display takes words without failing


def test_the_whole_game_speaks_through_speech_dispatcher(server: SpeechDispatcherServer,
                                                          tmp_path: Path) -> None:
    """The real game with the setting saved: every sentence the transcript records reaches
    speech-dispatcher, in the same order, and the built-in voice is never started."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"version": 1,
                                                      "speech_output": "screen_reader"}))
    keys = ["return", "type Hawks", "return", "return", "return", "return"]  # to the cards
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", "3",
         "--keys", "-", "--transcript", "-", "--config", str(config)],
        input="\n".join(keys) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    assert result.returncode == 0, result.stderr
    said = [json.loads(line)["text"] for line in result.stdout.splitlines()
            if '"kind": "speech"' in line]
    assert any(text.startswith("Coin toss") for text in said)
    assert server.wait_for(lambda: server.queued() == said), (server.queued(), said)


# -- a speech server that accepts and never answers (speech-dispatcher whose audio failed) ------


@pytest.fixture
def mute_server(installed: None, tmp_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A Unix socket that accepts every connection and never says a word back: speechd's
    client waits forever in its constructor there, as it does with a real hung server."""
    path = tmp_path / "mute.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                connection, _address = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            accepted.append(connection)  # read nothing, answer nothing

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    monkeypatch.setenv("SPEECHD_ADDRESS", f"unix_socket:{path}")
    monkeypatch.setenv("BRLAPI_HOST", ":59")
    try:
        yield path
    finally:
        stop.set()
        thread.join(2)
        for connection in accepted:
            connection.close()
        listener.close()


SILENT_NOTICE = "The screen reader does not answer, so the built-in voice goes on."


def game_with_mute_reader(config: Path, env_extra: dict[str, str] | None = None,
                          ) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", "3",
         "--keys", "-", "--transcript", "-", "--config", str(config)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=ROOT, env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
                       **(env_extra or {})})


def read_until(proc: subprocess.Popen[str], wanted: str, timeout: float) -> list[str]:
    """Speech lines of the transcript up to the first that starts with `wanted`."""
    assert proc.stdout is not None
    said: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        record = json.loads(line)
        if record.get("kind") == "speech":
            said.append(record["text"])
            if record["text"].startswith(wanted):
                return said
    raise AssertionError(f"never heard {wanted!r}; heard {said}")


def test_a_saved_mute_reader_at_launch_never_stops_the_game(mute_server: Path,
                                                             tmp_path: Path) -> None:
    """The saved choice, a server that never answers: the welcome comes in the game's own
    voice, every key is answered, the player hears that the reader is silent, and the game
    ends normally."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"version": 1,
                                                      "speech_output": "screen_reader"}))
    proc = game_with_mute_reader(config)
    assert proc.stdin is not None
    try:
        said = read_until(proc, "Welcome to Sudden Death", 30)
        proc.stdin.write("return\n")  # Start a game: answered while the reader is silent
        proc.stdin.flush()
        said += read_until(proc, "Your team's name", 10)
        said += read_until(proc, SILENT_NOTICE, 30)
        out, err = proc.communicate("type Hawks\nreturn\nreturn\n", timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "Coin toss: heads or tails?" in out  # the keys after the notice played on


def test_choosing_a_mute_reader_in_the_settings_keeps_every_key_answered(
        mute_server: Path, tmp_path: Path) -> None:
    proc = game_with_mute_reader(tmp_path / "config")
    assert proc.stdin is not None
    try:
        read_until(proc, "Welcome to Sudden Death", 30)
        proc.stdin.write("o\nend\nup\nup\nup\nup\nright\n")  # Done, Reset, Report, Keys, output
        proc.stdin.flush()
        read_until(proc, "Speech output: screen reader, connecting", 10)
        proc.stdin.write("up\n")  # the loop answers at once, the reader still connecting
        proc.stdin.flush()
        read_until(proc, "Speech engine", 10)
        read_until(proc, SILENT_NOTICE, 30)
        out, err = proc.communicate("escape\ns\n", timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "No game yet. Name the teams to start." in out


def test_sigterm_ends_the_game_while_a_mute_reader_is_connecting(mute_server: Path,
                                                                  tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "settings.json").write_text(json.dumps({"version": 1,
                                                      "speech_output": "screen_reader"}))
    proc = game_with_mute_reader(config)
    try:
        read_until(proc, "Welcome to Sudden Death", 30)
        proc.send_signal(signal.SIGTERM)  # the reader's thread still waits on the server
        _out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err
