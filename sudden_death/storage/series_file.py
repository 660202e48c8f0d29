"""A series against the computer kept between games and windows: `series.json` in the data
folder, written atomically after each game; the game in progress inside it is kept by
game_file.py as any game is. The rule itself is `engine.series.Series`.
"""

from __future__ import annotations

import contextlib
import json
import logging
from pathlib import Path

from ..engine.series import LENGTHS, Series
from ..engine.state import Team
from .files import forget, keep_json
from .folders import data_folder

FILE_NAME = "series.json"
FORMAT = 1
LOG = logging.getLogger("sudden_death.series")
MAX_BYTES = 64 * 1024


def load_series(folder: Path | None) -> Series | None:
    """The series being played, None when there is none or the file does not read (it is
    then renamed aside, as a damaged save is)."""
    try:
        path = data_folder(folder) / FILE_NAME
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8")[:MAX_BYTES])
        if data.get("format") != FORMAT:
            raise ValueError(f"format {data.get('format')!r}")
        best_of, replay = data["best_of"], data["replay_ties"]
        if best_of not in LENGTHS or not isinstance(replay, bool):
            raise ValueError("not a series' length")
        results = tuple(None if value is None else Team(int(value)) for value in data["results"])
        series = Series(best_of, replay, str(data["home"]), str(data["away"]),
                        str(data["computer"]), results)
        if len(results) > best_of * 50 or series.played > best_of:
            raise ValueError("more games than the series has")
    except (OSError, RuntimeError, UnicodeDecodeError, ValueError, KeyError, TypeError,
            AttributeError) as error:
        LOG.warning("the series did not read (%s); it is set aside", error)
        with contextlib.suppress(OSError, RuntimeError, UnboundLocalError):
            path.replace(path.with_name(FILE_NAME + ".damaged"))
        return None
    return series


def save_series(folder: Path | None, series: Series) -> str | None:
    """Keep the series; the reason when it could not be written."""
    data = {"format": FORMAT, "best_of": series.best_of, "replay_ties": series.replay_ties,
            "home": series.home, "away": series.away, "computer": series.computer,
            "results": [None if winner is None else int(winner) for winner in series.results]}
    return keep_json(lambda: data_folder(folder) / FILE_NAME, data, ".series-", "the series",
                     LOG)


def forget_series(folder: Path | None) -> None:
    forget(lambda: data_folder(folder) / FILE_NAME)
