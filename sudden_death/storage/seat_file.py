"""The seat at a table that a game was playing, kept in the player's folder: after a crash or
a kill, the next start offers to go back to it (the table server holds the game itself).

One small JSON file, `table.json`, written atomically when a table's game starts and removed
when the table ends. A file that does not read as one is renamed aside (`.damaged`), named in
the log, and never offered.
"""

from __future__ import annotations

import contextlib
import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path

from .files import forget, keep_json
from .folders import data_folder

FILE_NAME = "table.json"
LOG = logging.getLogger("sudden_death.seat")
MAX_BYTES = 4096


@dataclass(frozen=True)
class SavedSeat:
    url: str
    code: str
    token: str
    theirs: str  # the friend's team, for "Back to your table with the Bears"


def _path(folder: Path | None) -> Path:
    return data_folder(folder) / FILE_NAME


def load_seat(folder: Path | None) -> SavedSeat | None:
    try:
        path = _path(folder)
        if not path.is_file():
            return None
        text = path.read_text(encoding="utf-8")[:MAX_BYTES]
    except (OSError, RuntimeError, UnicodeDecodeError):
        return None
    try:
        data = json.loads(text)
        seat = SavedSeat(**{name: str(data[name]) for name in ("url", "code", "token",
                                                               "theirs")})
        if not seat.url.startswith(("ws://", "wss://")):
            raise ValueError("not a table server's address")
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        LOG.warning("%s is damaged (%s): set aside as %s.damaged", path, error, FILE_NAME)
        with contextlib.suppress(OSError):
            path.replace(path.with_name(FILE_NAME + ".damaged"))
        return None
    return seat


def save_seat(folder: Path | None, seat: SavedSeat) -> None:
    """Keep `seat`; a folder that cannot be written only means no resume after a crash."""
    keep_json(lambda: _path(folder), asdict(seat), ".table-", "the table seat", LOG)


def forget_seat(folder: Path | None) -> None:
    forget(lambda: _path(folder))
