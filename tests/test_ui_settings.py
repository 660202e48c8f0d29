"""Settings: the file round-trips and survives damage; every setting changes what is heard or said.

The speech-rate test uses the real synthesizer and mixer (SDL's dummy driver) in a subprocess,
since one process gets one engine; the rest run in this process with the recording fakes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs.windows
import pytest
from app_driver import press
from hypothesis import given
from hypothesis import strategies as st
from recording import RecordingCues, RecordingSpeaker

from sudden_death.engine.match import Match
from sudden_death.storage.folders import Folders, user_folders
from sudden_death.storage.settings import (
    FILE_NAME,
    Settings,
    default_config_dir,
    from_mapping,
    load_settings,
    save_settings,
    server_address,
)
from sudden_death.ui.aids.settings_screen import SETTING_KEYS, SettingsScreen
from sudden_death.ui.aids.typed_settings import PasswordSettingScreen, ServerAddressScreen
from sudden_death.ui.app import App

ROOT = Path(__file__).resolve().parent.parent



def make_app(config: Path) -> tuple[App, RecordingSpeaker, RecordingCues]:
    speaker, cues = RecordingSpeaker(), RecordingCues()
    app = App(speaker, cues, seed=1)
    app.start()
    app.comfort.start(config)
    return app, speaker, cues


# -- the file ----------------------------------------------------------------------------------


def test_round_trip_through_the_file(tmp_path: Path) -> None:
    wanted = Settings(speech_rate=380, voice="gmw/en-US", speech_volume=0.6, cue_volume=0.3,
                      verbosity="short", menu_wrap=True)
    assert save_settings(wanted, tmp_path) is None
    loaded, notice = load_settings(tmp_path)
    assert loaded == wanted and notice is None
    assert json.loads((tmp_path / FILE_NAME).read_text())["speech_rate"] == 380
    assert [p.name for p in tmp_path.iterdir()] == [FILE_NAME]  # no temp file left behind
    assert save_settings(wanted.changed(speech_rate=200), tmp_path) is None  # replaces
    assert load_settings(tmp_path)[0].speech_rate == 200


def test_missing_file_and_missing_folder_give_defaults_and_a_notice(tmp_path: Path) -> None:
    folder = tmp_path / "not" / "there"
    settings, notice = load_settings(folder)
    assert settings == Settings() and notice and "default" in notice
    assert save_settings(Settings(verbosity="detailed"), folder) is None  # folders are made
    assert load_settings(folder) == (Settings(verbosity="detailed"), None)


@pytest.mark.parametrize("text", ["{not json", "", "[1, 2, 3]", '"just a string"', "\x00\xff",
                                  "{" * 5000])
def test_garbage_gives_defaults_and_a_notice(tmp_path: Path, text: str) -> None:
    (tmp_path / FILE_NAME).write_text(text, encoding="utf-8", errors="surrogateescape")
    settings, notice = load_settings(tmp_path)
    assert settings == Settings() and notice


def test_wrong_types_and_out_of_range_values_are_corrected(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).write_text(json.dumps({
        "speech_rate": "fast", "voice": 7, "speech_volume": -3, "cue_volume": 9,
        "verbosity": "chatty", "menu_wrap": "yes",
    }))
    settings, notice = load_settings(tmp_path)
    assert notice and "corrected" in notice
    assert settings == Settings(speech_volume=0.1, cue_volume=1.0)  # never silent speech
    assert from_mapping({"speech_rate": 10_000}).speech_rate == 600
    assert from_mapping({"speech_rate": True}).speech_rate == Settings().speech_rate
    assert from_mapping({"speech_rate": float("nan")}).speech_rate == Settings().speech_rate


def test_a_file_missing_some_settings_loads_quietly(tmp_path: Path) -> None:
    """A file saved before a setting existed (text size, say) is not "not valid": the missing
    ones take their defaults and nothing is announced; a bad value present still is."""
    (tmp_path / FILE_NAME).write_text(json.dumps({"speech_rate": 220, "verbosity": "short"}))
    assert load_settings(tmp_path) == (Settings(speech_rate=220, verbosity="short"), None)
    (tmp_path / FILE_NAME).write_text(json.dumps({"speech_rate": 220, "text_size": 175}))
    settings, notice = load_settings(tmp_path)
    assert settings == Settings(speech_rate=220) and notice and "corrected" in notice
    assert from_mapping({"text_size": 200}).text_size == 200
    assert from_mapping({"text_size": True}).text_size == 100


def test_unreadable_or_unwritable_places_never_raise(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).mkdir()  # a folder where the file should be: unreadable
    settings, notice = load_settings(tmp_path)
    assert settings == Settings() and notice
    blocker = tmp_path / "file.txt"
    blocker.write_text("x")
    notice = save_settings(Settings(), blocker / "sub")  # parent is a file: cannot make it
    assert notice and "could not be saved" in notice
    readonly = tmp_path / "readonly"
    readonly.mkdir()
    save_settings(Settings(), readonly)
    (readonly / FILE_NAME).chmod(0o400)  # a read-only file is still read, and replaced
    assert load_settings(readonly) == (Settings(), None)
    assert save_settings(Settings(speech_rate=250), readonly) is None
    assert load_settings(readonly)[0].speech_rate == 250
    # No one may create a file in /proc/self, root included (a mode bit would not stop root).
    if sys.platform.startswith("linux"):
        notice = save_settings(Settings(), Path("/proc/self"))
        assert notice and "could not be saved" in notice


# A full disk, as root sees it too: a file size limit of 0 bytes makes every write fail (EFBIG),
# after the temporary file was created. The child prints what it then found.
FULL_DISK_CHILD = """
import json, os, resource, signal, sys
from pathlib import Path
from sudden_death.storage.settings import Settings, load_settings, save_settings
folder = Path(sys.argv[1])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails, not kills
resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
notice = save_settings(Settings(speech_rate=300), folder)
print(json.dumps({"notice": notice, "rate": load_settings(folder)[0].speech_rate,
                  "files": sorted(os.listdir(folder))}))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="file size limits (RLIMIT_FSIZE) are POSIX")
def test_a_save_that_cannot_write_keeps_the_old_file(tmp_path: Path) -> None:
    assert save_settings(Settings(speech_rate=250), tmp_path) is None
    result = subprocess.run([sys.executable, "-c", FULL_DISK_CHILD, str(tmp_path)],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["notice"] and "could not be saved" in report["notice"]
    assert report["rate"] == 250  # the old file is intact
    assert report["files"] == [FILE_NAME]  # and the half-written temporary file is gone


def test_each_platform_has_its_own_folders(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "x"))
    monkeypatch.delenv("XDG_DATA_HOME")
    linux = user_folders(platform="linux")
    assert linux.config == tmp_path / "x" / "sudden-death"
    assert linux.data == home / ".local" / "share" / "sudden-death"
    assert linux.exports == home / "Documents"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative")  # not absolute: ignored, as XDG says
    assert user_folders(platform="linux").config == home / ".config" / "sudden-death"
    mac = user_folders(platform="darwin")
    assert mac.config == mac.data == home / "Library" / "Application Support" / "SuddenDeath"
    assert mac.log == home / "Library" / "Logs" / "SuddenDeath"
    # Windows asks the shell for its folders; here its environment variables stand in.
    monkeypatch.setattr(platformdirs.windows, "get_win_folder",
                        platformdirs.windows.get_win_folder_from_env_vars)
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roam"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    windows = user_folders(platform="win32")
    assert windows.config == windows.data == tmp_path / "Roam" / "SuddenDeath"
    assert windows.log == tmp_path / "Local" / "SuddenDeath" / "Logs"


def test_a_chosen_folder_holds_everything(tmp_path: Path) -> None:
    assert user_folders(tmp_path) == Folders(tmp_path, tmp_path, tmp_path, tmp_path)
    assert default_config_dir() == user_folders().config != user_folders().data


# -- in the game -------------------------------------------------------------------------------


def test_saved_settings_are_applied_at_start_and_bad_ones_are_announced(tmp_path: Path) -> None:
    save_settings(Settings(speech_rate=400, voice="fake/tenor", speech_volume=0.5,
                           cue_volume=0.25), tmp_path)
    _, speaker, cues = make_app(tmp_path)
    assert (speaker.rate, speaker.voice, speaker.volume, cues.volume) == \
        (400, "fake/tenor", 0.5, 0.25)
    (tmp_path / FILE_NAME).write_text("{oops")
    _, speaker, cues = make_app(tmp_path)
    notices = [m.text for m in speaker.spoken if m.category == "notice"]
    assert notices == ["The settings file was damaged, so the defaults are used."]
    assert speaker.rate == Settings().speech_rate


def test_settings_menu_from_title_and_in_game_each_change_heard_and_saved(
        tmp_path: Path) -> None:
    app, speaker, cues = make_app(tmp_path)
    press(app, "down", "down", "down", "down", "return")  # title screen: Settings
    assert isinstance(app.top, SettingsScreen)
    assert speaker.spoken[-1].text.startswith("Settings. Up and Down")
    entries = len(SETTING_KEYS) + 4  # and Keys, Report a problem, Reset, Done
    assert speaker.spoken[-1].text.endswith(f"Language: English, 1 of {entries}")
    press(app, "down", "shift+right")
    assert speaker.rate == 225 and speaker.spoken[-1].text == \
        "Speech rate: 225 words per minute"
    for _ in range(30):
        press(app, "shift+right")
    assert speaker.rate == 450 and speaker.spoken[-1].text.endswith("the limit.")
    press(app, "down", "right")
    assert speaker.voice == "fake/alto" and speaker.spoken[-1].text == "Voice: Alto"
    press(app, "space")
    assert speaker.voice == "fake/tenor"
    press(app, "down", "left")
    assert speaker.volume == 0.9 and speaker.spoken[-1].text == "Speech volume: 90 percent"
    press(app, "down", "left")
    assert cues.volume == 0.7 and cues.played[-1] == "menu_select"
    press(app, "down", "left")  # the crowd: saved, heard once a game is under way
    assert speaker.spoken[-1].text == "Crowd: 20 percent" and cues.crowd == 0.0
    press(app, "down", "left")
    assert speaker.spoken[-1].text == "Verbosity: short: only what changed"
    press(app, "down", "space")  # a switch under the dial, set alone
    assert speaker.spoken[-1].text == "Dice and percentages: on"
    press(app, "up")
    assert speaker.spoken[-1].text == ("Verbosity: short: only what changed, with your own "
                                       "switches")
    press(app, "down", "down", "down", "down", "down", "space")  # past the other switches
    assert speaker.spoken[-1].text == "Menu wrap: on"
    saved, notice = load_settings(tmp_path)
    assert notice is None and saved == Settings(
        speech_rate=450, voice="fake/tenor", speech_volume=0.9, cue_volume=0.7, crowd_volume=0.2,
        verbosity="short", dice=True, menu_wrap=True)
    press(app, "escape")
    assert app.top.help_key == "welcome"
    assert speaker.spoken[-1].text.startswith("Back. Main menu: Settings")
    # In game: O and F2 open it over the current decision, Escape returns to it.
    app.names_chosen("Hawks", "Bears")
    press(app, "o")
    assert isinstance(app.top, SettingsScreen)
    press(app, "f1")
    assert "Left and Right change it" in speaker.spoken[-1].text
    press(app, "escape", "f2")
    assert isinstance(app.top, SettingsScreen)
    press(app, "escape")
    assert app.top.help_key == "coin"


def test_menu_wrap_changes_the_edges(tmp_path: Path) -> None:
    app, speaker, cues = make_app(tmp_path)
    press(app, "up")
    assert cues.played[-1] == "menu_edge" and speaker.spoken[-1].text.startswith("Start a game")
    app.comfort.change(app.comfort.settings.changed(menu_wrap=True))
    press(app, "up")
    assert cues.played[-1] == "menu_edge" and speaker.spoken[-1].text.startswith("Quit")
    press(app, "down")
    assert speaker.spoken[-1].text.startswith("Start a game")


def _first_down_events() -> list:
    """Events of a whole first down (seed 1, heads, offense, first cards, keep, first call)."""
    from sudden_death.engine.actions import (
        CallCoin,
        ChooseSide,
        ChooseSnap,
        PickFinal,
        PickHand,
        PickSwap,
    )
    from sudden_death.engine.cards import calls_for, players_for
    from sudden_death.engine.state import CoinFace, Hand, Side, SnapChoice, Swap

    match = Match.against_computer(1)
    events = list(match.advance())
    for action in (CallCoin(CoinFace.HEADS), ChooseSide(Side.OFFENSE), ChooseSnap(SnapChoice.PLAY)):
        events += match.act(action)
    role = match.role_of(match.state.offense)
    assert role is not None
    hand = Hand(players_for(role)[:2], calls_for(role)[:3])
    events += match.act(PickHand(hand))
    events += match.act(PickSwap(Swap.keep()))
    events += match.act(PickFinal(hand.calls[0]))
    return events


def test_verbosity_changes_what_is_said() -> None:
    from sudden_death.ui.words.narration import Narrator
    from sudden_death.ui.words.phrases import Names
    from sudden_death.ui.words.verbosity import Telling, Verbosity

    events = _first_down_events()
    said = {}
    cues = {}
    for verbosity in ("short", "normal", "detailed"):
        lines = Narrator(Names("Hawks", "Bears")).lines(events,
                                                        Telling.preset(Verbosity.of(verbosity)))
        said[verbosity] = " ".join(line.text for line in lines if line.text)
        cues[verbosity] = [(line.cue, line.dice) for line in lines if line.cue or line.dice]
    assert len(said["short"]) < 0.7 * len(said["normal"]) < 0.7 * len(said["detailed"])
    assert "yardage roll" not in said["short"] and "Band" in said["short"]
    assert "yards to the goal line" in said["detailed"]
    assert cues["short"] == cues["normal"] == cues["detailed"]  # no sound is ever dropped


REAL_RATE_CHILD = """
import json, pygame
from sudden_death.audio.system import SPEECH_CHANNEL, open_audio
from sudden_death.storage.settings import Settings
from sudden_death.ui.aids.audio_controls import AudioControls
audio = open_audio(sound=False)
controls = AudioControls(audio.speaker, audio.cues)
lengths = {}
sentence = "Second and seven at your own thirty one, the Bears call a blitz."
current = []
channel = pygame.mixer.Channel(SPEECH_CHANNEL)
audio.speech.add_playback_listener(
    lambda text, when: current.append(channel.get_sound().get_length()))
for rate in (140, 420):
    controls.apply(Settings(speech_rate=rate))
    audio.speaker.say(sentence, interrupt=False)
    assert audio.speech.wait_idle(15)
    lengths[rate] = current[-1]
audio.close()
print(json.dumps({"lengths": lengths, "notices": audio.notices, "range": audio.speaker.rate_range}))
"""


def test_a_faster_rate_gives_shorter_real_audio() -> None:
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    result = subprocess.run([sys.executable, "-c", REAL_RATE_CHILD], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["notices"] == []
    slow, fast = report["lengths"]["140"], report["lengths"]["420"]
    assert fast < 0.6 * slow, report
    assert report["range"][1] >= 350  # fast listeners can go past 350 words per minute


def test_speech_engine_setting_switches_heard_at_once_and_saved(tmp_path: Path) -> None:
    """Where two engines exist (Windows, macOS) the setting switches and says so in the new
    engine; the voice goes back to the new engine's default. With one, it says so."""
    app, speaker, _cues = make_app(tmp_path)
    # Done, Reset, Report a problem, Keys, Speech output, then Speech engine
    press(app, "o", "end", "up", "up", "up", "up", "up")
    assert speaker.spoken[-1].text == "Speech engine: eSpeak NG"
    press(app, "space")
    assert speaker.spoken[-1].text == "Only eSpeak NG speaks on this system."
    assert speaker.engine == "espeak"
    speaker.engines.append(("system", "Windows voices"))
    app.comfort.change(app.comfort.settings.changed(voice="fake/tenor"))
    press(app, "right")
    assert speaker.engine == "system" and speaker.spoken[-1].text == (
        "Speech engine: Windows voices")
    saved, _ = load_settings(tmp_path)
    assert (saved.speech_engine, saved.voice) == ("system", "")
    press(app, "space")
    assert speaker.engine == "espeak" and load_settings(tmp_path)[0].speech_engine == "espeak"


def test_text_size_setting_steps_is_saved_and_sizes_the_window(tmp_path: Path) -> None:
    app, speaker, _cues = make_app(tmp_path)
    # Done, Reset, Report a problem, Keys, output, engine,
    press(app, "o", "end", "up", "up", "up", "up", "up", "up", "up", "up")
    # Overtime, Opponent, then Text size
    assert speaker.spoken[-1].text == "Text size: 100 percent"
    press(app, "right")
    assert speaker.spoken[-1].text == "Text size: 150 percent"
    press(app, "right", "right")
    assert speaker.spoken[-1].text == "Text size: 200 percent, the limit."
    assert load_settings(tmp_path)[0].text_size == 200
    assert app.view().text_size == 200
    press(app, "space")  # Space cycles back round
    assert speaker.spoken[-1].text == "Text size: 100 percent"


# -- playing at a table ------------------------------------------------------------------------


def _focus_setting(app: App, key: str) -> None:
    press(app, "down", "down", "down", "down", "return")  # title screen: Settings
    press(app, *["down"] * SETTING_KEYS.index(key))


def test_the_table_server_is_typed_checked_kept_and_cleared(tmp_path: Path) -> None:
    app, speaker, cues = make_app(tmp_path)
    _focus_setting(app, "table_server")
    assert speaker.spoken[-1].text == "Table server: none, tables are hosted on this computer"
    press(app, "right")
    assert cues.played[-1] == "menu_edge"
    assert speaker.spoken[-1].text == "Press Enter to type it."
    press(app, "return")
    assert isinstance(app.top, ServerAddressScreen)
    assert speaker.spoken[-1].text.startswith("A table server's address, such as")
    app.handle_text("http://x")  # not a WebSocket address: refused, and can be typed again
    press(app, "return")
    assert cues.played[-1] == "menu_error" and isinstance(app.top, ServerAddressScreen)
    assert speaker.spoken[-1].text.startswith("http://x is not a table server's address")
    press(app, *["backspace"] * len("http://x"))
    app.handle_text("192.168.1.20:8765")
    press(app, "return")
    assert isinstance(app.top, SettingsScreen)
    assert speaker.spoken[-1].text == "Table server: ws://192.168.1.20:8765"
    assert load_settings(tmp_path)[0].table_server == "ws://192.168.1.20:8765"
    assert not app.friends.needs_address()  # joining now goes through that server
    press(app, "return")
    assert "Escape keeps ws://192.168.1.20:8765." in speaker.spoken[-1].text
    app.handle_text("wss://elsewhere.example")
    press(app, "escape")
    assert speaker.spoken[-1].text == "The table server is unchanged."
    assert app.comfort.settings.table_server == "ws://192.168.1.20:8765"
    press(app, "return", "return")  # nothing typed: none again
    assert speaker.spoken[-1].text == "Table server: none, tables are hosted on this computer"
    assert load_settings(tmp_path)[0].table_server == "" and app.friends.needs_address()


def test_how_long_a_hosted_table_waits_steps_through_its_choices_and_is_kept(
        tmp_path: Path) -> None:
    app, speaker, _ = make_app(tmp_path)
    _focus_setting(app, "seat_wait")
    assert speaker.spoken[-1].text == "Wait for a dropped friend: 10 minutes"
    press(app, "right")
    assert speaker.spoken[-1].text == "Wait for a dropped friend: 20 minutes"
    press(app, *["left"] * 3)
    assert speaker.spoken[-1].text == "Wait for a dropped friend: 2 minutes"
    press(app, "left")
    assert speaker.spoken[-1].text == "Wait for a dropped friend: 2 minutes, the limit."
    assert load_settings(tmp_path)[0].seat_wait == 2
    assert from_mapping({"seat_wait": 7}).seat_wait == 10  # not a choice: the default
    assert from_mapping({"seat_wait": True}).seat_wait == 10


@pytest.mark.parametrize(("typed", "kept"), [
    ("192.168.1.20:8765", "ws://192.168.1.20:8765"), ("ws://h:1", "ws://h:1"),
    ("wss://tables.example.org/sd", "wss://tables.example.org/sd"),
    ("  wss://[::1]:8765 ", "wss://[::1]:8765"), ("http://x", None), ("ws://:80", None),
    ("ws://h:99999", None), ("ws://h:port", None), ("a b", None), ("", None),
    ("ws://h/?q=1", None), ("x" * 301, None)])
def test_a_table_server_address_is_a_websocket_url_or_nothing(typed: str,
                                                               kept: str | None) -> None:
    assert server_address(typed) == kept
    if kept is not None:  # what the settings file holds loads back unchanged
        assert from_mapping({"table_server": kept}).table_server == kept
    else:
        assert from_mapping({"table_server": typed}).table_server == ""


@given(st.text(max_size=80))
def test_any_accepted_address_is_a_websocket_url_that_is_accepted_again(typed: str) -> None:
    kept = server_address(typed)
    if kept is None:
        return
    parts = urlsplit(kept)
    assert parts.scheme in ("ws", "wss") and parts.hostname
    assert not any(char.isspace() for char in kept)
    assert server_address(kept) == kept


def test_the_table_password_is_typed_kept_said_and_cleared(tmp_path: Path) -> None:
    app, speaker, _ = make_app(tmp_path)
    _focus_setting(app, "table_password")
    assert speaker.spoken[-1].text == "Table password: none, the code alone joins"
    press(app, "space")
    assert isinstance(app.top, PasswordSettingScreen)
    app.handle_text("blue 42 ")
    press(app, "return")
    assert speaker.spoken[-1].text == "Table password: blue 42"  # the spaces at the end go
    assert load_settings(tmp_path)[0].table_password == "blue 42"
    press(app, "return")
    assert speaker.spoken[-1].text.endswith("Escape keeps blue 42.")
    press(app, "return")
    assert load_settings(tmp_path)[0].table_password == ""
    assert from_mapping({"table_password": "x" * 65}).table_password == ""
    assert from_mapping({"table_password": "tab\there"}).table_password == ""
