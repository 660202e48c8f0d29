"""A series against the computer: best of 3, 5 or 7 games, kept between games and windows.

The rule is a value (`Series`), so it can be checked alone: a series is over as soon as one
team has more wins than the other could still reach, or when every game has been played (a
series can then end level, if tied games count and are not replayed). With "replay a tie", a
tied game is played again and does not use up a game of the series.

`series.json` in the data folder holds it, written atomically after each game; the game in
progress inside it is kept by game_file.py as any game is.
"""

from __future__ import annotations

import contextlib
import json
import logging
from dataclasses import dataclass, replace
from pathlib import Path

from .engine.state import Team
from .files import forget, keep_json
from .folders import data_folder

FILE_NAME = "series.json"
LENGTHS = (3, 5, 7)
FORMAT = 1
LOG = logging.getLogger("sudden_death.series")
MAX_BYTES = 64 * 1024


@dataclass(frozen=True)
class Series:
    best_of: int
    replay_ties: bool
    home: str
    away: str
    computer: str
    results: tuple[Team | None, ...] = ()  # each game's winner, None for a tie, in order

    def wins(self, team: Team) -> int:
        return sum(winner is team for winner in self.results)

    @property
    def ties(self) -> int:
        return sum(winner is None for winner in self.results)

    @property
    def played(self) -> int:
        """The games that used up a game of the series (a replayed tie does not)."""
        return len(self.results) - (self.ties if self.replay_ties else 0)

    @property
    def left(self) -> int:
        return self.best_of - self.played

    @property
    def winner(self) -> Team | None:
        """The team that has won the series: more wins than the other can still reach."""
        for team in Team:
            if self.wins(team) > self.wins(team.other) + self.left:
                return team
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None or self.left <= 0

    def after(self, winner: Team | None) -> Series:
        """The series once a game has ended with `winner` (None: a tie)."""
        if self.over:
            raise ValueError("the series is over")
        return replace(self, results=(*self.results, winner))

    @property
    def next_game(self) -> int:
        """The number of the game to play next (1 for the first), replays counted."""
        return len(self.results) + 1


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
