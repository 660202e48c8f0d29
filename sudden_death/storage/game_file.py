"""The game in progress against the computer, kept in the player's folder after every step, so
quitting, a closed window, a crash or a kill never loses it: the next start offers it again.

One JSON file, `game.json`, written atomically. It holds what rebuilds the game exactly: the
match's seed and opponent, the team names, and every action the player's choices applied, in
order; and the match's snapshot (`Match.to_json`, the dice included) to check the rebuilt one
against. Replaying the actions is what restores the session's memory of what was revealed
(the other team's cards, the player's last cards), exactly as the game had it. A file that does
not read as a save, or whose replay does not give its snapshot (another version's rules), is
renamed aside and named in words, never deleted and never offered.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .files import forget, keep_json
from .folders import data_folder

FILE_NAME = "game.json"
FORMAT = 1
LOG = logging.getLogger("sudden_death.save")
MAX_BYTES = 2 * 1024 * 1024  # a whole game's actions are a few kilobytes


@dataclass(frozen=True)
class SavedGame:
    seed: int
    computer: str
    home: str
    away: str
    actions: list[dict[str, Any]] = field(default_factory=list)
    snapshot: str = ""  # Match.to_json() after the last action
    overtime: bool = False  # the house rule the game was started with


class DamagedSave(Exception):
    """A save that cannot go on; its text says why, and where the file was put aside."""


def _path(folder: Path | None) -> Path:
    return data_folder(folder) / FILE_NAME


def load_game(folder: Path | None) -> SavedGame | None:
    """The saved game, None when there is none; DamagedSave (the file already set aside)
    when there is one that does not read."""
    path = _path(folder)
    try:
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8")[:MAX_BYTES]
    except (OSError, RuntimeError, UnicodeDecodeError) as error:
        raise set_aside(folder, f"it could not be read ({error})") from None
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT:
            raise ValueError(f"a save of format {data.get('format')!r}")
        saved = SavedGame(seed=int(data["seed"]), computer=str(data["computer"]),
                          home=str(data["home"]), away=str(data["away"]),
                          actions=[dict(action) for action in data["actions"]],
                          snapshot=str(data["snapshot"]),
                          overtime=data.get("overtime", False) is True)
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as error:
        raise set_aside(folder, f"it is not a saved game ({error})") from None
    return saved


def set_aside(folder: Path | None, why: str) -> DamagedSave:
    """Rename the save out of the way (game.json.damaged-TIME), keeping it for whoever wants
    to look; returns the error that says so."""
    path = _path(folder)
    aside = path.with_name(f"{FILE_NAME}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    with contextlib.suppress(OSError):
        path.replace(aside)
    LOG.warning("%s: %s; set aside as %s", path, why, aside.name)
    return DamagedSave(aside.name)


def save_game(folder: Path | None, saved: SavedGame) -> str | None:
    """Keep `saved`; the reason when it could not be written (said once by the caller)."""
    return keep_json(lambda: _path(folder), {"format": FORMAT, **asdict(saved)}, ".game-",
                     "the game in progress", LOG)


def forget_game(folder: Path | None) -> None:
    forget(lambda: _path(folder))
