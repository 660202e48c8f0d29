"""Player settings that survive between runs: speech, volumes, verbosity, menu wrap, text size.

Only comfort settings are stored here (the game in progress is `game_file.py`'s). Loading and
saving never raise: a
missing, unreadable or corrupt file gives the defaults plus one sentence to speak, and a failed
save gives a sentence too, so a player always hears why a setting did not stick.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

from ..language import _
from .files import write_atomic
from .folders import user_folders
from .presets import PRESETS, SWITCHES, VERBOSITIES

LOG = logging.getLogger(__name__)

FILE_NAME = "settings.json"
VERSION = 1

RATE_LIMITS = (50, 600)  # anything a synthesizer might accept; the engine clamps further
TEXT_SIZES = (100, 150, 200)  # percent of the window's normal text size (ui.layout)
SPEECH_ENGINES = ("espeak", "system")  # audio.synth.ESPEAK / SYSTEM; this module imports no audio
SPEECH_OUTPUTS = ("builtin", "screen_reader", "both", "braille")  # audio.speech_output's
COMPUTERS = ("random", "coach")  # engine.computers' names, likewise
MAX_PASSWORD = 64  # net.protocol's; this module imports no network code
SEAT_WAITS = (2, 5, 10, 20, 30, 60)  # minutes a table hosted here waits for a dropped friend
TURN_LIMITS = (0, 1, 3, 5)  # minutes each turn has at a table hosted here (0: no limit)
# Held keys repeat (ui/run/repeat.py): the pause before the first repeat (seconds) and the
# repeats a second, or None: off. "normal" is a screen reader's own.
KEY_REPEATS: Mapping[str, tuple[float, int] | None] = {
    "off": None, "slow": (0.6, 6), "normal": (0.4, 10), "fast": (0.25, 20)}
MIN_SPEECH_VOLUME = 0.1  # a file can never make the game silent for someone who cannot see it
MAX_FILE_BYTES = 64 * 1024  # a settings file is under 1 KB; anything far bigger is not ours
MAX_KEY_CHANGES = 100  # commands with keys of the player's own (the game has about 50)
MAX_KEY_CHORDS = 8  # keys and buttons one command may have
MAX_KEY_TEXT = 40  # characters in a command's or a key's name
STALE_TEMP_SECONDS = 60.0  # a save takes milliseconds: an older temp file was left by a crash


@dataclass(frozen=True)
class Settings:
    """The comfort settings. `voice` is a voice id; empty means the synthesizer's default."""

    speech_rate: int = 175
    voice: str = ""
    speech_volume: float = 1.0
    cue_volume: float = 0.8
    # The stadium bed under a game (0: off). Low by default: it is there to be felt, not heard.
    crowd_volume: float = 0.3
    verbosity: str = "normal"
    menu_wrap: bool = False
    speech_engine: str = "espeak"  # "espeak" (the game's own voice) or "system" (Windows, Mac)
    text_size: int = 100  # percent: 100, 150 or 200, for whoever reads the window
    # The built-in voice, the player's screen reader, both, or the braille display alone.
    speech_output: str = "builtin"
    computer: str = "random"  # the rules' random computer, or the coach (from the next game)
    # A house rule, off as the rules say: a tied game is played off (from the next game).
    overtime: bool = False
    play_sweep: bool = True  # a glide from the old spot to the new one after each play
    mono: bool = False  # every sound the same in both ears: one ear, or a single speaker
    language: str = ""  # a catalog's code ("es"); empty: the system's language if there is one
    table_server: str = ""  # ws:// or wss:// URL of a table server; empty: host tables here
    waiting_sound: bool = True  # a soft pulse every few seconds while a friend chooses
    lobby_news: bool = True  # a cue and a short line as tables open and go in the lobby
    seat_wait: int = 10  # minutes (SEAT_WAITS) a table this player hosts waits for a dropped seat
    turn_limit: int = 0  # minutes (TURN_LIMITS) each turn has at a table this player hosts
    table_password: str = ""  # asked of whoever joins a table this player hosts; empty: none
    # Under the verbosity dial (SWITCHES): None is the verbosity's own preset; True or False,
    # the player's choice for that switch alone.
    dice: bool | None = None
    explanations: bool | None = None
    positions: bool | None = None
    computer_swaps: bool | None = None
    rumble: bool = True  # a controller that can shakes on a sack, a turnover and a score
    key_repeat: str = "normal"  # KEY_REPEATS: how held arrows, D-pad and stick repeat
    # The player's own keys: (command, its keys and buttons as text), for the commands changed
    # only; ui/keys/own_keys.py reads them (checking each) and writes them.
    keys: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def switch(self, name: str) -> bool:
        """A switch as it stands: the player's own, else the verbosity's preset."""
        own = getattr(self, name)
        return bool(own) if own is not None else PRESETS[self.verbosity][name]

    def preset(self, verbosity: str) -> Settings:
        """This verbosity, with its preset's switches (any set alone are set back)."""
        return self.changed(verbosity=verbosity, **dict.fromkeys(SWITCHES))

    def own_switches(self) -> bool:
        """Whether a switch differs from the verbosity's preset (the player set it alone)."""
        preset = PRESETS[self.verbosity]
        return any(self.switch(name) is not preset[name] for name in SWITCHES)

    def changed(self, **changes: object) -> Settings:
        """A copy with `changes` applied and every field brought back into range."""
        return from_mapping({**asdict(self), **changes})


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def server_address(typed: str) -> str | None:
    """A table server's URL from what a player typed or a file holds: "ws://host:port" or
    "wss://host/path"; a bare "host:port" is taken as ws://. None when it cannot be one (a
    space, no host, a bad port, another scheme, or absurdly long)."""
    text = typed.strip()
    if not text or len(text) > 300 or any(char.isspace() for char in text):
        return None
    if "://" not in text:
        text = "ws://" + text
    try:
        parts = urlsplit(text)
        port_ok = parts.port is None or parts.port > 0  # .port raises on one out of range
    except ValueError:
        return None
    if parts.scheme not in ("ws", "wss") or not parts.hostname or parts.query or parts.fragment:
        return None
    return text if port_ok else None


def table_password(typed: str) -> str | None:
    """A table password as kept: spaces at the ends dropped; None when it cannot be one (over
    MAX_PASSWORD characters, or a character that cannot be typed). Empty: none."""
    text = typed.strip()
    if len(text) > MAX_PASSWORD or not text.isprintable():
        return None
    return text


def from_mapping(data: Mapping[str, object]) -> Settings:
    """Settings from untrusted data: wrong types fall back to defaults, numbers are clamped."""
    default = Settings()
    values = asdict(default)
    rate = data.get("speech_rate")
    if isinstance(rate, (int, float)) and not isinstance(rate, bool) and rate == rate:
        values["speech_rate"] = int(_clamp(float(rate), *RATE_LIMITS))
    voice = data.get("voice")
    if isinstance(voice, str) and len(voice) < 500:
        values["voice"] = voice
    for name, floor in (("speech_volume", MIN_SPEECH_VOLUME), ("cue_volume", 0.0),
                        ("crowd_volume", 0.0)):
        volume = data.get(name)
        if isinstance(volume, (int, float)) and not isinstance(volume, bool) and volume == volume:
            values[name] = round(_clamp(float(volume), floor, 1.0), 2)
    verbosity = data.get("verbosity")
    if isinstance(verbosity, str) and verbosity in VERBOSITIES:
        values["verbosity"] = verbosity
    # A switch not given: the preset's.
    for flag in ("menu_wrap", "play_sweep", "mono", "waiting_sound", "lobby_news", "overtime",
                 "rumble", *SWITCHES):
        value = data.get(flag)
        if isinstance(value, bool):
            values[flag] = value
    engine = data.get("speech_engine")
    if isinstance(engine, str) and engine in SPEECH_ENGINES:
        values["speech_engine"] = engine
    output = data.get("speech_output")
    if isinstance(output, str) and output in SPEECH_OUTPUTS:
        values["speech_output"] = output
    computer = data.get("computer")
    if isinstance(computer, str) and computer in COMPUTERS:
        values["computer"] = computer
    language = data.get("language")
    if isinstance(language, str) and len(language) < 40 and language.replace("_", "").isalnum():
        values["language"] = language
    server = data.get("table_server")
    if isinstance(server, str):
        values["table_server"] = server_address(server) or ""
    password = data.get("table_password")
    if isinstance(password, str) and table_password(password) == password:
        values["table_password"] = password
    wait = data.get("seat_wait")
    if isinstance(wait, int) and not isinstance(wait, bool) and wait in SEAT_WAITS:
        values["seat_wait"] = wait
    limit = data.get("turn_limit")
    if isinstance(limit, int) and not isinstance(limit, bool) and limit in TURN_LIMITS:
        values["turn_limit"] = limit
    repeat = data.get("key_repeat")
    if isinstance(repeat, str) and repeat in KEY_REPEATS:
        values["key_repeat"] = repeat
    size = data.get("text_size")
    if isinstance(size, int) and not isinstance(size, bool) and size in TEXT_SIZES:
        values["text_size"] = size
    values["keys"] = key_changes(data.get("keys"))
    return replace(default, **values)


def key_changes(value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The player's keys from untrusted data, as text: {command: [key, ...]} in a file, or the
    pairs a Settings holds. Only the shape is checked here (the names are the front end's): an
    entry of another shape is left out, and anything too big is no change at all."""
    pairs = list(value.items()) if isinstance(value, Mapping) else value
    if not isinstance(pairs, (list, tuple)) or len(pairs) > MAX_KEY_CHANGES:
        return ()
    kept: dict[str, tuple[str, ...]] = {}
    for pair in pairs:
        if not (isinstance(pair, (list, tuple)) and len(pair) == 2):
            continue
        name, chords = pair
        if (isinstance(name, str) and 0 < len(name) <= MAX_KEY_TEXT
                and isinstance(chords, (list, tuple)) and 0 < len(chords) <= MAX_KEY_CHORDS
                and all(isinstance(c, str) and 0 < len(c) <= MAX_KEY_TEXT for c in chords)):
            kept[name] = tuple(chords)
    return tuple(sorted(kept.items()))


def _as_file(settings: Settings) -> dict[str, object]:
    """The settings as settings.json holds them (the keys as an object of lists)."""
    return {**asdict(settings), "keys": {name: list(chords) for name, chords in settings.keys}}


def default_config_dir() -> Path:
    """The player's config folder for this platform, worked out now (never at import)."""
    return user_folders().config


def settings_path(folder: Path | None = None) -> Path:
    return (folder if folder is not None else default_config_dir()) / FILE_NAME


def load_settings(folder: Path | None = None) -> tuple[Settings, str | None]:
    """Settings from `folder` (default: the user's config folder), and a notice if any.

    The notice is one sentence to speak: the file was missing, unreadable or damaged, or some
    values in it were out of range and were corrected.
    """
    try:
        path = settings_path(folder)
    except (OSError, RuntimeError):  # no home folder at all
        return Settings(), _("No settings folder could be found, so the default settings are "
                             "used.")
    _remove_stale_temps(path.parent)
    try:
        text = _read_bounded(path)
    except FileNotFoundError:
        # Translators: O is the key (the letter O) that opens the settings menu.
        return Settings(), _("No saved settings yet, so the defaults are used. O opens settings.")
    except _NotAFile:
        return Settings(), _("The settings file is not a regular file, so the defaults are used "
                             "and changes are not saved over it.")
    except _TooBig:
        return Settings(), _("The settings file is far too big to be ours, so the defaults are "
                             "used.")
    except (OSError, UnicodeDecodeError, ValueError):
        return Settings(), _("The settings file could not be read, so the defaults are used.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return Settings(), _("The settings file was damaged, so the defaults are used.")
    if not isinstance(data, dict):
        return Settings(), _("The settings file was damaged, so the defaults are used.")
    settings = from_mapping(data)
    # A setting missing from the file (one saved before that setting existed, or written by
    # hand) just takes its default; only a value that was there and had to change is news.
    kept = _as_file(settings)
    if any(data[key] != kept[key] for key in kept if key in data):
        return settings, _("Some saved settings were not valid and were reset or corrected.")
    return settings, None


class _NotAFile(OSError):
    """The settings path is a FIFO, a device or a folder: reading it could block for ever or
    never end, and replacing it would destroy something that is not ours."""


class _TooBig(OSError):
    """Bigger than any settings file the game writes."""


def _read_bounded(path: Path) -> str:
    """The file's text, refusing anything but a regular file of a sane size. Opened without
    blocking (a FIFO would otherwise wait for a writer for ever) and read with a cap, so a link
    to /dev/zero cannot fill the memory. A UTF-8 byte order mark (Notepad's) is allowed."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise _NotAFile(f"{path} is not a regular file")
        data = handle.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise _TooBig(f"{path} is over {MAX_FILE_BYTES} bytes")
    return data.decode("utf-8-sig")


def _remove_stale_temps(folder: Path) -> None:
    """Temp files a killed save left behind (a save that is running now is younger)."""
    with contextlib.suppress(OSError):
        for temp in folder.glob(".settings-*.tmp"):
            with contextlib.suppress(OSError):
                if time.time() - temp.lstat().st_mtime > STALE_TEMP_SECONDS:
                    temp.unlink()


def save_settings(settings: Settings, folder: Path | None = None) -> str | None:
    """Write atomically (temp file, then replace); None on success, else a notice to speak."""
    try:
        path = settings_path(folder)
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            mode = path.lstat().st_mode
            if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
                # Translators: {file} is the settings file's name, "settings.json".
                return _("Settings could not be saved: {file} is not a regular file; they last "
                         "until you quit.").format(file=FILE_NAME)
        data = {"version": VERSION, **_as_file(settings)}
        write_atomic(path, json.dumps(data, indent=2, sort_keys=True) + "\n", ".settings-")
    except (OSError, RuntimeError) as error:
        LOG.warning("settings could not be saved: %s", error)
        return _("Settings could not be saved; they last until you quit.")
    return None
